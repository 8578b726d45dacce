import { z } from 'zod';
import { LANGUAGES } from '../languages.js';
import { ROLES } from '../status.js';
import { dataOf, isoDateTime, pageOf } from './common.js';

// Answers about accounts: the signed-in user's own profile, and the admin's list of them.

/** A profile as the API shows it: never the password or its hash. */
const ProfileSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  /** `YYYY-MM-DD`: with the address, what sending money needs (docs/rules/know-your-sender.md#levels). */
  date_of_birth: z.string().nullable(),
  role: z.enum(ROLES),
  language: z.enum(LANGUAGES),
  email_verified: z.boolean(),
  created_at: isoDateTime(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** The profile screen's own view: with the sender's transfer counts and how changes are proven. */
const MyProfileSchema = ProfileSchema.extend({
  /** Whether e-mail and password changes are proven with the password (else with a mailed code). */
  has_password: z.boolean(),
  /** Whether sign-in asks for a code from an authenticator app (docs/rules/accounts.md#two-step-sign-in). */
  totp_enabled: z.boolean(),
  /** Whether this session was opened with the second factor: a staff session without it reaches only its own account. */
  mfa_verified: z.boolean(),
  stats: z.object({ total: z.number().int(), completed: z.number().int(), pending: z.number().int() }),
});
export type MyProfile = z.infer<typeof MyProfileSchema>;
export const MyProfileResponseSchema = dataOf(MyProfileSchema);
export type MyProfileResponse = z.infer<typeof MyProfileResponseSchema>;

export const ProfileResponseSchema = dataOf(ProfileSchema);

/** A saved profile change; `pending_email` names where a code went when the e-mail is to change. */
export const ProfileSavedResponseSchema = dataOf(ProfileSchema).extend({
  message: z.string(),
  pending_email: z.string().optional(),
});
export type ProfileSavedResponse = z.infer<typeof ProfileSavedResponseSchema>;

/** An account in the admin's list: with whether it signs in with two steps (docs/rules/accounts.md#two-step-sign-in). */
const ListedProfileSchema = ProfileSchema.extend({ totp_enabled: z.boolean() });
export type ListedProfile = z.infer<typeof ListedProfileSchema>;
export const ProfilePageResponseSchema = pageOf(ListedProfileSchema);
export type ProfilePageResponse = z.infer<typeof ProfilePageResponseSchema>;
