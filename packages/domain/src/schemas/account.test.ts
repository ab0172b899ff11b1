import { describe, expect, it } from 'vitest';
import { changePasswordSchema, loginSchema, resetPasswordSchemaFor, setNewPasswordSchema, signupSchema } from './account.js';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('account schemas carry the spec texts', () => {
  it('login', () => {
    expect(firstMessage(loginSchema.safeParse({ email: '', lozinka: 'Lozinka123' }))).toBe('Обавезно поље');
    expect(firstMessage(loginSchema.safeParse({ email: 'a@', lozinka: 'Lozinka123' }))).toBe('Погрешна имејл адреса');
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.rs', lozinka: '' }))).toBe('Унесите лозинку');
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.rs', lozinka: '1234567' }))).toBe('Лозинка мора имати минимум 8 карактера');
    expect(loginSchema.parse({ email: ' A@B.rs ', lozinka: 'Lozinka123' }).email).toBe('a@b.rs');
  });

  it('sign-up requires a Latin letter in the password', () => {
    expect(signupSchema.safeParse({ ime: 'A', prezime: 'B', email: 'a@b.rs', lozinka: 'лозинка123' }).success).toBe(false);
    expect(signupSchema.safeParse({ ime: 'A', prezime: 'B', email: 'a@b.rs', lozinka: 'lozinka123' }).success).toBe(true);
  });

  it('change password', () => {
    expect(firstMessage(changePasswordSchema.safeParse({ password: 'x', newPassword: 'Ab', confirmNewPassword: 'Ab' }))).toBe(
      'Lozinka mora imati 8 ili više karaktera.',
    );
    expect(firstMessage(changePasswordSchema.safeParse({ password: 'x', newPassword: 'Abcdefgh1', confirmNewPassword: 'Abcdefgh' }))).toBe(
      'Lozinke moraju biti identične',
    );
  });

  it('chooses the reset form by the fields present', () => {
    expect(resetPasswordSchemaFor({ email: 'a@b.rs' })).not.toBe(setNewPasswordSchema);
    expect(resetPasswordSchemaFor({ email: 'a@b.rs', password: 'x' })).toBe(setNewPasswordSchema);
    expect(resetPasswordSchemaFor(null)).not.toBe(setNewPasswordSchema);
  });
});
