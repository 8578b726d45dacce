import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionsEndedResponse } from '@core/api/auth';
import type { AccountClosedResponse, MyDataExport } from '@core/api/privacy';
import type { ProfileSavedResponse } from '@core/api/profiles';
import type { RecipientDeletedResponse } from '@core/api/recipients';
import type { AccountClose, PasswordChange, ProfileUpdate } from '@core/schemas';
import type { SavedRecipient } from '@web/lib/saved-recipient';
import { api, isApiError } from '@web/lib/api';
import { fetchMyProfile } from '@web/lib/session-api';
import { transferKeys } from '@web/lib/transfers';

export type { MyProfile } from '@core/api/profiles';

/** The proof of being the account's owner that e-mail and password changes carry. */
export type OwnerProof = Pick<PasswordChange, 'current_password' | 'current_code'>;

export const profileKeys = {
  me: ['profile', 'me'] as const,
};

export function useMyProfile() {
  return useQuery({
    queryKey: profileKeys.me,
    queryFn: ({ signal }) => fetchMyProfile({ signal }),
    staleTime: 0,
  });
}

/** The server mailed a code to the current address: ask for it, then send the request again with it. */
export function isReauthCodeSent(err: unknown): boolean {
  return isApiError(err) && err.code === 'reauth_code_sent';
}

export type ProfileSaveAnswer = ProfileSavedResponse;

export const profileApi = {
  save: (body: Omit<ProfileUpdate, 'current_password' | 'current_code'> & OwnerProof) =>
    api<ProfileSaveAnswer>('/api/profiles/me', { method: 'PATCH', body }),
  changePassword: (body: { password: string } & OwnerProof) =>
    api<SessionsEndedResponse>('/api/profiles/me/password', { method: 'PUT', body }),
  confirmEmail: (email: string, otp: string) =>
    api<ProfileSaveAnswer>('/api/profiles/me/email/confirm', { method: 'POST', body: { email, otp } }),
  logoutEverywhere: () => api<SessionsEndedResponse>('/api/auth/logout-all', { method: 'POST' }),
  /** Everything the service holds on the account, as one JSON document. */
  exportMyData: () => api<MyDataExport>('/api/profiles/me/export'),
  /** Closes the account; the server ends every session. */
  closeAccount: (body: AccountClose) => api<AccountClosedResponse>('/api/profiles/me/close', { method: 'POST', body }),
};

export function useDeleteRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<RecipientDeletedResponse>(`/api/recipients/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.recipients }),
  });
}

export type { SavedRecipient };
