import { COUNT_DECIMALS, METRE_DECIMALS, MONEY_DECIMALS, parseAmountText } from '../amounts.js';
import type { ActivityDto, DataItem } from '../dto/activities.js';
import { ACTIVITIES } from '../messages/activities.js';
import { A3_OUTCOMES, A20_TEST_TYPES, AUTOMATIC_CODES, FINISHED } from './catalogue.js';
import { isFutureDate, isIsoDate, parseAmount } from './values.js';

export { isFutureDate, isIsoDate, MAX_AMOUNT, parseAmount } from './values.js';

/**
 * The per-code completion rules of spec 3 §4 and activity-catalogue.md, in one place: the server
 * refuses a finish or a control decision with these problems, the web disables its buttons with the
 * same ones. Pure functions over the activity's data items and files.
 *
 * Data keys (spec 3 §3, plus DuzinaTrase and DodatnaTaksa):
 *   Datum (YYYY-MM-DD) · Taksa · Broj · CEOPBroj · DaNe · RevidiranaDuzinaKlastera · RevidiranaVrednost
 *   Ijos (comma-joined holder ids) · IjoNazivi (comma-joined holder names)
 *   A7IjoChecked (comma-joined ids of holders done) · A7Taksa (one per holder: ref = holder id,
 *   naziv = holder name, vrednost = amount)
 *   DuzinaTrase: route length in metres; on A1 one per settlement (ref = settlement id, naziv = its
 *   name), on A9 (PZI) and A12 (PIO) one for the cluster
 *   DodatnaTaksa: an additional fee (naziv 1–50 characters, vrednost in RSD)
 */
export const DATA_KEYS = {
  date: 'Datum',
  fee: 'Taksa',
  number: 'Broj',
  ceop: 'CEOPBroj',
  yesNo: 'DaNe',
  holders: 'Ijos',
  holderNames: 'IjoNazivi',
  a7Checked: 'A7IjoChecked',
  a7Fee: 'A7Taksa',
  revisedLength: 'RevidiranaDuzinaKlastera',
  revisedValue: 'RevidiranaVrednost',
  routeLength: 'DuzinaTrase',
  extraFee: 'DodatnaTaksa',
} as const;

/** Codes whose edit section is a date picker (and whose completion rule is a date). */
export const DATE_CODES = ['A2', 'A5', 'A10', 'A12', 'A13', 'A18'] as const;
/** Codes whose date may be set (all must not lie in the future). */
export const CODES_WITH_DATE = [...DATE_CODES, 'A5.1', 'A10.1'] as const;
/** Codes with the revised length and value (A2, A5). */
export const REVISED_CODES = ['A2', 'A5'] as const;
/** Codes that record a route length in metres for the cluster (PZI, PIO reports). */
export const ROUTE_LENGTH_CODES = ['A9', 'A12'] as const;
/** Codes with a number field: A17 (optional until finish), A26.1 and A27.1 (required). */
export const NUMBER_CODES = ['A17', 'A26.1', 'A27.1'] as const;

export type RuleFile = { slot: string | null; revision: number };
export type RuleInput = {
  code: string;
  brojFajlova: number;
  /** Times the activity was sent back by a control (ActivityDto.returned). */
  returned: number;
  /**
   * The activity's current revision (activityRevision: returned + version; ActivityDto.revizija); only
   * files of this revision count. Defaults to `returned` (an activity never restarted).
   */
  revision?: number;
  podaci: readonly DataItem[];
  /** Live (not deleted) files of the activity. */
  files: readonly RuleFile[];
  /** The cluster's settlements (A1: one file per settlement). */
  settlements: readonly { _id: string; naziv: string }[];
};

export function dataValue(podaci: readonly DataItem[], key: string, ref?: string): string | undefined {
  const item = podaci.find((p) => p.key === key && (ref === undefined || p.ref === ref));
  const v = item?.vrednost?.trim();
  return v ? v : undefined;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The holder ids selected on A6.1 / copied into A7. */
export function holderIds(podaci: readonly DataItem[]): string[] {
  return list(dataValue(podaci, DATA_KEYS.holders));
}

/** The holder ids marked done on A7. */
export function checkedHolderIds(podaci: readonly DataItem[]): string[] {
  return list(dataValue(podaci, DATA_KEYS.a7Checked));
}

/**
 * The current revision of an activity: it grows by one each time a control sends the activity back
 * (`returned`) and each time it is restarted because its predecessor finished again (`version`, e.g. a
 * control re-checking a revised document). Files carry the revision they were uploaded in; only those
 * of the current one count for the rules and may be deleted.
 */
export function activityRevision(a: { returned: number; version: number }): number {
  return a.returned + a.version;
}

/**
 * The state a change was made on: the activity's status and revision as the screen showed them. A change
 * sent later (queued on a device without signal) carries it, and the server refuses it when the activity
 * has moved on since (docs/api/activities.md "The state a change was made on").
 */
export type ActivityState = { status: string; revizija: number };

/**
 * Why a change made on `made` no longer applies to an activity now in `now`, in the words the server
 * answers with (409), or null while it still applies: finished since, another revision (a control sent it
 * back, or it restarted), or reopened since it was finished (the Admin's reactivation). An activity that
 * merely started since a comment was written on it is not stale.
 */
export function staleStateReason(now: ActivityState, made: ActivityState): string | null {
  if (now.status === FINISHED && made.status !== FINISHED) return ACTIVITIES.finishedMeanwhile;
  if (now.revizija !== made.revizija) return ACTIVITIES.newRevisionMeanwhile;
  if (made.status === FINISHED && now.status !== FINISHED) return ACTIVITIES.staleVersion;
  return null;
}

/** Files of the current revision (a revision's files carry '_revizija=N'; older ones don't count). */
export function currentFiles(input: Pick<RuleInput, 'files' | 'returned' | 'revision'>): RuleFile[] {
  const revision = input.revision ?? input.returned;
  return input.files.filter((f) => f.revision === revision);
}

const REVISION_MARK = /_revizija=\d+(?=\.[^.]*$|$)/;

/**
 * The name a file of revision N is shown and downloaded under: '_revizija=N' before the extension
 * ('IDR.pdf' → 'IDR_revizija=1.pdf'); revision 0 keeps the name. A marker the name already carries is
 * replaced, never doubled.
 */
export function revisionFileName(name: string, revision: number): string {
  const plain = name.replace(REVISION_MARK, '');
  if (revision <= 0) return plain;
  const dot = plain.lastIndexOf('.');
  return dot > 0 ? `${plain.slice(0, dot)}_revizija=${revision}${plain.slice(dot)}` : `${plain}_revizija=${revision}`;
}

/** 'Da' or 'Dobijena IOL' → obtained; 'Ne' or 'Nije potrebna IOL' → not needed; else null. */
export function a3Outcome(value: string | undefined): 'obtained' | 'notNeeded' | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  if (v === 'da' || v === A3_OUTCOMES[0].toLowerCase()) return 'obtained';
  if (v === 'ne' || v === A3_OUTCOMES[1].toLowerCase()) return 'notNeeded';
  return null;
}

/** Files the activity needs before it can be finished (shown as 'Broj fajlova neophodan za uvoz: N'). */
export function requiredFileCount(input: RuleInput): number {
  switch (input.code) {
    case 'A1':
      return input.settlements.length;
    case 'A3':
      return a3Outcome(dataValue(input.podaci, DATA_KEYS.yesNo)) === 'notNeeded' ? 1 : 0;
    case 'A7':
      return holderIds(input.podaci).length;
    case 'A20':
      return A20_TEST_TYPES.length;
    case 'A6.1':
      return holderIds(input.podaci).length === 0 ? 1 : 0;
    default:
      return input.brojFajlova;
  }
}

/** Number of distinct required slots covered by files of the current revision. */
function coveredSlots(input: RuleInput, slots: readonly string[]): number {
  const present = new Set(currentFiles(input).map((f) => f.slot));
  return slots.filter((s) => present.has(s)).length;
}

/** Whether the count of current-revision files satisfies the rule of the code. */
function filesProblem(input: RuleInput): string | null {
  const needed = requiredFileCount(input);
  if (needed === 0) return null;
  let have: number;
  if (input.code === 'A1')
    have = coveredSlots(
      input,
      input.settlements.map((s) => s._id),
    );
  else if (input.code === 'A7') have = coveredSlots(input, holderIds(input.podaci));
  else if (input.code === 'A20')
    have = coveredSlots(
      input,
      A20_TEST_TYPES.map((_, i) => String(i + 1)),
    );
  else have = currentFiles(input).length;
  return have >= needed ? null : ACTIVITIES.filesNeeded(needed);
}

/**
 * Why the activity can't be finished yet (empty: it can). For codes outside the catalogue's special
 * rules it is the plain file count. Control codes are resolved, not finished: see decisionProblems.
 */
export function finishProblems(input: RuleInput): string[] {
  const problems: string[] = [];
  const value = (key: string) => dataValue(input.podaci, key);
  if ((DATE_CODES as readonly string[]).includes(input.code) && !value(DATA_KEYS.date)) problems.push(ACTIVITIES.enterField('datum'));
  if (input.code === 'A17' && parseAmount(value(DATA_KEYS.number)) === null) problems.push(ACTIVITIES.numberFor('Broj'));
  if (input.code === 'A3' && a3Outcome(value(DATA_KEYS.yesNo)) === null) problems.push(ACTIVITIES.required);
  if (input.code === 'A7') {
    const holders = holderIds(input.podaci);
    const checked = new Set(checkedHolderIds(input.podaci));
    if (holders.some((h) => !checked.has(h))) problems.push(ACTIVITIES.holdersUnchecked);
    if (holders.some((h) => parseAmount(dataValue(input.podaci, DATA_KEYS.a7Fee, h)) === null)) problems.push(ACTIVITIES.feesMissing);
  }
  const files = filesProblem(input);
  if (files) problems.push(files);
  return problems;
}

/**
 * Why a control can't be decided yet. faults=false (accept): A5.1 needs its date and the LU document,
 * A10.1 its date, A6.1 holders or one file, A26.1/A27.1 their number. faults=true (remarks) needs
 * nothing more: 'a negative answer just uploads and ends the activity'.
 */
export function decisionProblems(input: RuleInput, faults: boolean): string[] {
  const problems: string[] = [];
  const value = (key: string) => dataValue(input.podaci, key);
  if ((input.code === 'A26.1' || input.code === 'A27.1') && parseAmount(value(DATA_KEYS.number)) === null)
    problems.push(ACTIVITIES.required);
  if (faults) return problems;
  if ((input.code === 'A5.1' || input.code === 'A10.1') && !value(DATA_KEYS.date)) problems.push(ACTIVITIES.enterField('datum'));
  if (input.code === 'A5.1' && currentFiles(input).length === 0) problems.push(ACTIVITIES.filesNeeded(1));
  if (input.code === 'A6.1') {
    const files = filesProblem(input);
    if (files) problems.push(files);
  }
  return problems;
}

/** Keys every editable activity may carry besides its own: additional fees (naziv + RSD). */
const COMMON_KEYS = [DATA_KEYS.extraFee] as const;

/**
 * The data keys each code may save (PATCH /api/activity/:id); anything else is refused. Codes without
 * an edit section of their own get the generic form: a date. The automatic codes (A6, A11) take none.
 * Ijos/IjoNazivi of A7 are copied from A6.1 by the server, never saved on A7 itself.
 */
const KEYS_BY_CODE: Record<string, readonly string[]> = {
  A1: [DATA_KEYS.routeLength],
  A2: [DATA_KEYS.date, DATA_KEYS.revisedLength, DATA_KEYS.revisedValue],
  A3: [DATA_KEYS.yesNo],
  A5: [DATA_KEYS.date, DATA_KEYS.revisedLength, DATA_KEYS.revisedValue, DATA_KEYS.ceop],
  'A5.1': [DATA_KEYS.date, DATA_KEYS.fee],
  'A6.1': [DATA_KEYS.holders, DATA_KEYS.holderNames],
  A7: [DATA_KEYS.a7Checked, DATA_KEYS.a7Fee],
  A9: [DATA_KEYS.routeLength],
  A10: [DATA_KEYS.date, DATA_KEYS.ceop],
  'A10.1': [DATA_KEYS.date],
  A12: [DATA_KEYS.date, DATA_KEYS.routeLength],
  A13: [DATA_KEYS.date],
  A17: [DATA_KEYS.number],
  A18: [DATA_KEYS.date],
  A25: [DATA_KEYS.date, DATA_KEYS.ceop],
  'A26.1': [DATA_KEYS.number],
  'A27.1': [DATA_KEYS.number],
};

export function allowedDataKeys(code: string): readonly string[] {
  if ((AUTOMATIC_CODES as readonly string[]).includes(code)) return [];
  return [...(KEYS_BY_CODE[code] ?? [DATA_KEYS.date]), ...COMMON_KEYS];
}

/** Keys whose value is an amount (parseAmount; stored normalised, never negative). */
export const AMOUNT_KEYS: readonly string[] = [
  DATA_KEYS.number,
  DATA_KEYS.fee,
  DATA_KEYS.revisedLength,
  DATA_KEYS.revisedValue,
  DATA_KEYS.routeLength,
  DATA_KEYS.a7Fee,
  DATA_KEYS.extraFee,
];

/**
 * Decimals a typed amount of the key may carry (amounts.ts): money 2, metres 2, the counts of A26.1 and
 * A27.1 (households, schools) none.
 */
export function amountDecimals(code: string, key: string): number {
  if (key === DATA_KEYS.number && (code === 'A26.1' || code === 'A27.1')) return COUNT_DECIMALS;
  if (key === DATA_KEYS.number || key === DATA_KEYS.routeLength || key === DATA_KEYS.revisedLength) return METRE_DECIMALS;
  return MONEY_DECIMALS;
}

/** The label a data item gets when the client sends none (the finished activity lists name/value pairs). */
export function dataLabel(code: string, key: string): string {
  switch (key) {
    case DATA_KEYS.date:
      return 'Datum';
    case DATA_KEYS.fee:
      return 'Taksa (RSD)';
    case DATA_KEYS.number:
      return code === 'A17'
        ? 'Dužina izgrađene trase (m)'
        : code === 'A26.1'
          ? 'Broj priključenih domaćinstava'
          : code === 'A27.1'
            ? 'Broj povezanih škola'
            : 'Broj';
    case DATA_KEYS.ceop:
      return 'CEOP broj';
    case DATA_KEYS.yesNo:
      return 'Informacija o lokaciji';
    case DATA_KEYS.holders:
      return 'IJO';
    case DATA_KEYS.holderNames:
      return 'Imaoci javnih ovlašćenja';
    case DATA_KEYS.a7Checked:
      return 'Završeni IJO';
    case DATA_KEYS.a7Fee:
      return 'Taksa IJO (RSD)';
    case DATA_KEYS.revisedLength:
      return 'Revidirana dužina klastera';
    case DATA_KEYS.revisedValue:
      return 'Revidirana vrednost';
    case DATA_KEYS.routeLength:
      return 'Dužina trase (m)';
    case DATA_KEYS.extraFee:
      return 'Dodatna taksa (RSD)';
    default:
      return key;
  }
}

/** Longest additional-fee name (spec 3 §5). */
export const EXTRA_FEE_NAME_MAX = 50;

export type DataItemCheck = { ok: true; vrednost: string } | { ok: false; field: string; message: string };

/**
 * The checks of one data item that need nothing but the item (spec 3 §5): a real date not in the
 * future; amounts by the typed rule (amounts.ts: digits and one separator, amountDecimals decimals, not
 * negative), stored normalised ('1234,5' → '1234.5'; '2.500,50' is refused);
 * A3's outcome (Da/Ne or one of A3_OUTCOMES, stored as the outcome); an additional fee's name of 1–50
 * characters. The server also checks what needs the database (settlements, holders); the web may call
 * this before saving. `vrednost` must not be empty (empty means "remove", handled by the caller).
 */
export function checkDataItem(code: string, item: DataItem, today: Date | string = new Date()): DataItemCheck {
  const raw = item.vrednost.trim();
  const fail = (message: string, field: string = item.key): DataItemCheck => ({ ok: false, field, message });
  if (item.key === DATA_KEYS.date) {
    if (!isIsoDate(raw)) return fail(ACTIVITIES.enterField('datum'));
    if (isFutureDate(raw, today)) return fail(ACTIVITIES.futureDate);
    return { ok: true, vrednost: raw };
  }
  if (item.key === DATA_KEYS.extraFee) {
    const naziv = item.naziv.trim();
    if (naziv.length < 1 || naziv.length > EXTRA_FEE_NAME_MAX) return fail(ACTIVITIES.feeNameLength, 'naziv');
    const n = parseAmountText(raw, MONEY_DECIMALS);
    if (n === null) return fail(ACTIVITIES.mustBeNumber);
    return { ok: true, vrednost: String(n) };
  }
  if (AMOUNT_KEYS.includes(item.key)) {
    const n = parseAmountText(raw, amountDecimals(code, item.key));
    if (n === null) {
      const revised = item.key === DATA_KEYS.revisedLength || item.key === DATA_KEYS.revisedValue;
      return fail(revised ? ACTIVITIES.validNumber : ACTIVITIES.numberFor(item.naziv.trim() || dataLabel(code, item.key)));
    }
    return { ok: true, vrednost: String(n) };
  }
  if (item.key === DATA_KEYS.yesNo) {
    const outcome = a3Outcome(raw);
    if (!outcome) return fail(ACTIVITIES.chooseOutcome);
    return { ok: true, vrednost: outcome === 'obtained' ? A3_OUTCOMES[0] : A3_OUTCOMES[1] };
  }
  if (raw.length > 1000) return fail(ACTIVITIES.tooLong);
  return { ok: true, vrednost: raw };
}

/** The rule input of an activity as GET /api/activity/:id presents it (web: finish and decision buttons). */
export function ruleInputOf(activity: ActivityDto): RuleInput {
  return {
    code: activity.kratakNaziv,
    brojFajlova: activity.brojFajlova,
    returned: activity.returned,
    revision: activity.revizija,
    podaci: activity.podaci,
    files: activity.fajlovi.filter((f) => !f.deleted).map((f) => ({ slot: f.slot, revision: f.revizija })),
    settlements: activity.lokacija.naselja,
  };
}
