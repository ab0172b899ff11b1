import { z } from 'zod';
import { ACCOUNT } from '../messages/account.js';
import { email, requiredText } from './common.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The password policy of server-behaviour.md: at least 8 characters, at least one Latin letter. */
function newPassword(required: string, short: string) {
  return z
    .string({ error: required })
    .min(1, { error: required })
    .min(PASSWORD_MIN, { error: short })
    .max(PASSWORD_MAX, { error: ACCOUNT.passwordTooLong })
    .regex(/[A-Za-z]/, { error: ACCOUNT.passwordNeedsLatin });
}

export const loginSchema = z.object({
  email: email(ACCOUNT.required, ACCOUNT.invalidEmail),
  lozinka: z
    .string({ error: ACCOUNT.passwordRequired })
    .min(1, { error: ACCOUNT.passwordRequired })
    .min(PASSWORD_MIN, { error: ACCOUNT.passwordMin })
    .max(PASSWORD_MAX, { error: ACCOUNT.passwordTooLong }),
});
export type LoginInput = z.input<typeof loginSchema>;

export const signupSchema = z.object({
  ime: requiredText(ACCOUNT.required, 100),
  prezime: requiredText(ACCOUNT.required, 100),
  email: email(ACCOUNT.required, ACCOUNT.invalidEmail),
  lozinka: newPassword(ACCOUNT.passwordRequired, ACCOUNT.passwordMin),
});
export type SignupInput = z.input<typeof signupSchema>;

export const forgotPasswordSchema = z.object({
  email: email(ACCOUNT.forgotInvalidEmail, ACCOUNT.forgotInvalidEmail),
});

export const resetPasswordFormSchema = z
  .object({
    password: newPassword(ACCOUNT.resetPasswordRequired, ACCOUNT.passwordMin),
    confirmPassword: z.string({ error: ACCOUNT.resetPasswordsMismatch }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: ACCOUNT.resetPasswordsMismatch,
    path: ['confirmPassword'],
  });

export const setNewPasswordSchema = z
  .object({
    password: newPassword(ACCOUNT.resetPasswordRequired, ACCOUNT.passwordMin),
    confirmPassword: z.string({ error: ACCOUNT.resetPasswordsMismatch }),
    email: email(ACCOUNT.resetLinkInvalid, ACCOUNT.resetLinkInvalid),
    resetCode: z
      .string({ error: ACCOUNT.resetLinkInvalid })
      .min(1, { error: ACCOUNT.resetLinkInvalid })
      .max(200, { error: ACCOUNT.resetLinkInvalid }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: ACCOUNT.resetPasswordsMismatch,
    path: ['confirmPassword'],
  });

/**
 * POST /api/user/reset-password carries either the request for a link (email) or the new password.
 * The form is chosen by the fields present, never by which one happens to validate: a bad new
 * password must not fall back to "send me a link".
 */
export function resetPasswordSchemaFor(body: unknown) {
  const isSet = typeof body === 'object' && body !== null && ('password' in body || 'resetCode' in body || 'confirmPassword' in body);
  return isSet ? setNewPasswordSchema : forgotPasswordSchema;
}

export const changePasswordSchema = z
  .object({
    password: z
      .string({ error: ACCOUNT.fieldRequiredLatin })
      .min(1, { error: ACCOUNT.fieldRequiredLatin })
      .max(PASSWORD_MAX, { error: ACCOUNT.passwordTooLong }),
    newPassword: newPassword(ACCOUNT.fieldRequiredLatin, ACCOUNT.passwordShortLatin),
    confirmNewPassword: z.string({ error: ACCOUNT.passwordsMustMatchLatin }),
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    error: ACCOUNT.passwordsMustMatchLatin,
    path: ['confirmNewPassword'],
  });

/**
 * POST /api/user/change-info. `lozinka` (the current password) is required by the server only when
 * the e-mail changes; the new address takes effect once confirmed from it (docs/decisions.md).
 */
export const changeInfoSchema = z.object({
  ime: requiredText(ACCOUNT.fieldRequiredLatin, 100),
  prezime: requiredText(ACCOUNT.fieldRequiredLatin, 100),
  email: email(ACCOUNT.fieldRequiredLatin, ACCOUNT.emailInvalidLatin),
  lozinka: z.string({ error: ACCOUNT.currentPasswordForEmail }).max(PASSWORD_MAX, { error: ACCOUNT.passwordTooLong }).optional(),
});

/** POST /api/user/resend-activation: the same answer for any address. */
export const resendActivationSchema = z.object({
  email: email(ACCOUNT.invalidEmail, ACCOUNT.invalidEmail),
});

const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string().max(2000), z.number(), z.boolean(), z.null(), z.array(jsonValue).max(500), z.record(z.string().max(200), jsonValue)]),
);

/** A saved table layout (spec 1 §3 "tabela"). */
export const editColumnsSchema = z.object({
  imeTabele: requiredText(ACCOUNT.columnsFailed, 100),
  tabela: jsonValue,
  headers: z.array(jsonValue).max(200, { error: ACCOUNT.columnsFailed }),
});
export type SavedTable = z.infer<typeof editColumnsSchema>;

/** The scripts a user may read the web in (issue 13 item 10): Ћирилица (default) or Latinica. */
export const PISMA = ['cyr', 'lat'] as const;
export type Pismo = (typeof PISMA)[number];

export const editScriptSchema = z.object({
  pismo: z.enum(PISMA, { error: ACCOUNT.scriptInvalid }),
});

/** A group as carried on a user (spec 1 §3). `tipKod` is the fixed code of the group's type. */
export type GroupRef = {
  _id: string;
  naziv: string;
  kratakNaziv: string;
  tip: string;
  tipKod: string | null;
  cirilica: string;
  sveVideci: boolean;
};

/**
 * A user as the API presents it. `rola` is the key of the base role (Admin, Rukovodilac, Zaposleni,
 * Gost), so route checks hold when a role is renamed; `rolaNaziv` is the role's display name.
 */
export type UserDto = {
  _id: string;
  ime: string;
  prezime: string;
  email: string;
  emailPotvrdjen: boolean;
  rola: string;
  rolaId: string;
  rolaNaziv: string;
  status: 'aktivan' | 'neaktivan';
  grupa: GroupRef | null;
  tabela: SavedTable[];
  /** The script the web shows its own texts in for this user. */
  pismo: Pismo;
  /**
   * GET /api/user/my-profile only: the user sees every cluster (the Admin, a sees-all group, or for a
   * Rukovodilac one in their subtree) — who may use the reports hub's test panel.
   */
  vidiSve?: boolean;
};

export type LoginResponse = { token: string; user: UserDto };
export type MessageResponse = { message: string };
export type ErrorResponse = { message: string; errors?: Record<string, string> };
