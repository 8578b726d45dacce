import type { ChannelId } from '../../core/channels';

/** A row of GET /api/recipients (D10), shown by the transfer form and the profile. */
export interface SavedRecipient {
  id: string;
  label: string | null;
  channel: ChannelId;
  recipient_name: string | null;
  recipient_email: string | null;
  recipient_phone: string | null;
  iban: string | null;
  bic: string | null;
  created_at: string;
}
