import { authApi, isMfaChallenge } from '../lib/auth-api';

/**
 * The session a sign-in ticket opens (the OAuth landing, docs/rules/accounts.md#codes); or, with
 * two-step sign-in on, the code step's token (mfa). Loaded only when an address carries a ticket.
 */
export async function exchangeTicket(ticket: string): Promise<{ token: string } | { mfa: string } | null> {
  try {
    const answer = await authApi.exchangeTicket(ticket);
    return isMfaChallenge(answer) ? { mfa: answer.mfa_token } : { token: answer.token };
  } catch {
    return null;
  }
}
