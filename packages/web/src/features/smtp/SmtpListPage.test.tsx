import { expect, test } from 'vitest';
import { renderInApp, signIn, watchApiCalls } from '../../testing/app';
import { SmtpListPage } from './SmtpListPage';

/** /app/emailconfig: the table and the warning read one answer of GET /api/smtp (the server has no pages). */

test('the page asks for the servers once: the table and the warning share the answer', async () => {
  const admin = await signIn('admin');
  const calls = watchApiCalls();
  try {
    await renderInApp(<SmtpListPage />, admin);
    // The table's rows (or its empty text) and the outbox have come: every first call was answered.
    await expect.poll(() => document.querySelectorAll('table tbody tr').length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => calls.calls('/api/smtp/outbox').length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(calls.calls('/api/smtp')).toHaveLength(1);
  } finally {
    calls.stop();
  }
});
