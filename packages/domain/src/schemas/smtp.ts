import { z } from 'zod';
import { SMTP } from '../messages/smtp.js';
import { email } from './common.js';

const host = z.string({ error: SMTP.required }).trim().min(1, { error: SMTP.required }).max(253, { error: SMTP.tooLong });

/** A port as a number or digits (a form's text field): required, 1..65535. */
const port = z.union([z.number(), z.string()], { error: SMTP.required }).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (text === '') {
    ctx.addIssue({ code: 'custom', message: SMTP.required });
    return z.NEVER;
  }
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n < 1 || n > 65_535) {
    ctx.addIssue({ code: 'custom', message: SMTP.portInvalid });
    return z.NEVER;
  }
  return n;
});

const password = z
  .string({ error: SMTP.required })
  .max(1000, { error: SMTP.tooLong })
  .refine((p) => p.trim() !== '', { error: SMTP.required });

/** POST /api/smtp/ (spec 3 §5 "SMTP create"): every field required; inUse defaults to false. */
export const smtpCreateSchema = z.object({
  host,
  port,
  email: email(SMTP.required, SMTP.invalidEmail),
  password,
  inUse: z.boolean({ error: SMTP.required }).optional().default(false),
});
export type SmtpCreateBody = z.input<typeof smtpCreateSchema>;

/** A value left empty ('' or only spaces) is not part of the patch (spec 3 §5 "SMTP edit"). */
const droppedWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * PATCH /api/smtp/{id}: host, port, e-mail, password and inUse, each optional; an empty value is dropped
 * (the stored one stays), so an edit without a password keeps the old one.
 */
export const smtpEditSchema = z.object({
  host: z.preprocess(droppedWhenEmpty, host.optional()),
  port: z.preprocess(droppedWhenEmpty, port.optional()),
  email: z.preprocess(droppedWhenEmpty, email(SMTP.required, SMTP.invalidEmail).optional()),
  password: z.preprocess(droppedWhenEmpty, password.optional()),
  inUse: z.boolean({ error: SMTP.required }).optional(),
});
export type SmtpEditBody = {
  host?: string;
  port?: number | string;
  email?: string;
  password?: string;
  inUse?: boolean;
};

/**
 * The edit form (spec 3 §5 "SMTP edit"): host, port and e-mail required, the password optional (empty
 * keeps the stored one).
 */
export const smtpEditFormSchema = z.object({
  host,
  port,
  email: email(SMTP.required, SMTP.invalidEmail),
  password: z.string().max(1000, { error: SMTP.tooLong }),
  inUse: z.boolean(),
});

/** POST /api/smtp/{id}/test: the address the test mail goes to (default: the Admin's own). */
export const smtpTestSchema = z.object({
  to: z.preprocess(droppedWhenEmpty, email(SMTP.required, SMTP.invalidEmail).optional()),
});
