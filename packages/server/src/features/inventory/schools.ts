import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  asTyped,
  formatDate,
  formatQuantity,
  formatRsd,
  INVENTORY,
  type PublicStocktaking,
  SCHOOL_LINK_DAYS,
  SCHOOL_LINK_PATH,
  SCHOOL_MAILS_PER_DAY,
  type SchoolNotificationDto,
  type SchoolNotificationsPage,
  type Script,
  type Sorting,
  type SortKey,
  type StocktakingRow,
} from '@trasa/domain';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import { schoolNotifications } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { deriveKey, hashCode } from '../../platform/secrets.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { assertClusterVisible, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser, type RequestInfo } from './access.js';
import { buildStocktaking } from './reports.js';

/**
 * Stocktaking lists mailed to schools and the schools' confirmations (spec 3 §7 "school-notification").
 * The link is `{APP_URL}/popisna-lista?token=<id>.<code>.<mac>`: the mac (HMAC-SHA256 with a key derived
 * from the app secret) refuses a forged token before any lookup; the code is random and stored only as a
 * hash; the row holds the expiry (30 days) and the confirmation (single use).
 */

type StoredList = Omit<PublicStocktaking, 'lokacija' | 'datumSlanja' | 'istice' | 'potvrdaSkole' | 'mailPotvrdjen'>;
type Row = typeof schoolNotifications.$inferSelect;

const DAY = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function mac(secret: string, payload: string): string {
  return createHmac('sha256', deriveKey(secret, 'school-link')).update(payload).digest('base64url');
}

export function makeToken(secret: string, id: string, code: string): string {
  return `${id}.${code}.${mac(secret, `${id}.${code}`)}`;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const invalid = () => notFound(INVENTORY.publicLinkInvalid);

/** The notification a token names, or 404 (forged, malformed, unknown) / 410 (expired). */
async function rowOfToken(ctx: AppContext, token: string): Promise<Row> {
  const [id, code, sig, extra] = token.split('.');
  if (!id || !code || !sig || extra !== undefined || !UUID.test(id)) throw invalid();
  if (!sameText(sig, mac(ctx.secret, `${id}.${code}`))) throw invalid();
  const [row] = await ctx.db.select().from(schoolNotifications).where(eq(schoolNotifications.id, id)).limit(1);
  if (!row || !sameText(row.codeHash, hashCode(code))) throw invalid();
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError(410, INVENTORY.publicLinkInvalid);
  return row;
}

/** A row of the list: the codebook's code, name and unit as typed (asTyped), the amounts as Serbs write them. */
const rowText = (r: StocktakingRow) =>
  `${r.sifra ? `[${asTyped(r.sifra)}] ` : ''}${asTyped(r.naziv)} — ${asTyped(formatQuantity(r.kolicina, r.jedinica))} — ${formatRsd(r.ukupnoRsd)}`;

/** A part's handed-over rows (a list mailed before `planirano` existed: all of them). */
const handedOver = (rows: readonly StocktakingRow[] | undefined) => (rows ?? []).filter((r) => r.planirano !== true);

function listText(title: string, rows: StocktakingRow[]): string {
  if (rows.length === 0) return '';
  const lines = rows.map((r, i) => `${i + 1}. ${rowText(r)}`);
  return `${title}\n${lines.join('\n')}\n`;
}

/** The planned rows of all parts under their own heading, each with its part and handover date; '' when none. */
function plannedText(list: StoredList): string[] {
  const parts = [
    ['Oprema', list.oprema],
    ['Materijal', list.materijali],
    ['Radovi', list.radovi],
  ] as const;
  const rows = parts.flatMap(([part, rs]) => (rs ?? []).filter((r) => r.planirano === true).map((r) => [part, r] as const));
  if (rows.length === 0) return [];
  const lines = rows.map(
    ([part, r], i) => `${i + 1}. ${part}: ${rowText(r)} — ${INVENTORY.mailPlannedFor(formatDate(r.datumPrimopredaje))}`,
  );
  return [
    `${INVENTORY.mailPlannedHeading}\n${lines.join('\n')}`,
    `${INVENTORY.mailPlannedTotal}: ${formatRsd(list.planiranoRsd ?? 0)}`,
    INVENTORY.mailPlannedNote,
    '',
  ];
}

/**
 * The stocktaking mail's text: the handed-over lists with numbers as Serbs write them ('1.250,5 m',
 * '58.323,32 RSD') and their total; then the planned rows (handover date after today) under their own
 * heading with their dates and subtotal, apart from what the school confirms.
 */
export function mailText(lokacija: string, list: StoredList, link: string): string {
  return [
    INVENTORY.mailIntro(asTyped(lokacija)),
    '',
    listText('Oprema', handedOver(list.oprema)),
    listText('Materijal', handedOver(list.materijali)),
    listText('Radovi', handedOver(list.radovi)),
    `Ukupno: ${formatRsd(list.ukupnoRsd)}`,
    '',
    ...plannedText(list),
    INVENTORY.mailLinkText(SCHOOL_LINK_DAYS),
    asTyped(link),
    '',
    INVENTORY.mailOutro,
  ].join('\n');
}

function present(row: Row, naziv: string): SchoolNotificationDto {
  return {
    _id: row.id,
    lokacija: { _id: row.clusterId, naziv },
    email: row.email,
    mailPoslat: row.mailPoslat,
    datumSlanja: row.createdAt.toISOString(),
    potvrdaSkole: row.confirmedAt !== null,
    mailPotvrdjen: row.confirmedAt?.toISOString() ?? null,
    istice: row.expiresAt.toISOString(),
  };
}

/**
 * POST /api/school-notification/{locationId}: mails the location's stocktaking list, built here from the
 * records (whatever the request carries), with a single-use link; the address becomes the school's.
 * At most SCHOOL_MAILS_PER_DAY lists of one school in 24 hours (429 with a Serbian message).
 */
export async function sendList(
  ctx: AppContext,
  actor: Actor,
  clusterId: string,
  email: string,
  req: RequestInfo,
  /** The sender's script: the school's address is no user's, so its mail reads as the sender's screen. */
  script: Script,
): Promise<{ message: string; notification: SchoolNotificationDto }> {
  assertInventoryUser(actor);
  await assertClusterVisible(ctx.db, actor, clusterId);
  const [c] = await ctx.db.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, clusterId));
  if (!c) throw notFound();
  const list = await buildStocktaking(ctx.db, clusterId);
  if (list.materijali.length + list.oprema.length + list.radovi.length === 0) throw badRequest(INVENTORY.listEmpty);
  const code = randomBytes(24).toString('base64url');
  const row = await ctx.db.transaction(async (tx) => {
    // The school's row locked: concurrent sends of one school are counted one after another.
    await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, clusterId)).for('update');
    const [sent] = await tx
      .select({ n: count() })
      .from(schoolNotifications)
      .where(and(eq(schoolNotifications.clusterId, clusterId), sql`${schoolNotifications.createdAt} > now() - interval '24 hours'`));
    if ((sent?.n ?? 0) >= SCHOOL_MAILS_PER_DAY) throw new AppError(429, INVENTORY.schoolMailCap(SCHOOL_MAILS_PER_DAY));
    const [r] = await tx
      .insert(schoolNotifications)
      .values({
        clusterId,
        email,
        lista: list,
        codeHash: hashCode(code),
        expiresAt: new Date(Date.now() + SCHOOL_LINK_DAYS * DAY),
        sentBy: actor.id,
      })
      .returning();
    await tx.update(clusters).set({ skolaEmail: email }).where(eq(clusters.id, clusterId));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je poslao popisnu listu lokacije ${asTyped(c.naziv)} na ${asTyped(email)}.`,
    });
    return r as Row;
  });
  const link = `${ctx.config.appUrl}${SCHOOL_LINK_PATH}?token=${makeToken(ctx.secret, row.id, code)}`;
  const status = await ctx.mailer.send({
    to: email,
    script,
    subject: INVENTORY.mailSubject(asTyped(c.naziv)),
    text: mailText(c.naziv, list, link),
    origin: 'school-notification',
    actorId: actor.id,
  });
  const sent = status === 'sent';
  if (sent) await ctx.db.update(schoolNotifications).set({ mailPoslat: true }).where(eq(schoolNotifications.id, row.id));
  return {
    message: sent ? INVENTORY.notificationSent : INVENTORY.notificationQueued,
    notification: present({ ...row, mailPoslat: sent }, c.naziv),
  };
}

/** `sort` of the notified schools (LIST_SORTS.schoolNotifications): potvrdaSkole is whether confirmedAt is set. */
const NOTIFICATION_SORTS: SortMap<'schoolNotifications'> = {
  lokacija: { text: clusters.naziv },
  email: { text: schoolNotifications.email },
  mailPoslat: { value: schoolNotifications.mailPoslat },
  datumSlanja: { value: schoolNotifications.createdAt },
  potvrdaSkole: { value: sql`(${schoolNotifications.confirmedAt} is not null)` },
  mailPotvrdjen: { value: schoolNotifications.confirmedAt },
  istice: { value: schoolNotifications.expiresAt },
};

/** GET /api/school-notification: newest first (or by `sort`), visible locations; search in the location and address. */
export async function listNotifications(
  ctx: AppContext,
  actor: Actor,
  input: Paging & Sorting<SortKey<'schoolNotifications'>> & { eng?: string; srb?: string },
): Promise<SchoolNotificationsPage> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const terms = searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' });
  const where = and(
    visibleClusterCondition(scope, schoolNotifications.clusterId),
    terms.length
      ? sql`(${matchCondition(clusters.searchText, terms)} or ${sql.join(
          terms.map((t) => sql`lower(${schoolNotifications.email}) like '%' || lower(${t.replace(/[\\%_]/g, (ch) => `\\${ch}`)}) || '%'`),
          sql` or `,
        )})`
      : undefined,
  );
  const [total] = await ctx.db
    .select({ n: count() })
    .from(schoolNotifications)
    .innerJoin(clusters, eq(clusters.id, schoolNotifications.clusterId))
    .where(where);
  const rows = await ctx.db
    .select({ n: schoolNotifications, naziv: clusters.naziv })
    .from(schoolNotifications)
    .innerJoin(clusters, eq(clusters.id, schoolNotifications.clusterId))
    .where(where)
    .orderBy(
      ...orderOf(NOTIFICATION_SORTS, input, [desc(schoolNotifications.createdAt), desc(schoolNotifications.id)], schoolNotifications.id),
    )
    .limit(input.limit)
    .offset(offsetOf(input));
  return { notifications: rows.map((r) => present(r.n, r.naziv)), totalResults: total?.n ?? 0 };
}

/** GET /api/public/popisna-lista?token=: the list as mailed (a used link still shows it, confirmed). */
export async function publicList(ctx: AppContext, token: string): Promise<PublicStocktaking> {
  const row = await rowOfToken(ctx, token);
  const [c] = await ctx.db.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, row.clusterId));
  const list = row.lista as StoredList;
  // Lists mailed before planned rows were told apart carry neither the flag nor the subtotal.
  const rows = (rs: StocktakingRow[] | undefined) => (rs ?? []).map((r) => ({ ...r, planirano: r.planirano === true }));
  return {
    lokacija: c?.naziv ?? '',
    datumSlanja: row.createdAt.toISOString(),
    istice: row.expiresAt.toISOString(),
    potvrdaSkole: row.confirmedAt !== null,
    mailPotvrdjen: row.confirmedAt?.toISOString() ?? null,
    materijali: rows(list.materijali),
    oprema: rows(list.oprema),
    radovi: rows(list.radovi),
    ukupnoRsd: list.ukupnoRsd ?? 0,
    planiranoRsd: list.planiranoRsd ?? 0,
  };
}

/** POST /api/public/popisna-lista/potvrdi: once; a second use answers 410. */
export async function confirmList(ctx: AppContext, token: string, req: RequestInfo): Promise<{ message: string }> {
  const row = await rowOfToken(ctx, token);
  const done = await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(schoolNotifications)
      .set({ confirmedAt: new Date() })
      .where(and(eq(schoolNotifications.id, row.id), sql`${schoolNotifications.confirmedAt} is null`))
      .returning({ id: schoolNotifications.id });
    if (updated.length === 0) return false;
    const [c] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, row.clusterId));
    await writeLog(tx, {
      actor: null,
      ...req,
      userLabel: row.email,
      message: `Škola (${asTyped(row.email)}) je potvrdila prijem popisne liste lokacije ${asTyped(c?.naziv ?? '')}.`,
    });
    return true;
  });
  if (!done) throw new AppError(410, INVENTORY.publicLinkUsed);
  return { message: INVENTORY.publicConfirmed };
}
