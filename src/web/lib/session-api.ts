import type { MyProfile, MyProfileResponse } from '@core/api/profiles';
import type { Lang } from '@core/languages';
import { api, type ApiOptions } from './api';

// The calls about the signed-in session itself, made by the app's shell and by any page: its
// account's profile, the language of its e-mails, its sign-out.

/** GET /api/profiles/me: the account's profile; with `token`, the given session's (right after a sign-in). */
export async function fetchMyProfile(options: Pick<ApiOptions, 'token' | 'signal'> = {}): Promise<MyProfile> {
  return (await api<MyProfileResponse>('/api/profiles/me', options)).data;
}

/** PUT /api/profiles/me/language: the language the account's e-mails are written in. */
export const saveMyLanguage = (language: Lang) => api('/api/profiles/me/language', { method: 'PUT', body: { language } });

/** POST /api/auth/logout: ends the session of `token`. */
export const endSession = (token: string) => api('/api/auth/logout', { method: 'POST', token });
