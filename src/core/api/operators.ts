import { z } from 'zod';
import { MOBILE_CHANNEL_IDS, PREFIX_PATTERN } from '../operators.js';
import { dataOf, isoDateTime } from './common.js';

// The operators' number ranges of the mobile-money channels (docs/rules/corridors.md#phone-country-rules): public, since the browser
// checks a payout number as the server does, and edited by the admin.

const channel = () => z.enum(MOBILE_CHANNEL_IDS, { error: 'admin.validation.operatorChannelInvalid' });

/** One range as everyone reads it (GET /api/operators). */
const OperatorPrefixSchema = z.object({ channel: channel(), operator: z.string(), prefix: z.string() });
export type OperatorPrefixJson = z.infer<typeof OperatorPrefixSchema>;
export const OperatorsResponseSchema = dataOf(z.array(OperatorPrefixSchema));
export type OperatorsResponse = z.infer<typeof OperatorsResponseSchema>;

/** One range as the admin edits it. */
const AdminOperatorPrefixSchema = OperatorPrefixSchema.extend({
  id: z.uuid(),
  updated_at: isoDateTime(),
  updated_by: z.uuid().nullable(),
});
export type AdminOperatorPrefix = z.infer<typeof AdminOperatorPrefixSchema>;
export const AdminOperatorPrefixListSchema = dataOf(z.array(AdminOperatorPrefixSchema));
export const AdminOperatorPrefixResponseSchema = dataOf(AdminOperatorPrefixSchema);

const operatorName = () => z.string({ error: 'admin.validation.operatorNameRequired' }).trim()
  .min(1, { error: 'admin.validation.operatorNameRequired', abort: true })
  .max(60, { error: 'validation.tooLong' });

/** The digits right after the country code ("77" for +241 77…), spaces allowed. */
const prefixText = () => z.string({ error: 'admin.validation.operatorPrefixInvalid' })
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(PREFIX_PATTERN, { error: 'admin.validation.operatorPrefixInvalid' }));

/** A new range (POST /api/admin/operator-prefixes). */
export const OperatorPrefixInputSchema = z.object({ channel: channel(), operator: operatorName(), prefix: prefixText() });
export type OperatorPrefixInput = z.infer<typeof OperatorPrefixInputSchema>;

/** A range replaced (PUT): its operator and prefix; a range stays on its channel. */
export const OperatorPrefixUpdateSchema = z.object({ operator: operatorName(), prefix: prefixText() });
export type OperatorPrefixUpdate = z.infer<typeof OperatorPrefixUpdateSchema>;
