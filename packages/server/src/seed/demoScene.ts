import { Readable } from 'node:stream';
import { A20_TEST_TYPES, addDays, catalogueEntry, DATA_KEYS, type GroupTypeCode } from '@trasa/domain';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { activities, activityComments, activityFiles } from '../db/schema-activities.js';
import { type DataInput, saveActivityData } from '../features/activities/data.js';
import { type Performer, SYSTEM } from '../features/activities/policy.js';
import { finishActivity, resolveControl, startActivity } from '../features/activities/service.js';
import { commentActivity } from '../features/comments/service.js';
import { addActivityFiles, type FileDeps } from '../features/files/service.js';
import type { Actor } from '../platform/auth.js';
import type { Db, Tx } from '../platform/database.js';
import { appToday } from '../platform/time.js';
import type { ActivityFileStore } from '../shared/activityFileStore.js';
import { minimalPdf } from './demoContracts.js';
import { type Extra, FEES, type Story } from './demoStories.js';

/**
 * Playing a demo story on its cluster: each step finished on its day by the right person, with its data,
 * files, holders and notes.
 */
// ---------------------------------------------------------------------------------------------------
// Playing a story

export type ClusterInfo = {
  id: string;
  naziv: string;
  duzina: number;
  vrednost: number;
  /** The cluster's own settlements (not the incidental ones), in order. */
  naselja: { id: string; naziv: string; code: string; domacinstva: number; skole: number }[];
};

const dayIso = (offset: number) => addDays(appToday(), offset);

/** A stable number from a text (CEOP case numbers, fees). */
function hashOf(text: string): number {
  let h = 7;
  for (const c of text) h = (h * 31 + (c.codePointAt(0) ?? 0)) % 1_000_003;
  return h;
}

/** The parts of a holder's name a file name keeps. */
const plain = (naziv: string) => naziv.replace(/[„“"]/g, '').replace(/\.$/, '').trim();

export class Scene {
  private readonly ids = new Map<string, string>();
  private readonly attempts = new Map<string, number>();
  private readonly deps: FileDeps;
  private readonly runStart = new Date();
  private clock = 0;

  constructor(
    private readonly tx: Tx,
    store: ActivityFileStore,
    private readonly cluster: ClusterInfo,
    private readonly actors: Map<string, Actor>,
    private readonly story: Story,
    private readonly holderIds: Map<string, string>,
  ) {
    this.deps = { db: tx, store };
  }

  private get place(): string {
    return this.cluster.naziv.split(' - ').pop() ?? this.cluster.naziv;
  }

  private async idOf(code: string): Promise<string> {
    let id = this.ids.get(code);
    if (!id) {
      const [row] = await this.tx
        .select({ id: activities.id })
        .from(activities)
        .where(and(eq(activities.clusterId, this.cluster.id), eq(activities.code, code)));
      if (!row) throw new Error(`demo: no ${code} on ${this.cluster.naziv}`);
      id = row.id;
      this.ids.set(code, id);
    }
    return id;
  }

  /** The person acting for the first of the activity's responsible parties the story names; else the system. */
  private performer(code: string): Performer {
    for (const party of catalogueEntry(code)?.odgovoran ?? []) {
      const email = this.story.people[party as GroupTypeCode];
      const actor = email ? this.actors.get(email) : undefined;
      if (actor) return actor;
    }
    return SYSTEM;
  }

  /** A moment of that day in working hours (the order of the steps kept). */
  private moment(day: number): string {
    this.clock++;
    const minutes = 8 * 60 + ((this.clock * 23) % (8 * 60));
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    return `${dayIso(day)}T${hh}:${mm}:00+01:00`;
  }

  /** Dates the documents stored in this run at that day (the service dates them now). */
  private async stamp(day: number): Promise<void> {
    const at = this.moment(day);
    await this.tx
      .update(activityFiles)
      .set({ createdAt: sql`${at}::timestamptz + (${activityFiles.createdAt} - ${this.runStart.toISOString()}::timestamptz)` })
      .where(
        and(
          gte(activityFiles.createdAt, this.runStart),
          inArray(
            activityFiles.activityId,
            this.tx.select({ id: activities.id }).from(activities).where(eq(activities.clusterId, this.cluster.id)),
          ),
        ),
      );
  }

  private opts(day: number) {
    return { today: dayIso(day) };
  }

  async start(day: number): Promise<void> {
    await startActivity(this.deps, this.performer('A1'), await this.idOf('A1'), this.opts(day));
  }

  async save(code: string, day: number, podaci: DataInput[]): Promise<void> {
    await saveActivityData(this.deps, this.performer(code), await this.idOf(code), podaci, this.opts(day));
  }

  /** One document, as the upload stores it (a small PDF showing its name). */
  async upload(code: string, day: number, name: string, opts: { slot?: string; required?: boolean } = {}): Promise<void> {
    const content = minimalPdf([name, this.cluster.naziv, `Datum: ${dayIso(day)}`]);
    const stored = await this.deps.store.save(Readable.from([content]), name, { maxBytes: content.length + 1 });
    await addActivityFiles(
      this.deps,
      this.performer(code),
      await this.idOf(code),
      [stored],
      { userInput: opts.slot, isRequired: opts.required ?? true },
      this.opts(day),
    );
    await this.stamp(day);
  }

  /** A1's route files (and lengths) for the first `count` settlements. */
  async routeFiles(day: number, count = this.cluster.naselja.length): Promise<void> {
    const households = this.cluster.naselja.reduce((n, s) => n + s.domacinstva, 0) || 1;
    const lengths: DataInput[] = [];
    for (const s of this.cluster.naselja.slice(0, count)) {
      await this.upload('A1', day, `Idejna trasa - ${s.naziv}.pdf`, { slot: s.id });
      const metres = Math.round(((this.cluster.duzina * 1000) / households) * s.domacinstva);
      lengths.push({ key: DATA_KEYS.routeLength, ref: s.id, vrednost: String(metres) });
    }
    await this.save('A1', day, lengths);
  }

  /** A7: the conditions and fees of these holders received (marked done, fee, one file each). */
  async holderConditions(day: number, names: string[]): Promise<void> {
    const ids = names.map((n) => this.holder(n));
    await this.save('A7', day, [
      { key: DATA_KEYS.a7Checked, vrednost: ids.join(',') },
      ...names.map((n, i) => ({ key: DATA_KEYS.a7Fee, ref: ids[i], vrednost: String(FEES[n] ?? 10_000) })),
    ]);
    const current = await this.tx
      .select({ slot: activityFiles.slot })
      .from(activityFiles)
      .where(and(eq(activityFiles.activityId, await this.idOf('A7')), sql`${activityFiles.deletedAt} is null`));
    const have = new Set(current.map((f) => f.slot));
    for (const [i, n] of names.entries()) {
      const id = ids[i] as string;
      if (!have.has(id)) await this.upload('A7', day, `Uslovi i rešenje o taksi - ${plain(n)}.pdf`, { slot: id });
    }
  }

  private holder(naziv: string): string {
    const id = this.holderIds.get(naziv.toLowerCase());
    if (!id) throw new Error(`demo: holder ${naziv} missing`);
    return id;
  }

  /** How many times `code` was worked on before (a CEOP number per request). */
  private attempt(code: string): number {
    const n = (this.attempts.get(code) ?? 0) + 1;
    this.attempts.set(code, n);
    return n;
  }

  private ceop(kind: string, day: number, attempt: number): string {
    const ops = this.cluster.naselja[0]?.code.slice(0, 3) ?? 'RBB';
    const serial = 10_000 + ((hashOf(this.cluster.naziv + kind) + attempt * 137) % 30_000);
    return `ROP-${ops}-${serial}-${kind}-${attempt}/${dayIso(day).slice(0, 4)}`;
  }

  /** Fills in what `code` needs, as the responsible party would, then finishes it or decides it. */
  async complete(code: string, day: number, extra: Extra = {}): Promise<void> {
    const date = { key: DATA_KEYS.date, vrednost: dayIso(day) };
    const n = this.attempt(code);
    const { duzina, vrednost, naselja } = this.cluster;
    const metres = Math.round(duzina * 1000 * 1.05);
    const file = (name: string) => this.upload(code, day, name);
    switch (code) {
      case 'A1':
        await this.routeFiles(day);
        break;
      case 'A2':
        await this.save(code, day, [
          date,
          { key: DATA_KEYS.revisedLength, vrednost: (duzina * 1.04).toFixed(1) },
          { key: DATA_KEYS.revisedValue, vrednost: String(Math.round(vrednost * 1.03)) },
        ]);
        await file('Zapisnik o usaglašavanju trase i obima radova.pdf');
        break;
      case 'A3':
        if (extra.noIol) {
          await this.save(code, day, [{ key: DATA_KEYS.yesNo, vrednost: 'Nije potrebna IOL' }]);
          await file('Obrazloženje - IOL nije potrebna.pdf');
        } else {
          await this.save(code, day, [{ key: DATA_KEYS.yesNo, vrednost: 'Dobijena IOL' }]);
          await file(`Informacija o lokaciji - ${this.place}.pdf`);
        }
        break;
      case 'A4':
        await file(`Idejno rešenje (IDR) - ${this.place}.pdf`);
        break;
      case 'A5':
        await this.save(code, day, [date, { key: DATA_KEYS.ceop, vrednost: this.ceop('LOC', day, n) }]);
        break;
      case 'A5.1':
        if (extra.faults) await file('Rešenje o odbijanju zahteva za lokacijske uslove.pdf');
        else {
          await this.save(code, day, [date, { key: DATA_KEYS.fee, vrednost: String(15_000 + (hashOf(this.cluster.naziv) % 8_000)) }]);
          await file(`Lokacijski uslovi - ${this.place}.pdf`);
        }
        break;
      case 'A6.1':
        await this.save(code, day, [{ key: DATA_KEYS.holders, vrednost: (this.story.holders ?? []).map((h) => this.holder(h)).join(',') }]);
        break;
      case 'A7':
        await this.holderConditions(day, this.story.holders ?? []);
        break;
      case 'A8':
        await file(`Projekat za građevinsku dozvolu (PGD) - ${this.place}.pdf`);
        break;
      case 'A9':
        await this.save(code, day, [{ key: DATA_KEYS.routeLength, vrednost: String(metres) }]);
        await file(`Projekat za izvođenje (PZI) - ${this.place}.pdf`);
        break;
      case 'A10':
        await this.save(code, day, [
          date,
          { key: DATA_KEYS.ceop, vrednost: this.ceop('ISAW', day, n) },
          { key: DATA_KEYS.extraFee, naziv: 'Republička administrativna taksa', vrednost: '3290' },
        ]);
        break;
      case 'A10.1':
        await this.save(code, day, [date]);
        await file(`Rešenje po članu 145 - ${this.place}.pdf`);
        break;
      case 'A12':
        await this.save(code, day, [date, { key: DATA_KEYS.routeLength, vrednost: String(metres) }]);
        break;
      case 'A13':
        await this.save(code, day, [date]);
        await file('Zapisnici o primopredaji opreme školama.pdf');
        break;
      case 'A14':
        await file(`Građevinski dnevnik - ${this.place}.pdf`);
        break;
      case 'A15':
        await file('Zapisnik o montaži i povezivanju opreme.pdf');
        break;
      case 'A16':
        await file(`Geodetski snimak izvedenog stanja - ${this.place}.pdf`);
        break;
      case 'A17':
        await this.save(code, day, [{ key: DATA_KEYS.number, vrednost: String(Math.round(duzina * 1000 * 1.07)) }]);
        break;
      case 'A18':
        await this.save(code, day, [date]);
        break;
      case 'A19':
        await file(`Projekat izvedenog objekta (PIO) - ${this.place}.pdf`);
        break;
      case 'A20':
        for (const [i, type] of A20_TEST_TYPES.entries()) await this.upload(code, day, `${type}.pdf`, { slot: String(i + 1) });
        break;
      case 'A21':
        await file('Zahtev za tehnički pregled.pdf');
        break;
      case 'A22':
        await file('Izveštaj komisije za tehnički pregled.pdf');
        break;
      case 'A23':
        await file('Izveštaj o otklonjenim nedostacima.pdf');
        break;
      case 'A25':
        await this.save(code, day, [date, { key: DATA_KEYS.ceop, vrednost: this.ceop('IUP', day, n) }]);
        break;
      case 'A26':
        await file(`Upotrebna dozvola - ${this.place}.pdf`);
        break;
      case 'A26.1': {
        const households = naselja.reduce((sum, s) => sum + s.domacinstva, 0);
        await this.save(code, day, [{ key: DATA_KEYS.number, vrednost: String(Math.round(households * 0.62)) }]);
        await file('Izveštaj o broju priključenih domaćinstava.pdf');
        break;
      }
      case 'A27':
        await file('Zapisnik o primopredaji mreže operateru.pdf');
        break;
      case 'A27.1':
        await this.save(code, day, [
          {
            key: DATA_KEYS.number,
            vrednost: String(
              Math.max(
                1,
                naselja.reduce((sum, s) => sum + s.skole, 0),
              ),
            ),
          },
        ]);
        await file('Izveštaj o broju povezanih škola.pdf');
        break;
      default:
        // The other controls: remarks come with the supervisor's report; an acceptance needs nothing.
        if (extra.faults) await file(`Primedbe nadzora - ${catalogueEntry(code)?.naziv ?? code}.pdf`);
    }
    const id = await this.idOf(code);
    if (catalogueEntry(code)?.kontrolna) await resolveControl(this.deps, this.performer(code), id, extra.faults === true, this.opts(day));
    else await finishActivity(this.deps, this.performer(code), id, this.opts(day));
    await this.stamp(day);
    if (extra.note) await this.comment(code, day, extra.note[0], extra.note[1]);
  }

  /** A comment through the comments service, dated that day. */
  async comment(code: string, day: number, email: string, text: string): Promise<void> {
    const actor = this.actors.get(email);
    if (!actor) return;
    // The service runs its own transaction: inside the story's, a savepoint.
    const dto = await commentActivity(this.tx as unknown as Db, actor, await this.idOf(code), text, { ip: '', url: '' });
    await this.tx
      .update(activityComments)
      .set({ createdAt: new Date(this.moment(day)) })
      .where(eq(activityComments.id, dto._id));
  }

  async play(): Promise<void> {
    const total = this.story.steps.reduce((n, [, after]) => n + after, 0);
    let day = this.story.end - total;
    await this.start(day);
    await this.stamp(day);
    for (const [code, after, extra] of this.story.steps) {
      day += after;
      await this.complete(code, day, extra);
    }
    await this.story.open?.(this);
    for (const [code, at, email, text] of this.story.notes ?? []) await this.comment(code, at, email, text);
  }
}
