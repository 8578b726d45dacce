// What other features may use of the accounts feature (the profile screen does).
export { authApi, looksSuccessful } from './api';
export { CodeEntry } from './code-entry';
export { PasswordInput, PasswordStrength } from './password-field';
export { isValidPhone, PhoneField } from './phone-field';
export { errorText, translateKey } from './translate';
