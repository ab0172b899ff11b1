import { asTyped, type Script, SMTP, toScript } from '@trasa/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { mailOutbox, smtpServers } from '../db/schema.js';
import type { Db, Executor } from './database.js';
import { decrypt } from './secrets.js';

/**
 * Why a mail is sent (mail_outbox.origin): 'signup', 'activation', 'reset', 'email-change' (account),
 * 'import' (an imported account's first password), … A mail sent without one is an account mail.
 * `actorId` is whose action sent it (the importer).
 */
export type Mail = {
  to: string;
  /** Subject and text: composed texts (their typed values marked with asTyped), stored and sent in `script`. */
  subject: string;
  text: string;
  /** The recipient's script: a user's own choice (users.pismo); the sender's for an address that is no user's. */
  script: Script;
  /** Sent as given (no mail of the product is composed in HTML). */
  html?: string;
  origin?: string;
  actorId?: string | null;
  /** Store as 'held' without counting (an import already over its cap: importMailer). */
  hold?: boolean;
};

/**
 * A mail's row in the outbox: `queued` (waiting to be sent), `sent`, `failed` (SMTP refused; retried),
 * `outbox` (no SMTP server in use: kept for the Admin to read), `held` (over an importer's daily cap:
 * waits for the Admin to release it), `dropped` (over an address's hourly cap: never sent).
 */
export type MailStatus = 'queued' | 'sent' | 'failed' | 'outbox' | 'held' | 'dropped';

export type Mailer = {
  /** Stores the mail and sends it now when it may be sent (the caps below). */
  send(mail: Mail): Promise<MailStatus>;
  /**
   * Sends what waits: queued mail, and failed mail whose next attempt is due (a scheduled job calls
   * it). Rows are taken `for update skip locked`, so two servers never send the same mail. Answers how
   * many mails it tried.
   */
  deliverDue(opts?: { now?: Date; batch?: number; budgetMs?: number }): Promise<number>;
  /** Queues held (and, named by id, failed) mail again; answers how many. The Admin's. */
  release(ids?: readonly string[]): Promise<number>;
};

export const MAIL_LIMITS = {
  /** Mails one importer's imports may send per 24 hours; the rest are held for the Admin. */
  importPerDay: 500,
  /** Account mails (sign-up, activation, reset, …) one address gets per hour; more are dropped. */
  perAddressPerHour: 3,
  /** Attempts after which a failed mail waits for the Admin instead of the retry job. */
  maxAttempts: 10,
  /** The first retry waits this long; each next one twice as long (5, 10, 20 min … ≈ 43 h). */
  retryBaseMinutes: 5,
};

/** Origins the per-address cap applies to: what anyone can make the server send to any address. */
const ADDRESS_CAPPED = new Set(['account', 'signup', 'activation', 'reset', 'email-change']);

type Row = typeof mailOutbox.$inferSelect;
type Deps = { db: Db; secret: string; log: Logger };

/**
 * The reply code of a failed SMTP exchange, only when the peer answered as an SMTP server does: a
 * reply line '[2-5][0-5]d' followed by a space, a dash or its end ('535 5.7.8 …'). Anything else —
 * a refused or silent port, an unknown host, another service's banner ('SSH-2.0-…') — gives null.
 * Failures are told by this code alone, never by the peer's text or the kind of network error: an
 * Admin can point a server at any host and port, and the answer must not map what listens there.
 */
export function smtpReplyCode(error: unknown): number | null {
  const response = (error as { response?: unknown } | null)?.response;
  if (typeof response !== 'string') return null;
  const m = /^([2-5][0-5]\d)(?:[ -]|$)/.exec(response.trim());
  return m ? Number(m[1]) : null;
}

/** What an outbox row or a test answer says of a failure: one text, with the SMTP reply code if any. */
export function smtpFailureText(error: unknown, failed: string): string {
  const code = smtpReplyCode(error);
  return failed + (code ? SMTP.replyCode(code) : '');
}

/**
 * A person's name as a mail shows it: plain text no mail client turns into a link. Names are typed into
 * the sign-up form by anyone, so 'Visit http://evil.example/win' would otherwise carry the sender's link
 * into a genuine mail. A scheme ('http://', 'mailto:') is dropped, and a space follows every dot, '@'
 * or slash between two letters or digits ('evil. example/ x', 'www. evil'), which no host, address or
 * path pattern matches. Ordinary names ('Ана', 'J. R. Tolkin', 'Marić-Perić') read the same.
 */
export function plainName(name: string): string {
  return name
    .replace(/[\p{L}][\p{L}\p{N}+.-]*:\/\/|\b(?:mailto|https?|ftp|file|data|javascript|tel|sms):/giu, '')
    .replace(/(?<=[\p{L}\p{N}_-])([.\u3002\uFF0E\uFF61@/\\])(?=[\p{L}\p{N}_-])/gu, '$1 ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The greeting of a mail: with the plain name (plainName) when the address is the person's own,
 * confirmed one; without a name when it is not (an activation link, a new address to confirm): mail
 * to an address nobody has confirmed carries no text of the sender's (docs/decisions.md).
 */
export const greeting = (name: string | null): string => (name ? `Поштовани/а ${asTyped(plainName(name))},` : 'Поштовани/а,');

type SmtpServerRow = typeof smtpServers.$inferSelect;

/**
 * A transport through one SMTP server: implicit TLS on 465, STARTTLS when the server offers it, the
 * server's e-mail as user and sender, the password decrypted only here.
 */
export function smtpTransport(
  server: Pick<SmtpServerRow, 'host' | 'port' | 'email' | 'passwordEnc'>,
  secret: string,
): { from: string; transport: Transporter } {
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.port === 465,
    auth: { user: server.email, pass: decrypt(secret, server.passwordEnc) },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    tls: { rejectUnauthorized: process.env.SMTP_TLS_REJECT_UNAUTHORIZED !== 'false' },
  });
  return { from: server.email, transport };
}

/** The transport of the SMTP server in use (spec 3 "SMTP server"), or null when none is. */
async function transportInUse(deps: Deps): Promise<{ from: string; transport: Transporter } | null> {
  const [server] = await deps.db.select().from(smtpServers).where(eq(smtpServers.inUse, true)).limit(1);
  if (!server) return null;
  return smtpTransport(server, deps.secret);
}

/** The cap that applies to a new mail: 'held', 'dropped' or null (send it). Runs in the insert's transaction. */
async function capOf(tx: Executor, log: Logger, mail: Mail, origin: string): Promise<'held' | 'dropped' | null> {
  if (origin === 'import' && mail.actorId) {
    // One importer at a time per actor (across servers), so the count and the insert agree.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trasa-mail-import:${mail.actorId}`}))`);
    // Oldest first and no further than the cap: held rows (the newest) are not walked through.
    const counted = await tx.execute<{ n: number }>(sql`select count(*)::int as n from (
      select 1 from ${mailOutbox}
      where ${mailOutbox.actorId} = ${mail.actorId} and ${mailOutbox.createdAt} > now() - interval '1 day'
        and ${mailOutbox.origin} = 'import' and ${mailOutbox.status} not in ('held', 'dropped')
      order by ${mailOutbox.createdAt} limit ${MAIL_LIMITS.importPerDay}) s`);
    if ((counted.rows[0]?.n ?? 0) < MAIL_LIMITS.importPerDay) return null;
    log.warn({ actorId: mail.actorId }, `import mail over ${MAIL_LIMITS.importPerDay} a day: held for the Admin`);
    return 'held';
  }
  if (ADDRESS_CAPPED.has(origin)) {
    const to = mail.to.trim().toLowerCase();
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trasa-mail-to:${to}`}))`);
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.to, to),
          sql`${mailOutbox.createdAt} > now() - interval '1 hour'`,
          inArray(mailOutbox.origin, [...ADDRESS_CAPPED]),
          sql`${mailOutbox.status} <> 'dropped'`,
        ),
      );
    if ((used?.n ?? 0) < MAIL_LIMITS.perAddressPerHour) return null;
    log.info({ to, origin }, 'mail dropped: the address had its hourly share of account mail');
    return 'dropped';
  }
  return null;
}

/** A due failed mail: attempt n+1 waits base × (2^n − 1) minutes after the mail was written. */
const dueCondition = (now: Date) => sql`(${mailOutbox.status} = 'queued' or (${mailOutbox.status} = 'failed'
  and ${mailOutbox.attempts} < ${MAIL_LIMITS.maxAttempts}
  and ${mailOutbox.createdAt} + make_interval(mins => ${MAIL_LIMITS.retryBaseMinutes}) * (power(2, ${mailOutbox.attempts}) - 1) <= ${now.toISOString()}::timestamptz))`;

/**
 * Sends through the SMTP server in use (spec 3 "SMTP server"); with none in use the mail is kept in
 * the outbox table for the Admin (its text goes to the server log at debug level only: it carries live
 * activation and reset codes). Every mail leaves a row first, so nothing is lost: a failed one is
 * retried by `deliverDue`. Caps (docs/decisions.md "Mail"): an importer's mails past 500 a day are held;
 * account mails to one address past 3 an hour are dropped, the caller's answer unchanged.
 */
export function createMailer(deps: Deps): Mailer {
  const { db, log } = deps;

  const keep = async (rows: Row[]) => {
    for (const row of rows) {
      log.info({ to: row.to, subject: row.subject, id: row.id }, 'no SMTP server in use: mail kept in the outbox');
      log.debug({ to: row.to, text: row.text }, 'mail text');
    }
  };

  /** Sends locked rows through one transport and records each outcome. */
  const sendRows = async (tx: Executor, rows: Row[], smtp: { from: string; transport: Transporter }) => {
    for (const row of rows) {
      let status: MailStatus = 'sent';
      let error: string | null = null;
      try {
        await smtp.transport.sendMail({ from: smtp.from, to: row.to, subject: row.subject, text: row.text, html: row.html ?? undefined });
      } catch (e) {
        status = 'failed';
        // The row (read by the Admin) keeps the reply code only; the peer's own words go to the log.
        error = smtpFailureText(e, SMTP.sendFailed);
        const detail = e instanceof Error ? e.message : String(e);
        log.error({ to: row.to, subject: row.subject, id: row.id, attempt: row.attempts + 1, err: detail }, 'mail could not be sent');
      }
      await tx
        .update(mailOutbox)
        .set({ status, error, attempts: sql`${mailOutbox.attempts} + 1` })
        .where(eq(mailOutbox.id, row.id));
    }
  };

  /** One batch of due rows (or the given ones), locked, sent; how many were taken. */
  const deliverBatch = async (now: Date, batch: number, ids?: string[]): Promise<number> => {
    const smtp = await transportInUse(deps);
    try {
      return await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(mailOutbox)
          .where(
            ids
              ? and(inArray(mailOutbox.id, ids), inArray(mailOutbox.status, ['queued', 'failed']))
              : smtp
                ? dueCondition(now)
                : eq(mailOutbox.status, 'queued'),
          )
          .orderBy(mailOutbox.createdAt)
          .limit(batch)
          .for('update', { skipLocked: true });
        if (rows.length === 0) return 0;
        if (!smtp) {
          // Nothing to send through: queued mail is kept for the Admin; failed mail waits for a server.
          const queued = rows.filter((r) => r.status === 'queued');
          if (queued.length > 0) {
            await tx
              .update(mailOutbox)
              .set({ status: 'outbox' })
              .where(
                inArray(
                  mailOutbox.id,
                  queued.map((r) => r.id),
                ),
              );
            await keep(queued);
          }
          return queued.length;
        }
        await sendRows(tx, rows, smtp);
        return rows.length;
      });
    } finally {
      smtp?.transport.close();
    }
  };

  let running: Promise<number> | null = null;

  return {
    async send(mail) {
      const origin = mail.origin ?? 'account';
      const row = (cap: 'held' | 'dropped' | null, status: MailStatus) => ({
        to: mail.to.trim().toLowerCase(),
        subject: toScript(mail.subject, mail.script),
        // A dropped mail is never sent: its text (a live code) is not kept.
        text: cap === 'dropped' ? '' : toScript(mail.text, mail.script),
        html: cap === 'dropped' ? null : (mail.html ?? null),
        status,
        origin,
        actorId: mail.actorId ?? null,
      });
      // An import already over its cap: one insert, nothing counted (a large import writes many).
      if (mail.hold) {
        await db.insert(mailOutbox).values(row('held', 'held'));
        return 'held';
      }
      const [server] = await db.select({ id: smtpServers.id }).from(smtpServers).where(eq(smtpServers.inUse, true)).limit(1);
      const stored = await db.transaction(async (tx) => {
        const cap = await capOf(tx, log, mail, origin);
        const [inserted] = await tx
          .insert(mailOutbox)
          .values(row(cap, cap ?? (server ? 'queued' : 'outbox')))
          .returning();
        if (!inserted) throw new Error('mail not stored');
        return inserted;
      });
      if (stored.status === 'outbox') await keep([stored]);
      if (stored.status !== 'queued') return stored.status as MailStatus;
      await deliverBatch(new Date(), 1, [stored.id]);
      const [after] = await db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, stored.id));
      return (after?.status ?? 'queued') as MailStatus;
    },

    async deliverDue(opts = {}) {
      // One pass at a time per server; other servers are kept apart by the row locks.
      if (running) return running;
      const pass = async () => {
        const started = Date.now();
        let total = 0;
        for (;;) {
          const n = await deliverBatch(opts.now ?? new Date(), opts.batch ?? 25);
          total += n;
          if (n === 0 || Date.now() - started > (opts.budgetMs ?? 60_000)) return total;
        }
      };
      running = pass().finally(() => {
        running = null;
      });
      return running;
    },

    async release(ids) {
      if (ids && ids.length === 0) return 0;
      const rows = await db
        .update(mailOutbox)
        .set({ status: 'queued' })
        .where(ids ? and(inArray(mailOutbox.id, [...ids]), inArray(mailOutbox.status, ['held', 'failed'])) : eq(mailOutbox.status, 'held'))
        .returning({ id: mailOutbox.id });
      return rows.length;
    },
  };
}

/**
 * The mailer of one import: each mail is stamped origin 'import' with the importer; once one is held
 * (the importer's daily cap is reached) the rest are held without counting again.
 */
export function importMailer(mailer: Mailer, actorId: string): Mailer {
  let over = false;
  return {
    ...mailer,
    async send(mail) {
      const status = await mailer.send({ ...mail, origin: 'import', actorId, hold: over });
      if (status === 'held') over = true;
      return status;
    },
  };
}

/** Retries due mail every few minutes (started by main.ts); the returned function stops it. */
export function startMailRetry(mailer: Mailer, log: Logger, intervalMs = 3 * 60_000): () => void {
  const timer = setInterval(() => {
    mailer.deliverDue().catch((err) => log.error({ err }, 'mail retry failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
