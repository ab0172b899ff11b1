import {
  addDays,
  formatDate,
  formatQuantity,
  INVENTORY,
  type PublicStocktaking,
  SCHOOL_MAILS_PER_DAY,
  type SchoolNotificationDto,
  type SchoolNotificationsPage,
  type StocktakingList,
  toScript,
} from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { smtpServers } from '../../db/schema.js';
import { clusterGroups } from '../../db/schema-clusters.js';
import { inventoryItems, inventoryTypes, schoolNotifications } from '../../db/schema-inventory.js';
import { encrypt } from '../../platform/secrets.js';
import { appToday } from '../../platform/time.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { startTestSmtp, type TestSmtp } from '../mail/testSmtpServer.js';
import { mailText, makeToken } from './schools.js';

const t = useTestApp();
let smtp: TestSmtp;
let client: string;
let school: { id: string; naziv: string };
let empty: { id: string; naziv: string };

beforeAll(async () => {
  smtp = await startTestSmtp();
  const nar = await createGroup(t.db, { type: 'NARUCILAC' });
  client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
  school = await createCluster(t.db, { naziv: 'OŠ „Vuk Karadžić“ Lipolist', groupIds: [nar.id] });
  empty = await createCluster(t.db, { naziv: 'OŠ Prazna', groupIds: [nar.id] });
  const [ont] = await t.db
    .insert(inventoryTypes)
    .values({ naziv: 'ONT terminal', tip: 'Oprema', cena: 5200, cenaRsd: 5200, sifra: 'OP-01', redniBroj: 1 })
    .returning();
  const [cable] = await t.db
    .insert(inventoryTypes)
    .values({ naziv: 'Optički kabl', tip: 'Materijal', cena: 0.85, valuta: 'EUR', cenaRsd: 99.6, sifra: 'MA-01', jedinica: 'm' })
    .returning();
  await t.db.insert(inventoryItems).values([
    { typeId: ont?.id as string, clusterId: school.id, kolicina: 2, cenaRsd: 5200, datumPrimopredaje: '2026-04-01' },
    { typeId: cable?.id as string, clusterId: school.id, kolicina: 150, cenaRsd: 99.6, datumPrimopredaje: '2026-04-01' },
  ]);
});

afterAll(async () => {
  await smtp.stop();
});

async function useSmtp() {
  await t.db.delete(smtpServers);
  await t.db.insert(smtpServers).values({
    host: '127.0.0.1',
    port: smtp.port,
    email: 'trasa@primer.rs',
    passwordEnc: encrypt(t.ctx.secret, 'tajna-lozinka'),
    inUse: true,
  });
}

const send = (locationId: string, body: Record<string, unknown>) =>
  t.call({ method: 'POST', url: `/api/school-notification/${locationId}`, token: client, payload: body });

/** The token of the link in a mail's text. */
const tokenIn = (text: string) => /popisna-lista\?token=([A-Za-z0-9._-]+)/.exec(text)?.[1];

describe('stocktaking lists mailed to schools', () => {
  let token: string;

  it('mails the list built from the records (not the request), with a link; the school is notified', async () => {
    await useSmtp();
    const forged = [{ naziv: 'Laptop', kolicina: 1000, ukupnoRsd: 1 }];
    const res = await send(school.id, { email: 'Skola@Lipolist.edu.rs', oprema: forged, materijali: forged, radovi: forged });
    expect(res.statusCode, res.body).toBe(201);
    const { message, notification } = res.json() as { message: string; notification: SchoolNotificationDto };
    expect(message).toBe(said(INVENTORY.notificationSent));
    expect(notification).toMatchObject({ email: 'skola@lipolist.edu.rs', mailPoslat: true, potvrdaSkole: false, mailPotvrdjen: null });
    const days = (Date.parse(notification.istice) - Date.parse(notification.datumSlanja)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);

    const mail = smtp.received.at(-1);
    expect(mail?.to).toEqual(['skola@lipolist.edu.rs']);
    const text = smtp.textOf(mail as NonNullable<typeof mail>);
    expect(text).toContain('ONT terminal');
    expect(text).toContain('Optički kabl');
    expect(text).not.toContain('Laptop');
    // 2 × 5200 + 150 × 99,60 = 25.340,00 RSD
    expect(text).toContain('25.340,00 RSD');
    token = tokenIn(text) as string;
    expect(token).toBeTruthy();
    expect(text).toContain(`http://trasa.test/popisna-lista?token=${token}`);

    const list = (await t.call({ method: 'GET', url: '/api/school-notification', token: client })).json() as SchoolNotificationsPage;
    expect(list.notifications[0]).toMatchObject({ lokacija: { _id: school.id }, mailPoslat: true, potvrdaSkole: false });
    // The address became the school's.
    const loc = (await t.call({ method: 'GET', url: `/api/inventory/location/${school.id}`, token: client })).json();
    expect(loc.location.email).toBe('skola@lipolist.edu.rs');
  });

  it('the public page shows the list and nothing else; confirming works once', async () => {
    const page = await t.call({ method: 'GET', url: `/api/public/popisna-lista?token=${token}` });
    expect(page.statusCode, page.body).toBe(200);
    const shown = page.json() as PublicStocktaking;
    expect(shown.lokacija).toBe(school.naziv);
    expect(shown.oprema.map((r) => [r.naziv, r.kolicina, r.ukupnoRsd])).toEqual([['ONT terminal', 2, 10400]]);
    expect(shown.materijali.map((r) => [r.naziv, r.kolicina, r.ukupnoRsd])).toEqual([['Optički kabl', 150, 14940]]);
    expect(shown.ukupnoRsd).toBe(25340);
    expect(shown.potvrdaSkole).toBe(false);
    expect(Object.keys(shown).sort()).toEqual(
      [
        'datumSlanja',
        'istice',
        'lokacija',
        'mailPotvrdjen',
        'materijali',
        'oprema',
        'planiranoRsd',
        'potvrdaSkole',
        'radovi',
        'ukupnoRsd',
      ].sort(),
    );

    const first = await t.call({ method: 'POST', url: '/api/public/popisna-lista/potvrdi', payload: { token } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(said(INVENTORY.publicConfirmed));
    const second = await t.call({ method: 'POST', url: '/api/public/popisna-lista/potvrdi', payload: { token } });
    expect(second.statusCode).toBe(410);
    expect(second.json().message).toBe(said(INVENTORY.publicLinkUsed));
    const after = (await t.call({ method: 'GET', url: `/api/public/popisna-lista?token=${token}` })).json() as PublicStocktaking;
    expect(after.potvrdaSkole).toBe(true);

    const list = (await t.call({ method: 'GET', url: '/api/school-notification', token: client })).json() as SchoolNotificationsPage;
    const row = list.notifications.find((n) => n.lokacija._id === school.id);
    expect(row?.potvrdaSkole).toBe(true);
    expect(row?.mailPotvrdjen).not.toBeNull();
    // The signed-in API stays closed to the link's holder.
    expect(
      (await t.call({ method: 'GET', url: '/api/school-notification', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(401);
  });

  it('a forged, altered or expired link is refused and confirms nothing', async () => {
    const [id, code] = token.split('.');
    const forged = [
      `${id}.${code}.AAAA`,
      `${id}.${'x'.repeat(code?.length ?? 10)}.${token.split('.')[2]}`,
      makeToken('not-the-secret', id as string, code as string),
      'abc.def',
      `${'0'.repeat(8)}-0000-4000-8000-000000000000.${code}.${token.split('.')[2]}`,
    ];
    for (const bad of forged) {
      const get = await t.call({ method: 'GET', url: `/api/public/popisna-lista?token=${encodeURIComponent(bad)}` });
      expect([400, 404], bad).toContain(get.statusCode);
      const post = await t.call({ method: 'POST', url: '/api/public/popisna-lista/potvrdi', payload: { token: bad } });
      expect([400, 404], bad).toContain(post.statusCode);
    }

    // A second list for the same school, then its link expires before it is used.
    const res = await send(school.id, { email: 'skola@lipolist.edu.rs' });
    expect(res.statusCode).toBe(201);
    const fresh = tokenIn(smtp.textOf(smtp.received.at(-1) as NonNullable<(typeof smtp.received)[number]>)) as string;
    const freshId = fresh.split('.')[0] as string;
    await t.db
      .update(schoolNotifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schoolNotifications.id, freshId));
    const expired = await t.call({ method: 'POST', url: '/api/public/popisna-lista/potvrdi', payload: { token: fresh } });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(said(INVENTORY.publicLinkInvalid));
    expect((await t.call({ method: 'GET', url: `/api/public/popisna-lista?token=${fresh}` })).statusCode).toBe(410);
    const [row] = await t.db.select().from(schoolNotifications).where(eq(schoolNotifications.id, freshId));
    expect(row?.confirmedAt).toBeNull();
  });

  it('without an SMTP server the mail waits in the outbox; an empty location and a bad address are refused', async () => {
    await t.db.delete(smtpServers);
    const before = smtp.received.length;
    const queued = await send(school.id, { email: 'skola@lipolist.edu.rs' });
    expect(queued.statusCode).toBe(201);
    expect(queued.json().message).toBe(said(INVENTORY.notificationQueued));
    expect(queued.json().notification.mailPoslat).toBe(false);
    expect(smtp.received.length).toBe(before);

    const none = await send(empty.id, { email: 'prazna@skola.rs' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(said(INVENTORY.listEmpty));
    const bad = await send(school.id, { email: 'nije adresa' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBe(said(INVENTORY.invalidEmail));
    const missing = await send(school.id, {});
    expect(missing.json().errors.email).toBe(said(INVENTORY.emailRequired));
  });

  it(`mails one school's list at most ${SCHOOL_MAILS_PER_DAY} times in 24 hours, however many are sent at once`, async () => {
    const [nar] = await t.db.select({ groupId: clusterGroups.groupId }).from(clusterGroups).where(eq(clusterGroups.clusterId, school.id));
    const other = await createCluster(t.db, { naziv: 'OŠ Ograničena', groupIds: [nar?.groupId as string] });
    const [type] = await t.db.select().from(inventoryTypes).limit(1);
    await t.db
      .insert(inventoryItems)
      .values({ typeId: type?.id as string, clusterId: other.id, kolicina: 1, cenaRsd: 10, datumPrimopredaje: '2026-04-01' });
    const answers = await Promise.all(
      Array.from({ length: SCHOOL_MAILS_PER_DAY + 2 }, () => send(other.id, { email: 'skola@ogranicena.rs' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(SCHOOL_MAILS_PER_DAY).fill(201), 429, 429]);
    for (const r of answers.filter((a) => a.statusCode === 429))
      expect(r.json().message).toBe(said(INVENTORY.schoolMailCap(SCHOOL_MAILS_PER_DAY)));
    const rows = () => t.db.select().from(schoolNotifications).where(eq(schoolNotifications.clusterId, other.id));
    expect(await rows()).toHaveLength(SCHOOL_MAILS_PER_DAY);
    // A day later the school may be sent its list again; another school was never held back.
    await t.db
      .update(schoolNotifications)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(schoolNotifications.clusterId, other.id));
    expect((await send(other.id, { email: 'skola@ogranicena.rs' })).statusCode).toBe(201);
  });

  it("writes the mail's quantities and money as Serbs write them", () => {
    const cable = {
      _id: 'x',
      redniBroj: 1,
      sifra: 'MA-77',
      naziv: 'Optički kabl',
      kratakNaziv: 'Kabl',
      jedinica: 'm',
      kolicina: 1250.5,
      cenaRsd: 46.64,
      ukupnoRsd: 58323.32,
      trajanjeGarancije: null,
      datumPrimopredaje: '2026-05-01',
      planirano: false,
    };
    // As a reader of Latinica gets it (the mailer puts the composed text in the recipient's script).
    const text = toScript(
      mailText('OŠ Lipolist', { oprema: [], materijali: [cable], radovi: [], ukupnoRsd: 58323.32, planiranoRsd: 0 }, 'https://trasa.rs/x'),
      'lat',
    );
    expect(text).toContain('1. [MA-77] Optički kabl — 1.250,5 m — 58.323,32 RSD');
    expect(text).toContain('Ukupno: 58.323,32 RSD');
  });

  it("keeps a planned handover (date after the application's today) apart: its own row, heading and subtotal", async () => {
    await useSmtp();
    const nar = await createGroup(t.db, { type: 'NARUCILAC' });
    const user = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
    const planned = await createCluster(t.db, { naziv: 'OŠ Planirana', groupIds: [nar.id] });
    const [router] = await t.db
      .insert(inventoryTypes)
      .values({ naziv: 'Ruter', tip: 'Oprema', cena: 3000, cenaRsd: 3000, sifra: 'OP-09', redniBroj: 9 })
      .returning();
    const today = appToday();
    const yesterday = addDays(today, -1);
    const nextWeek = addDays(today, 7);
    await t.db.insert(inventoryItems).values([
      { typeId: router?.id as string, clusterId: planned.id, kolicina: 1, cenaRsd: 3000, datumPrimopredaje: yesterday },
      { typeId: router?.id as string, clusterId: planned.id, kolicina: 2, cenaRsd: 3000, datumPrimopredaje: nextWeek },
    ]);

    const list = (
      await t.call({ method: 'GET', url: `/api/inventory-reports/popisna-lista?naziv=${planned.id}`, token: user })
    ).json() as StocktakingList;
    expect(list.oprema.map((r) => [r.naziv, r.kolicina, r.ukupnoRsd, r.datumPrimopredaje, r.planirano])).toEqual([
      ['Ruter', 1, 3000, yesterday, false],
      ['Ruter', 2, 6000, nextWeek, true],
    ]);
    expect(list.ukupnoRsd).toBe(3000);
    expect(list.planiranoRsd).toBe(6000);

    const res = await t.call({
      method: 'POST',
      url: `/api/school-notification/${planned.id}`,
      token: user,
      payload: { email: 'skola@planirana.rs' },
      // The school is no user: its mail is in the sender's script.
      headers: { 'x-trasa-pismo': 'lat' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const text = smtp.textOf(smtp.received.at(-1) as NonNullable<(typeof smtp.received)[number]>);
    const [handed, plannedPart] = text.split(INVENTORY.mailPlannedHeading);
    expect(plannedPart, text).toBeDefined();
    // Handed over: yesterday's one router, and the total counts only it.
    expect(handed).toContain(`1. [OP-09] Ruter — ${formatQuantity(1, 'kom')} — 3.000,00 RSD`);
    expect(handed).not.toContain('6.000,00 RSD');
    expect(handed).toContain('Ukupno: 3.000,00 RSD');
    // Planned: next week's two routers with their date and subtotal.
    expect(plannedPart).toContain(
      `1. Oprema: [OP-09] Ruter — ${formatQuantity(2, 'kom')} — 6.000,00 RSD — ${INVENTORY.mailPlannedFor(formatDate(nextWeek))}`,
    );
    expect(plannedPart).toContain(`${INVENTORY.mailPlannedTotal}: 6.000,00 RSD`);

    const shown = (
      await t.call({ method: 'GET', url: `/api/public/popisna-lista?token=${tokenIn(text) as string}` })
    ).json() as PublicStocktaking;
    expect(shown.oprema.map((r) => [r.kolicina, r.planirano])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect([shown.ukupnoRsd, shown.planiranoRsd]).toEqual([3000, 6000]);
  });
});
