import {
  ListImportJobResponseSchema, ListParamsSchema, ListSettingsSchema, ListsOverviewResponseSchema, ListStateResponseSchema,
  ScreeningSearchResponseSchema, ScreeningSearchSchema,
} from '@core/api/screening.js';
import { IdParamsSchema } from '@core/api/common.js';
import {
  AlertDecisionSchema, AlertResponseSchema, AlertsQuerySchema, AlertsResponseSchema, RescreenResponseSchema, ScreeningSettingsResponseSchema,
  ScreeningSettingsSchema,
} from '@core/api/screening-alerts.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { decideAlert, listAlerts, screeningSettings, updateScreeningSettings } from './alerts-service.js';
import { listImport, queueListImport } from './list-imports.js';
import { listsOverview, updateListSettings } from './lists-service.js';
import { latestRescreen } from './rescreen.js';
import { searchLists } from './search.js';
import { MAX_LIST_FILE_MB, receiveListUpload } from './upload.js';

// Sanctions screening (docs/rules/screening.md): the lists' versions, imported by the admin and
// read by staff, and the search staff use to check a name by hand.

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/screening/lists', {
    config: { access: 'admin' },
    schema: {
      summary: `Uploads a sanctions list's official file(s) to import as its new version (admin; multipart: source, files; at most ${MAX_LIST_FILE_MB} MB a file): answers at once with the import, done as a durable job`,
      consumes: ['multipart/form-data'],
      response: replies({ 202: ListImportJobResponseSchema }, ['list_file_too_large', 'list_files_invalid', 'upload_incomplete', 'validation_failed']),
    },
  }, async (request, reply) => {
    const upload = await receiveListUpload(request);
    try {
      return reply.status(202).send({ data: await queueListImport(ctx, actorOf(request), request.lang, upload.source, upload.files) });
    } finally {
      await upload.cleanup();
    }
  });

  app.get('/screening/lists/imports/:id', {
    config: { access: 'admin' },
    schema: {
      summary: 'A list import\'s state (queued, running, done, failed), its progress, and the version it made or why it failed (admin)',
      params: IdParamsSchema, response: replies({ 200: ListImportJobResponseSchema }),
    },
  }, async (request) => ({ data: await listImport(ctx.db, request.lang, request.params.id) }));

  app.get('/screening/lists', {
    config: { access: 'staff' },
    schema: { summary: 'Each sanctions list\'s current version, age, whether it is required and its maximum age; whether anyone is screened (staff)', response: replies({ 200: ListsOverviewResponseSchema }) },
  }, async (request) => ({ data: await listsOverview(ctx.db, request.lang) }));

  app.put('/screening/lists/:source', {
    config: { access: 'admin' },
    schema: { summary: 'Sets whether a sanctions list is required and its maximum age in hours (admin)', params: ListParamsSchema, body: ListSettingsSchema, response: replies({ 200: ListStateResponseSchema }) },
  }, async (request) => ({ data: await updateListSettings(ctx.db, actorOf(request), request.params.source, request.body) }));

  app.post('/screening/search', {
    config: { access: 'staff' },
    schema: { summary: 'The best matches of a name (with an optional date of birth and country) in the current sanctions lists, each explained (staff)', body: ScreeningSearchSchema, response: replies({ 200: ScreeningSearchResponseSchema }) },
  }, async (request) => ({ data: await searchLists(ctx.db, request.body) }));

  app.get('/screening/alerts', {
    config: { access: 'staff' },
    schema: { summary: 'Screening alerts, newest first, with what was screened, the list entry, the score and its explanation; by status (staff)', querystring: AlertsQuerySchema, response: replies({ 200: AlertsResponseSchema }) },
  }, async (request) => ({ data: await listAlerts(ctx.db, request.query.status) }));

  app.post('/screening/alerts/:id/decision', {
    config: { access: 'staff' },
    schema: {
      summary: 'Decides a screening alert: false_positive releases its holds and is remembered for that person and unchanged entry; confirmed is an admin\'s proposal, then a second staff member\'s agreement (a second POST), and keeps the transfer frozen (staff, audited)',
      params: IdParamsSchema, body: AlertDecisionSchema, response: replies({ 200: AlertResponseSchema }, ['alert_confirmation_pending', 'alert_decided', 'own_case', 'second_staff_required']),
    },
  }, async (request) => ({ data: await decideAlert(ctx.db, actorOf(request), request.params.id, request.body) }));

  app.get('/screening/settings', {
    config: { access: 'admin' },
    schema: { summary: 'The score from which a screening hit holds (admin)', response: replies({ 200: ScreeningSettingsResponseSchema }) },
  }, async () => ({ data: await screeningSettings(ctx.db) }));

  app.put('/screening/settings', {
    config: { access: 'admin' },
    schema: { summary: 'Sets the score from which a screening hit holds, 0.5 to 1 (admin, audited)', body: ScreeningSettingsSchema, response: replies({ 200: ScreeningSettingsResponseSchema }) },
  }, async (request) => ({ data: await updateScreeningSettings(ctx.db, actorOf(request), request.body) }));

  app.get('/screening/rescreen', {
    config: { access: 'staff' },
    schema: { summary: 'The latest re-screening of every sender and saved recipient after a list version changed: how far it is (staff)', response: replies({ 200: RescreenResponseSchema }) },
  }, async () => ({ data: await latestRescreen(ctx.db) }));
};
export default routes;
