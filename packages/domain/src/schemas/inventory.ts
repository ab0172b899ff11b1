import { z } from 'zod';
import { cleanAmountInput, parseAmountText, parseImportedAmount } from '../amounts.js';
import { INVENTORY, INVENTORY_TIPOVI, INVENTORY_VALUTE } from '../messages/inventory.js';
import { roleIn } from '../roles.js';

/** Request schemas of the inventory calls (spec 3 §5, §7; docs/api/inventory.md). */

const text = (max = 200) =>
  z.string({ error: INVENTORY.required }).trim().min(1, { error: INVENTORY.required }).max(max, { error: INVENTORY.tooLong });
const optionalText = (max = 200) =>
  z
    .union([z.string().trim().max(max, { error: INVENTORY.tooLong }), z.null()], { error: INVENTORY.tooLong })
    .optional()
    .transform((v) => v ?? '');
const id = z.uuid({ error: INVENTORY.required });

export const inventoryIsoDate = z
  .string({ error: INVENTORY.required })
  .trim()
  .min(1, { error: INVENTORY.required })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: INVENTORY.invalidDate })
  .refine(
    (s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && s >= '1900-01-01' && s <= '2999-12-31';
    },
    { error: INVENTORY.invalidDate },
  );

/**
 * A non-negative amount: text by the typed rule of amounts.ts (digits and one separator, ',' or '.', at
 * most `decimals` decimals; `imported`: a spreadsheet cell, which may also spell '2.500,50'), or a number
 * (JSON, a spreadsheet's number cell) within `decimals`; below `max` (`positive`: above 0 too). '' and a
 * missing value are "required"; not a number 'Morate uneti broj'; too many decimals or too large
 * 'Unesite važeći broj'.
 */
export function amount(decimals = 2, max = 1e12, positive = false, imported = false) {
  return z
    .union([z.number({ error: INVENTORY.mustBeNumber }), z.string({ error: INVENTORY.mustBeNumber })], { error: INVENTORY.required })
    .transform((v, ctx) => {
      if (typeof v === 'string' && v.trim() === '') {
        ctx.addIssue({ code: 'custom', message: INVENTORY.required });
        return z.NEVER;
      }
      let n: number;
      if (typeof v === 'number') {
        // A spreadsheet's number cell may carry binary noise (12.300000000000001): within 1e-6 it is kept.
        if (!Number.isFinite(v) || v < 0) {
          ctx.addIssue({ code: 'custom', message: INVENTORY.mustBeNumber });
          return z.NEVER;
        }
        if (Math.abs(Math.round(v * 10 ** decimals) - v * 10 ** decimals) > 1e-6 * Math.max(1, v)) {
          ctx.addIssue({ code: 'custom', message: INVENTORY.invalidNumber });
          return z.NEVER;
        }
        n = Math.round(v * 10 ** decimals) / 10 ** decimals;
      } else {
        const read = (imported ? parseImportedAmount : parseAmountText)(v, decimals);
        if (read === null) {
          const typed = cleanAmountInput(v.trim(), '', decimals);
          const tooPrecise = typed.refused === 'decimals' || (typed.refused === null && /\d/.test(typed.value));
          ctx.addIssue({ code: 'custom', message: tooPrecise ? INVENTORY.invalidNumber : INVENTORY.mustBeNumber });
          return z.NEVER;
        }
        n = read;
      }
      if (n >= max) {
        ctx.addIssue({ code: 'custom', message: INVENTORY.invalidNumber });
        return z.NEVER;
      }
      if (positive && n <= 0) {
        ctx.addIssue({ code: 'custom', message: INVENTORY.quantityPositive });
        return z.NEVER;
      }
      return n;
    });
}

/** A whole number that may be left empty (null). */
const optionalWhole = z
  .union([z.null(), z.literal(''), z.number({ error: INVENTORY.mustBeNumber }), z.string({ error: INVENTORY.mustBeNumber })], {
    error: INVENTORY.mustBeNumber,
  })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const s = String(v).trim();
    if (!/^\d{1,6}$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: INVENTORY.invalidNumber });
      return z.NEVER;
    }
    return Number(s);
  });

export const inventoryTip = z.enum(INVENTORY_TIPOVI, { error: INVENTORY.invalidTip });
export const inventoryValuta = z.enum(INVENTORY_VALUTE, { error: INVENTORY.invalidValuta });

/**
 * POST /api/inv-type, PATCH /api/inv-type/{id} (spec 3 §5): naziv, cena, cenaRsd required; with RSD the
 * dinar price follows the price (the server stores cenaRsd = cena whatever was sent).
 */
export const invTypeSchema = z
  .object({
    naziv: text(200),
    kratakNaziv: optionalText(50),
    tip: inventoryTip,
    trajanjeGarancije: optionalWhole,
    cena: amount(2),
    valuta: inventoryValuta.default('RSD'),
    cenaRsd: z.union([amount(2), z.undefined()]).optional(),
    sifra: optionalText(50),
    redniBroj: optionalWhole,
    jedinica: optionalText(20).transform((v) => v || 'kom'),
  })
  .transform((v, ctx) => {
    const cenaRsd = v.valuta === 'RSD' ? v.cena : v.cenaRsd;
    if (cenaRsd === undefined) {
      ctx.addIssue({ code: 'custom', message: INVENTORY.required, path: ['cenaRsd'] });
      return z.NEVER;
    }
    return { ...v, cenaRsd };
  });
export type InvTypeBody = z.input<typeof invTypeSchema>;

export const invTypeQuery = z.object({ tip: inventoryTip.optional() });

/** POST /api/inventory (spec 3 §5: kolicina and cenaRsd required, the type chosen first). */
export const inventoryItemSchema = z.object({
  invType: id,
  lokacija: id,
  ugovor: z
    .union([id, z.null(), z.literal('')])
    .optional()
    .transform((v) => v || null),
  kolicina: amount(3, 1e9, true),
  cenaRsd: amount(2),
  datumPrimopredaje: inventoryIsoDate,
});
export type InventoryItemBody = z.input<typeof inventoryItemSchema>;

/** PATCH /api/inventory/{id}: the location stays; the rest may change. */
export const inventoryItemEditSchema = inventoryItemSchema.omit({ lokacija: true });
export type InventoryItemEditBody = z.input<typeof inventoryItemEditSchema>;

/** GET /api/inventory?lokacija&ugovor */
export const inventoryListQuery = z.object({
  lokacija: z.uuid({ error: INVENTORY.required }).optional(),
  ugovor: z.uuid({ error: INVENTORY.required }).optional(),
});

/** POST /api/contract with inventory: true (spec 3 §5: naziv, broj, datumPocetka required). */
export const inventoryContractSchema = z
  .object({
    inventory: z.literal(true),
    naziv: text(200),
    broj: text(100),
    datumPocetka: inventoryIsoDate,
    datumZavrsetka: z
      .union([inventoryIsoDate, z.literal(''), z.null()])
      .optional()
      .transform((v) => v || null),
  })
  .superRefine((v, ctx) => {
    if (v.datumZavrsetka && v.datumZavrsetka < v.datumPocetka) {
      ctx.addIssue({ code: 'custom', message: INVENTORY.endBeforeStart, path: ['datumZavrsetka'] });
    }
  });
export type InventoryContractBody = z.input<typeof inventoryContractSchema>;

/** PATCH /api/inventory/location/{id}: the school's e-mail ('' or null clears it). */
export const schoolEmailSchema = z.object({
  email: z
    .union(
      [
        z.literal(''),
        z.null(),
        z
          .string()
          .trim()
          .max(254, { error: INVENTORY.invalidEmail })
          .pipe(z.email({ error: INVENTORY.invalidEmail })),
      ],
      {
        error: INVENTORY.invalidEmail,
      },
    )
    .transform((v) => (v ? v.toLowerCase() : null)),
});

/**
 * POST /api/school-notification/{locationId} (spec 3 §7): email, and the lists the screen showed. The
 * server mails the list built from its own records; the lists sent are ignored.
 */
export const schoolNotificationSchema = z.object({
  email: z
    .string({ error: INVENTORY.emailRequired })
    .trim()
    .min(1, { error: INVENTORY.emailRequired })
    .max(254, { error: INVENTORY.invalidEmail })
    .pipe(z.email({ error: INVENTORY.invalidEmail }))
    .transform((e) => e.toLowerCase()),
  materijali: z.array(z.unknown()).max(10_000).optional(),
  oprema: z.array(z.unknown()).max(10_000).optional(),
  radovi: z.array(z.unknown()).max(10_000).optional(),
});
export type SchoolNotificationBody = z.input<typeof schoolNotificationSchema>;

/** PATCH /api/A13/{id} */
export const a13StatusSchema = z.object({ status: z.boolean({ error: INVENTORY.required }) });

/** The public link's token: printable, bounded. */
export const schoolTokenSchema = z.object({
  token: z
    .string({ error: INVENTORY.publicLinkInvalid })
    .min(10, { error: INVENTORY.publicLinkInvalid })
    .max(300, { error: INVENTORY.publicLinkInvalid }),
});

/** Reports: sumarno's filters (naziv: location name, opstina: municipality, tip). */
export const SUM_SORTS = ['naziv', 'datum'] as const;
export type SumSort = (typeof SUM_SORTS)[number];

/**
 * Who keeps the inventory (spec 3 §2.10, §6: the menu entry only for an employee whose group type is
 * Naručilac): the Admin, and a Zaposleni of a NARUCILAC group. Everyone else is refused (403).
 */
export function mayUseInventory(role: string | null | undefined, groupTypeCode: string | null | undefined): boolean {
  return roleIn(role, ['Admin']) || (roleIn(role, ['Zaposleni']) && groupTypeCode === 'NARUCILAC');
}
