/** A row of GET /api/recipients, shown by the transfer form and the profile. */
export type { SavedRecipient } from '@core/api/recipients';
