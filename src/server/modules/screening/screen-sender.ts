import { missingProfileFields, type ProfileField } from '@core/kyc.js';
import type { Db } from '@server/db/client.js';
import { countryCode } from './country-code.js';
import { screenPerson, senderKey } from './screen-people.js';

// A sender is screened when their profile becomes complete (level 1) and when their name or date
// of birth changes (docs/rules/screening.md#holds-and-alerts), with their date of birth and
// country as qualifiers; their own hit holds every transfer of theirs, new ones too.

type ProfileLike = Partial<Record<ProfileField, string | null>> & { id: string };

/** Screens the sender after a profile change when it is due; answers the alerts raised. */
export async function screenSenderOnChange(db: Db, before: ProfileLike, after: ProfileLike): Promise<string[]> {
  if (missingProfileFields(after).length > 0) return [];
  const becameComplete = missingProfileFields(before).length > 0;
  const changed = before.full_name !== after.full_name || before.date_of_birth !== after.date_of_birth;
  if (!becameComplete && !changed) return [];
  return screenPerson(db, db, {
    subject: 'sender', key: senderKey(after.id, after.full_name!, after.date_of_birth ?? null), name: after.full_name!,
    birth_date: after.date_of_birth ?? undefined, country: countryCode(after.country), profileId: after.id,
  }, 'profile');
}
