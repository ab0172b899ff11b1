import { expect, test } from 'vitest';
import { renderInApp, signIn, watchApiCalls } from '../../testing/app';
import { SMTP_LABELS } from './labels';
import { SmtpListPage } from './SmtpListPage';

/** /app/emailconfig: the table and the warning read one answer of GET /api/smtp (the server has no pages). */

test('the page asks for the servers once, and the outbox once: the held count comes with its page', async () => {
  const admin = await signIn('admin');
  const calls = watchApiCalls();
  try {
    await renderInApp(<SmtpListPage />, admin);
    // The table's rows (or its empty text) and the outbox have come: every first call was answered.
    await expect.poll(() => document.querySelectorAll('table tbody tr').length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => calls.calls('/api/smtp/outbox').length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(calls.calls('/api/smtp')).toHaveLength(1);
    // The held mails' count comes with the outbox's page: the note and the release button say it, and
    // the outbox was asked once.
    await expect.poll(() => document.body.textContent ?? '', { timeout: 10_000 }).toContain(SMTP_LABELS.heldNote(2));
    expect(document.body.textContent).toContain(SMTP_LABELS.release(2));
    expect(calls.calls('/api/smtp/outbox')).toHaveLength(1);
  } finally {
    calls.stop();
  }
});
