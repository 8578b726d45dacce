import {
  ListImportResponseSchema, ListParamsSchema, ListSettingsSchema, ListsOverviewResponseSchema, ListStateResponseSchema,
  ScreeningSearchResponseSchema, ScreeningSearchSchema,
} from '@core/api/screening.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { importList, listsOverview, updateListSettings } from './lists-service.js';
import { searchLists } from './search.js';
import { MAX_LIST_FILE_MB, receiveListUpload } from './upload.js';

// Sanctions screening (docs/rules/screening.md): the lists' versions, imported by the admin and
// read by staff, and the search staff use to check a name by hand.

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/screening/lists', {
    config: { access: 'admin' },
    schema: {
      summary: `Imports a sanctions list's official file(s) as its new version (admin; multipart: source, files; at most ${MAX_LIST_FILE_MB} MB a file)`,
      consumes: ['multipart/form-data'],
      response: replies({ 200: ListImportResponseSchema, 201: ListImportResponseSchema }),
    },
  }, async (request, reply) => {
    const upload = await receiveListUpload(request);
    try {
      const imported = await importList(ctx.db, actorOf(request), upload.source, upload.files);
      // The same file(s) as the current version: that version, and nothing new was made.
      return reply.status(imported.unchanged ? 200 : 201).send({ data: imported });
    } finally {
      await upload.cleanup();
    }
  });

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
};
export default routes;
