import { asTyped, type Script, SMTP, type SmtpDto, type smtpCreateSchema, type smtpEditSchema, toScript } from '@trasa/domain';
import { asc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { smtpServers } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { AppError, notFound } from '../../platform/errors.js';
import { smtpFailureText, smtpTransport } from '../../platform/mail.js';
import { encrypt } from '../../platform/secrets.js';
import { presentSmtp } from './presenter.js';

/**
 * SMTP servers (spec 3 §2.8, §5, §7; server-behaviour.md "Mail"; docs/api/smtp.md). Exactly one is in
 * use at a time: a change runs under one lock for the table and clears the others when it sets inUse,
 * so two concurrent saves can't leave two in use. The password is sealed with the application secret
 * (platform/secrets.ts) and never answered.
 */

export type RequestInfo = { ip: string; url: string };
export type SmtpCreateInput = z.output<typeof smtpCreateSchema>;
export type SmtpEditInput = z.output<typeof smtpEditSchema>;

async function lockServers(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trasa:smtp-servers'))`);
}

/** Clears inUse on every server but `keepId`. */
async function clearOthers(tx: Executor, keepId: string): Promise<void> {
  await tx.update(smtpServers).set({ inUse: false, updatedAt: new Date() }).where(ne(smtpServers.id, keepId));
}

/** GET /api/smtp: every server, oldest first. */
export async function listSmtps(ctx: AppContext): Promise<SmtpDto[]> {
  const rows = await ctx.db.select().from(smtpServers).orderBy(asc(smtpServers.createdAt), asc(smtpServers.id));
  return rows.map(presentSmtp);
}

export async function getSmtp(ctx: AppContext, id: string): Promise<SmtpDto> {
  const [row] = await ctx.db.select().from(smtpServers).where(eq(smtpServers.id, id));
  if (!row) throw notFound();
  return presentSmtp(row);
}

const describe = (s: { host: string; port: number; email: string }) => `${s.host}:${s.port} (${s.email})`;

export async function createSmtp(ctx: AppContext, actor: Actor, input: SmtpCreateInput, req: RequestInfo): Promise<SmtpDto> {
  return ctx.db.transaction(async (tx) => {
    await lockServers(tx);
    const [row] = await tx
      .insert(smtpServers)
      .values({
        host: input.host,
        port: input.port,
        email: input.email,
        passwordEnc: encrypt(ctx.secret, input.password),
        inUse: input.inUse,
      })
      .returning();
    if (!row) throw new Error('smtp server not created');
    if (row.inUse) await clearOthers(tx, row.id);
    const inUse = row.inUse ? ' i postavio ga u upotrebu' : '';
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je dodao SMTP server ${asTyped(describe(row))}${inUse}.`,
    });
    return presentSmtp(row);
  });
}

/** PATCH /api/smtp/{id}: only the fields given (empty ones were dropped by the schema). */
export async function editSmtp(ctx: AppContext, actor: Actor, id: string, input: SmtpEditInput, req: RequestInfo): Promise<SmtpDto> {
  return ctx.db.transaction(async (tx) => {
    await lockServers(tx);
    const [existing] = await tx.select().from(smtpServers).where(eq(smtpServers.id, id)).for('update');
    if (!existing) throw notFound();
    const [row] = await tx
      .update(smtpServers)
      .set({
        ...(input.host !== undefined && { host: input.host }),
        ...(input.port !== undefined && { port: input.port }),
        ...(input.email !== undefined && { email: input.email }),
        ...(input.password !== undefined && { passwordEnc: encrypt(ctx.secret, input.password) }),
        ...(input.inUse !== undefined && { inUse: input.inUse }),
        updatedAt: new Date(),
      })
      .where(eq(smtpServers.id, id))
      .returning();
    if (!row) throw notFound();
    if (row.inUse) await clearOthers(tx, row.id);
    const changes = [
      input.password !== undefined ? 'lozinka' : null,
      input.inUse === undefined || input.inUse === existing.inUse ? null : input.inUse ? 'u upotrebi' : 'nije u upotrebi',
    ].filter(Boolean);
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio SMTP server ${asTyped(describe(existing))} u ${asTyped(describe(row))}${changes.length ? ` (${changes.join(', ')})` : ''}.`,
    });
    return presentSmtp(row);
  });
}

export async function deleteSmtp(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockServers(tx);
    const [existing] = await tx.delete(smtpServers).where(eq(smtpServers.id, id)).returning();
    if (!existing) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao SMTP server ${asTyped(describe(existing))}.`,
    });
  });
}

/**
 * POST /api/smtp/{id}/test: a short mail through this server (in use or not), now; the answer says it
 * went, or 422 with one text for every failure and the SMTP reply code when the peer spoke SMTP
 * (platform/mail.ts smtpReplyCode): never the peer's own words nor the kind of network error. Not kept
 * in the outbox: it is a check of the settings, not the application's mail, and a failed one must not
 * be retried through another server. The audit log records it.
 */
export async function testSmtp(ctx: AppContext, actor: Actor, id: string, to: string | undefined, req: RequestInfo, script: Script) {
  const [server] = await ctx.db.select().from(smtpServers).where(eq(smtpServers.id, id));
  if (!server) throw notFound();
  const recipient = to ?? actor.email;
  const { from, transport } = smtpTransport(server, ctx.secret);
  let failure: string | null = null;
  try {
    // In the Admin's script (the recipient may be any address).
    await transport.sendMail({
      from,
      to: recipient,
      subject: toScript(SMTP.testSubject, script),
      text: toScript(SMTP.testText(asTyped(server.host), server.port), script),
    });
  } catch (error) {
    failure = smtpFailureText(error, SMTP.testFailed);
    ctx.log.warn({ host: server.host, port: server.port, err: error instanceof Error ? error.message : String(error) }, 'test mail failed');
  } finally {
    transport.close();
  }
  await writeLog(ctx.db, {
    actor,
    ...req,
    message: `Korisnik ${asTyped(actor.email)} je poslao probnu poruku na ${asTyped(recipient)} preko SMTP servera ${asTyped(describe(server))}: ${failure ? 'neuspešno' : 'uspešno'}.`,
  });
  if (failure) throw new AppError(422, failure);
  return { message: SMTP.testSent(asTyped(recipient)), to: recipient };
}
