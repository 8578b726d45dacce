import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedRecipient } from '../../lib/saved-recipient';
import { api, isApiError } from '../../lib/api';

/** GET /api/profiles/me → data (spec §3 profile, plus the profile screen's statistics). */
export interface MyProfile {
  id: string;
  user_id: string;
  email: string;
  full_name: string | null;
  phone: string | null;
  address: string | null;
  state: string | null;
  city: string | null;
  country: string | null;
  role: 'user' | 'manager' | 'admin';
  language: 'en' | 'fr';
  created_at: string;
  /** Changes of e-mail or password are confirmed with the password, else with a mailed code (D13). */
  has_password: boolean;
  stats: { total: number; completed: number; pending: number };
}

/** The proof of being the account's owner that e-mail and password changes carry (D13). */
export interface OwnerProof {
  current_password?: string;
  current_code?: string;
}

export const profileKeys = {
  me: ['profile', 'me'] as const,
  /** The same key the transfer form reads saved recipients with: one cache. */
  recipients: ['recipients'] as const,
};

export function useMyProfile() {
  return useQuery({
    queryKey: profileKeys.me,
    queryFn: async ({ signal }) => (await api<{ data: MyProfile }>('/api/profiles/me', { signal })).data,
    staleTime: 0,
  });
}

/** The server mailed a code to the current address: ask for it, then send the request again with it. */
export function isReauthCodeSent(err: unknown): boolean {
  return isApiError(err) && (err.body as { code?: unknown } | undefined)?.code === 'reauth_code_sent';
}

export interface ProfileSaveAnswer {
  data: Omit<MyProfile, 'stats' | 'has_password'>;
  message?: string;
  pending_email?: string;
}

export const profileApi = {
  save: (body: { full_name?: string; phone?: string; email?: string } & OwnerProof) =>
    api<ProfileSaveAnswer>('/api/profiles/me', { method: 'PATCH', body }),
  changePassword: (body: { password: string } & OwnerProof) =>
    api<{ message: string; revoked: number }>('/api/profiles/me/password', { method: 'PUT', body }),
  confirmEmail: (email: string, otp: string) =>
    api<ProfileSaveAnswer>('/api/profiles/me/email/confirm', { method: 'POST', body: { email, otp } }),
  logoutEverywhere: () => api<{ message: string }>('/api/auth/logout-all', { method: 'POST' }),
};

export function useSavedRecipients() {
  return useQuery({
    queryKey: profileKeys.recipients,
    queryFn: async ({ signal }) => (await api<{ data: SavedRecipient[] }>('/api/recipients', { signal })).data,
  });
}

export function useDeleteRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/recipients/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.recipients }),
  });
}

export type { SavedRecipient };
