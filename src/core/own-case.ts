// No one decides on their own case (docs/rules/back-office.md#no-one-decides-on-their-own-case): a
// screening alert, a monitoring case or an identity review is decided by a staff member other than
// the person it is about and other than the sender of the transfer it concerns. The server refuses
// with `403 own_case`; the back office reads the same rule to show the case as the staff member's
// own instead of offering its decision.

/**
 * True when the staff member is one of the people a case concerns: the profile screened, monitored
 * or reviewed, or the sender of its transfer(s). Unknown people (null) concern no one.
 */
export function isOwnCase(people: readonly (string | null | undefined)[], staffId: string | null | undefined): boolean {
  return Boolean(staffId) && people.some((id) => id === staffId);
}
