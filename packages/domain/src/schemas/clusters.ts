import { z } from 'zod';
import { METRE_DECIMALS, MONEY_DECIMALS, parseAmountText, parseImportedAmount } from '../amounts.js';
import { CLUSTERS, CODEBOOKS, CONTRACTS } from '../messages/clusters.js';

const id = z.uuid({ error: CLUSTERS.required });
const ids = z
  .array(z.uuid({ error: CLUSTERS.required }), { error: CLUSTERS.required })
  .max(1000)
  .default([]);
const requiredText = (max = 200) =>
  z.string({ error: CLUSTERS.required }).trim().min(1, { error: CLUSTERS.required }).max(max, { error: 'Predugačak unos.' });

/**
 * A decimal typed as text with a dot or a comma (spec 2 §5) by the typed rule of amounts.ts: digits and
 * one separator, at most `decimals` decimals ('2.500,50' and '-3' are refused); numbers are accepted
 * too. `imported`: a spreadsheet cell, which may also spell '2.500,50'. An empty value is omitted from
 * the payload, so the field is optional.
 */
export function decimalRule(decimals: number, imported = false) {
  return z.union([z.number({ error: CLUSTERS.mustBeNumber }), z.string({ error: CLUSTERS.mustBeNumber })]).transform((v, ctx) => {
    const n = (imported ? parseImportedAmount : parseAmountText)(
      typeof v === 'number' ? Math.round(v * 10 ** decimals) / 10 ** decimals : v,
      decimals,
    );
    if (n === null) {
      ctx.addIssue({ code: 'custom', message: CLUSTERS.mustBeNumber });
      return z.NEVER;
    }
    return n;
  });
}

/** Decimals of a cluster's indicative length in metres (as every length typed in metres). */
export const LENGTH_DECIMALS = METRE_DECIMALS;

/** The contracted value (RSD, MONEY_DECIMALS) and the indicative length as typed. */
export const moneyInput = decimalRule(MONEY_DECIMALS);
export const decimalInput = decimalRule(LENGTH_DECIMALS);

/** An optional decimal: left out, null or '' mean no value (null); a wrong type is 'Морате унети број'. */
function optionalOf(rule: ReturnType<typeof decimalRule>) {
  return z
    .union([z.null(), z.literal(''), z.union([z.number(), z.string()], { error: CLUSTERS.mustBeNumber }).pipe(rule)], {
      error: CLUSTERS.mustBeNumber,
    })
    .optional()
    .transform((v) => (typeof v === 'number' ? v : null));
}
export const optionalDecimal = optionalOf(decimalInput);
export const optionalMoney = optionalOf(moneyInput);

/** POST /api/location and PATCH /api/location/{id}. */
export const clusterSchema = z.object({
  naziv: requiredText(),
  odgovoran: ids,
  ugovor: z.union([id, z.literal(''), z.null()]).optional(),
  indikativnaDuzinaKlastera: optionalDecimal,
  ugovorenaVrednostKlastera: optionalMoney,
  naselja: ids,
  usputnaNaselja: ids,
});
export type ClusterInput = z.input<typeof clusterSchema>;

const count = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
    const n = typeof v === 'number' ? v : Number(v.trim());
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: CODEBOOKS.numberIfGiven });
      return z.NEVER;
    }
    if (n < 0) {
      ctx.addIssue({ code: 'custom', message: CODEBOOKS.numberMin });
      return z.NEVER;
    }
    if (n > 2_147_483_647) {
      ctx.addIssue({ code: 'custom', message: CODEBOOKS.numberIfGiven });
      return z.NEVER;
    }
    return Math.trunc(n);
  });

/** Settlements (spec 2 §5): id and naziv trimmed; counts numbers ≥ 0 when given; opstina split by commas. */
export const settlementSchema = z.object({
  id: z
    .string({ error: CODEBOOKS.settlementIdRequired })
    .trim()
    .min(1, { error: CODEBOOKS.settlementIdRequired })
    .max(50, { error: 'Predugačak unos.' }),
  naziv: z
    .string({ error: CODEBOOKS.settlementNazivRequired })
    .trim()
    .min(1, { error: CODEBOOKS.settlementNazivRequired })
    .max(200, { error: 'Predugačak unos.' }),
  maticniBroj: z.string().trim().max(50).optional().default(''),
  opstina: z
    .union([z.string().max(1000), z.array(z.string().max(200)).max(50)])
    .optional()
    .transform((v) => (Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim()).filter(Boolean)),
  operator: z.string().trim().max(200).optional().default(''),
  javniPoziv: z.string().trim().max(200).optional().default(''),
  brojDomacinstava: count,
  brojSkola: count,
  brojIndirektnoPokrivenihDomacinstava: count,
  brojIndirektnoPokrivenihSkola: count,
});
export type SettlementInput = z.input<typeof settlementSchema>;

export const prioritySchema = z.object({
  naziv: z
    .string({ error: CODEBOOKS.priorityNazivRequired })
    .trim()
    .min(1, { error: CODEBOOKS.priorityNazivRequired })
    .max(100, { error: 'Predugačak unos.' }),
  broj: z.union([z.number(), z.string()], { error: CODEBOOKS.priorityBrojRequired }).transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    if (/^-\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: CODEBOOKS.numberMin });
      return z.NEVER;
    }
    if (!/^\d{1,7}$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: CODEBOOKS.priorityBrojRequired });
      return z.NEVER;
    }
    return Number(text);
  }),
});

export const CONTRACT_KINDS = ['contract', 'contractIzv', 'contractPro', 'contractNad'] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];

/** The group type a typed contract's groups must have (spec 2 §5). */
export const CONTRACT_GROUP_TYPE: Record<ContractKind, 'IZVODJAC' | 'PROJEKTANT' | 'NADZOR' | null> = {
  contract: null,
  contractIzv: 'IZVODJAC',
  contractPro: 'PROJEKTANT',
  contractNad: 'NADZOR',
};

const isoDate = z
  .string({ error: CLUSTERS.required })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: CLUSTERS.required })
  .refine((s) => !Number.isNaN(new Date(`${s}T00:00:00Z`).getTime()) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    error: CLUSTERS.required,
  });

/** Whole days, typed as a number or as digits; an empty value is missing, not 0. */
const days = z
  .union([z.number({ error: CLUSTERS.mustBeNumber }), z.string({ error: CLUSTERS.mustBeNumber })], { error: CLUSTERS.mustBeNumber })
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    if (!/^\d{1,5}$/.test(text) || Number(text) > 36_500) {
      ctx.addIssue({ code: 'custom', message: CLUSTERS.mustBeNumber });
      return z.NEVER;
    }
    return Number(text);
  });

/** The groups of a typed contract: ids; a wrong value is an invalid choice. */
const contractGroups = z
  .array(z.uuid({ error: CONTRACTS.invalidGroups }), { error: CONTRACTS.invalidGroups })
  .max(1000, { error: CONTRACTS.invalidGroups });

/** POST /api/{route}: broj only on create; grupe only for typed contracts (checked by kind on the server). */
export const contractCreateSchema = z.object({
  naziv: requiredText(),
  broj: requiredText(100),
  datumPocetka: isoDate,
  rokTrajanja: days,
  grupe: contractGroups.optional(),
});

/** The fields of the multipart edit (without the finish rule, so a form can extend them). */
export const contractEditFields = z.object({
  naziv: requiredText(),
  datumPocetka: isoDate,
  rokTrajanja: days,
  grupe: contractGroups.optional(),
  status: z.enum(['U toku', 'Završen']).optional(),
  datumZavrsetka: z.union([isoDate, z.literal(''), z.null()]).optional(),
});

/**
 * Spec 2 §4: 'Završen' together with a datumZavrsetka is finished. A contract marked finished needs its
 * end date, and the end is not before the start (it would colour a late contract green).
 */
export function contractFinishIssues(value: {
  datumPocetka?: string | null;
  status?: string | null;
  datumZavrsetka?: string | null;
}): { path: 'datumZavrsetka'; message: string }[] {
  if (value.status !== CONTRACTS.statusFinished) return [];
  const end = value.datumZavrsetka ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(end)) return [{ path: 'datumZavrsetka', message: CONTRACTS.finishDateRequired }];
  if (value.datumPocetka && /^\d{4}-\d{2}-\d{2}$/.test(value.datumPocetka) && end < value.datumPocetka) {
    return [{ path: 'datumZavrsetka', message: CONTRACTS.finishBeforeStart }];
  }
  return [];
}

/** Adds the finish rule's issues to a parse (zod superRefine). */
export function refineContractFinish(
  value: { datumPocetka?: string | null; status?: string | null; datumZavrsetka?: string | null },
  ctx: z.RefinementCtx,
): void {
  for (const issue of contractFinishIssues(value)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
}

/** The multipart edit POST /api/{route}/{route}/{id}: naziv, datumPocetka, rokTrajanja (and files). */
export const contractEditSchema = contractEditFields.superRefine(refineContractFinish);

export const linkLocationsSchema = z.object({ lokacije: z.array(id).min(1, { error: CLUSTERS.required }).max(1000) });
export const unlinkLocationSchema = z.object({ lokacija: id });

export const TOPIC_PRIORITIES = ['nizak', 'srednji', 'visok'] as const;
export const TOPIC_STATUSES = ['otvoren', 'zatvoren'] as const;

export const topicCreateSchema = z.object({
  locationId: id,
  odgovoran: id,
  opis: z.string().trim().max(5000).optional().default(''),
  rok: z.union([z.iso.datetime({ offset: true }), isoDate, z.literal(''), z.null()]).optional(),
  prioritet: z.enum(TOPIC_PRIORITIES).optional().default('srednji'),
});

export const topicEditSchema = z.union([
  z.object({ status: z.literal('zatvoren') }),
  z.object({
    odgovoran: id,
    opis: z.string().trim().max(5000).optional(),
    rok: z.union([z.iso.datetime({ offset: true }), isoDate, z.literal(''), z.null()]).optional(),
    prioritet: z.enum(TOPIC_PRIORITIES).optional(),
  }),
]);

export const topicCommentSchema = z.object({
  tekst: z.string({ error: 'Obavezno polje' }).trim().min(1, { error: 'Ne možete poslati praznu poruku.' }).max(5000),
  noviOdgovoran: z.union([id, z.literal(''), z.null()]).optional(),
});
