import { forgotPasswordSchema, installSerbianValidationMessages, loginSchema, resetPasswordFormSchema, signupSchema } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { forgotErrors, loginErrors, resetErrors, signupErrors } from '../src/public/validate';

/**
 * The light public pages check their forms without zod (issue 13 item 2): their first message per field
 * must be the domain schema's, as react-hook-form's zodResolver showed it before.
 */
type Schema = { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };

function firstMessages(schema: Schema, values: Record<string, string>): Record<string, string> {
  const result = schema.safeParse(values);
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    out[field] ??= issue.message;
  }
  return out;
}

const EMAILS = [
  '',
  '   ',
  'ana',
  'ana@',
  'ana@mit',
  'ana@mit.gov.rs',
  ' Ana.Admin@MIT.gov.rs ',
  'a..b@x.rs',
  '.a@x.rs',
  'a@-x.rs',
  `${'a'.repeat(250)}@x.rs`,
  'ана@мит.рс',
  "o'neil+x@a-b.co",
];
const PASSWORDS = ['', ' ', '1234567', '12345678', 'Lozinka1', 'лозинка123', 'a'.repeat(128), 'a'.repeat(129), '        '];
const NAMES = ['', '  ', 'Ана', 'x'.repeat(100), ` ${'x'.repeat(100)} `, 'x'.repeat(101)];

describe('the light public pages validate as the domain schemas do', () => {
  installSerbianValidationMessages();

  it('sign-in', () => {
    for (const email of EMAILS)
      for (const lozinka of PASSWORDS)
        expect(loginErrors({ email, lozinka }), `${email} / ${lozinka}`).toEqual(firstMessages(loginSchema, { email, lozinka }));
  });

  it('sign-up', () => {
    for (const ime of NAMES)
      for (const email of EMAILS.slice(0, 7))
        for (const lozinka of PASSWORDS) {
          const values = { ime, prezime: NAMES[(ime.length + lozinka.length) % NAMES.length] ?? '', email, lozinka };
          expect(signupErrors(values), JSON.stringify(values)).toEqual(firstMessages(signupSchema, values));
        }
  });

  it('forgotten password', () => {
    for (const email of EMAILS) expect(forgotErrors({ email }), email).toEqual(firstMessages(forgotPasswordSchema, { email }));
  });

  it('new password', () => {
    for (const password of PASSWORDS)
      for (const confirmPassword of ['', password, `${password}x`]) {
        const values = { password, confirmPassword };
        expect(resetErrors(values), JSON.stringify(values)).toEqual(firstMessages(resetPasswordFormSchema, values));
      }
  });
});
