import { SMTP } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { mailOutbox, smtpServers } from '../../db/schema.js';
import { encrypt } from '../../platform/secrets.js';
import { type ActivityState, createCluster, createGroup, createUser, setActivityState } from '../../seed/factories.js';
import { runDeadlineDigest } from './digest.js';
import { startTestSmtp, type TestSmtp } from './testSmtpServer.js';

const t = useTestApp();
let mail: TestSmtp;

/** A fixed day, so "turned today" doesn't depend on when the test runs. */
const TODAY = '2026-03-10';
const day = (n: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const running = (start: number, due: number): ActivityState => ({ status: 'U toku', datumPocetka: day(start), rokZavrsetka: day(due) });
const deps = () => ({ db: t.db, mailer: t.ctx.mailer, log: pino({ level: 'silent' }), appUrl: 'http://trasa.test' });
const ids: Record<string, string> = {};

beforeAll(async () => {
  mail = await startTestSmtp();
  const izv = await createGroup(t.db, { naziv: 'Optika Digest', type: 'IZVODJAC' });
  const izvTeam = await createGroup(t.db, { naziv: 'Optika Digest Tim', type: 'IZVODJAC', parentId: izv.id });
  const nadzor = await createGroup(t.db, { naziv: 'Nadzor Digest', type: 'NADZOR' });
  const stranger = await createGroup(t.db, { naziv: 'Kabl Digest', type: 'IZVODJAC' });
  for (const [email, groupId, spec] of [
    ['ana@izv.rs', izv.id, {}],
    ['bora@izv.rs', izvTeam.id, {}], // a team of the company sees the company's clusters
    ['nada@nadzor.rs', nadzor.id, {}],
    ['strani@kabl.rs', stranger.id, {}], // same type, doesn't see the clusters
    ['sef@izv.rs', izv.id, { role: 'Rukovodilac' as const }],
    ['neaktivan@izv.rs', izv.id, { status: 'neaktivan' as const }],
  ] as const) {
    await createUser(t.db, { email, groupId, ...spec });
  }
  const north = await createCluster(t.db, { naziv: 'Sever', groupIds: [izv.id, nadzor.id] });
  const south = await createCluster(t.db, { naziv: 'Jug', groupIds: [izv.id] });
  const set = async (cluster: { id: string; naziv: string }, code: string, state: ActivityState) => {
    ids[`${cluster.naziv}:${code}`] = (await setActivityState(t.db, cluster.id, code, state)).id;
  };
  await set(north, 'A3', running(-9, 1)); // IZVODJAC: 1 of 10 days left today, 2 yesterday: turned orange
  await set(south, 'A2', running(-10, -1)); // IZVODJAC: its last day was yesterday (orange), red today
  await set(south, 'A4', running(-20, -5)); // IZVODJAC: red since days: not in the digest
  await set(north, 'A4', running(-1, 5)); // IZVODJAC: blue today (6 of 6 days left)
  await set(north, 'A4.1', running(-20, 1)); // NADZOR: orange yesterday already: not in the digest
  await set(north, 'A9.1', running(-10, 0)); // NADZOR: last day today: orange, yesterday 1 of 10: orange too
  await set(north, 'A5', running(-4, -1)); // IZVODJAC: its last day was yesterday, red today
});

afterAll(async () => {
  await mail.stop();
});

const received = (to: string) => mail.received.filter((m) => m.to.includes(to));

describe('the daily deadline digest', () => {
  it('sends nothing while no SMTP server is in use', async () => {
    expect(await runDeadlineDigest(deps(), { today: TODAY })).toEqual({ sent: 0, skipped: 'no-smtp' });
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.origin, 'digest'))).toEqual([]);
  });

  it('mails each member of a responsible group that sees the cluster once, listing what turned orange or red today', async () => {
    await t.db.insert(smtpServers).values({
      host: '127.0.0.1',
      port: mail.port,
      email: 'trasa@primer.rs',
      passwordEnc: encrypt(t.ctx.secret, 'tajna-lozinka'),
      inUse: true,
    });
    expect(await runDeadlineDigest(deps(), { today: TODAY })).toEqual({ sent: 2 });
    expect(mail.received.flatMap((m) => m.to).sort()).toEqual(['ana@izv.rs', 'bora@izv.rs']);
    for (const to of ['ana@izv.rs', 'bora@izv.rs']) {
      const [one, ...more] = received(to);
      expect(more).toEqual([]);
      expect(one?.data).toContain(`Subject: =?UTF-8?`);
      const text = mail.textOf(one ?? { from: '', to: [], data: '' });
      expect(text).toContain(`${SMTP.digestOrange} (рок 11.03.2026.)`);
      expect(text).toContain(`http://trasa.test/app/aktivnost/${ids['Sever:A3']}`);
      expect(text).toContain(`http://trasa.test/app/aktivnost/${ids['Jug:A2']}`);
      expect(text).toContain(`http://trasa.test/app/aktivnost/${ids['Sever:A5']}`);
      expect(text).toContain(`${SMTP.digestRed} (рок 09.03.2026.)`);
      expect(text).not.toContain(ids['Jug:A4']);
      expect(text).not.toContain(ids['Sever:A4']);
      expect(text).not.toContain(ids['Sever:A4.1']);
    }
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.origin, 'digest'));
    expect(rows.map((r) => [r.to, r.status, r.subject]).sort()).toEqual([
      ['ana@izv.rs', 'sent', SMTP.digestSubject('10.03.2026.')],
      ['bora@izv.rs', 'sent', SMTP.digestSubject('10.03.2026.')],
    ]);
  });

  it('a second run the same day sends nothing; the next day is a new digest', async () => {
    mail.received.length = 0;
    expect(await runDeadlineDigest(deps(), { today: TODAY })).toEqual({ sent: 0 });
    // two servers at once: one runs, the other skips
    const both = await Promise.all([runDeadlineDigest(deps(), { today: TODAY }), runDeadlineDigest(deps(), { today: TODAY })]);
    expect(both.map((r) => r.sent)).toEqual([0, 0]);
    expect(mail.received).toEqual([]);
    // the next day A3 is orange still (no mail for it); A4.1 turns red on the day after its deadline
    const next = await runDeadlineDigest(deps(), { today: day(2) });
    expect(next.sent).toBeGreaterThan(0);
    const nada = received('nada@nadzor.rs');
    expect(nada).toHaveLength(1);
    expect(mail.textOf(nada[0] ?? { from: '', to: [], data: '' })).toContain(ids['Sever:A4.1']);
  });

  it('a digest the SMTP server refuses stays in the outbox as failed, counts as sent that day, and is retried', async () => {
    mail.received.length = 0;
    mail.refuse = true;
    const later = day(6); // North's A4 (due day 5) turns red
    const result = await runDeadlineDigest(deps(), { today: later });
    expect(result.sent).toBe(2);
    const failed = await t.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'failed'));
    expect(failed.map((r) => r.to).sort()).toEqual(['ana@izv.rs', 'bora@izv.rs']);
    mail.refuse = false;
    expect((await runDeadlineDigest(deps(), { today: later })).sent).toBe(0);
    expect(await t.ctx.mailer.deliverDue({ now: new Date(Date.now() + 6 * 60_000) })).toBe(2);
    expect(mail.received.flatMap((m) => m.to).sort()).toEqual(['ana@izv.rs', 'bora@izv.rs']);
    expect(mail.textOf(received('ana@izv.rs')[0] ?? { from: '', to: [], data: '' })).toContain(ids['Sever:A4']);
  });
});
