/**
 * The public forms' checks without zod (the light sign-in page, issue 13 item 2): the same rules and the
 * same first message per field as the domain's loginSchema, signupSchema, forgotPasswordSchema and
 * resetPasswordFormSchema (scripts/public-validation.test.ts compares them on many inputs).
 */
import { ACCOUNT } from '@trasa/domain/messages/account';

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const NAME_MAX = 100;
const EMAIL_MAX = 254;
/** zod 4's `z.email()` pattern. */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** A field's first message, or nothing when it is valid. */
export type Errors<F extends string> = Partial<Record<F, string>>;

function emailError(value: string, required: string, invalid: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length < 1) return required;
  if (trimmed.length > EMAIL_MAX || !EMAIL.test(trimmed)) return invalid;
  return undefined;
}

function newPasswordError(value: string, required: string): string | undefined {
  if (value.length < 1) return required;
  if (value.length < PASSWORD_MIN) return ACCOUNT.passwordMin;
  if (value.length > PASSWORD_MAX) return ACCOUNT.passwordTooLong;
  if (!/[A-Za-z]/.test(value)) return ACCOUNT.passwordNeedsLatin;
  return undefined;
}

function requiredTextError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length < 1) return ACCOUNT.required;
  if (trimmed.length > NAME_MAX) return ACCOUNT.tooLong;
  return undefined;
}

function defined<F extends string>(errors: Record<F, string | undefined>): Errors<F> {
  const out: Errors<F> = {};
  for (const [field, message] of Object.entries(errors) as [F, string | undefined][]) if (message) out[field] = message;
  return out;
}

/** The address as the schemas send it: trimmed, in lower case. */
export function normalEmail(value: string): string {
  return value.trim().toLowerCase();
}

export type LoginValues = { email: string; lozinka: string };
export function loginErrors(v: LoginValues): Errors<keyof LoginValues> {
  let lozinka: string | undefined;
  if (v.lozinka.length < 1) lozinka = ACCOUNT.passwordRequired;
  else if (v.lozinka.length < PASSWORD_MIN) lozinka = ACCOUNT.passwordMin;
  else if (v.lozinka.length > PASSWORD_MAX) lozinka = ACCOUNT.passwordTooLong;
  return defined({ email: emailError(v.email, ACCOUNT.required, ACCOUNT.invalidEmail), lozinka });
}

export type SignupValues = { ime: string; prezime: string; email: string; lozinka: string };
export function signupErrors(v: SignupValues): Errors<keyof SignupValues> {
  return defined({
    ime: requiredTextError(v.ime),
    prezime: requiredTextError(v.prezime),
    email: emailError(v.email, ACCOUNT.required, ACCOUNT.invalidEmail),
    lozinka: newPasswordError(v.lozinka, ACCOUNT.passwordRequired),
  });
}

export type ForgotValues = { email: string };
export function forgotErrors(v: ForgotValues): Errors<keyof ForgotValues> {
  return defined({ email: emailError(v.email, ACCOUNT.forgotInvalidEmail, ACCOUNT.forgotInvalidEmail) });
}

export type ResetValues = { password: string; confirmPassword: string };
export function resetErrors(v: ResetValues): Errors<keyof ResetValues> {
  const password = newPasswordError(v.password, ACCOUNT.resetPasswordRequired);
  // zod runs the schema's refinement (passwords match) whatever the password's own checks found.
  const confirmPassword = v.password !== v.confirmPassword ? ACCOUNT.resetPasswordsMismatch : undefined;
  return defined({ password, confirmPassword });
}
