import { z } from 'zod';
import { KLIZNO, ROK_VALUES, type Rok } from '../activities/catalogue.js';
import { ACTIVITIES } from '../messages/activities.js';
import { CATALOGUE } from '../messages/catalogue.js';
import { requiredText } from './common.js';

/** Whether a value is an allowed deadline: 5, 7, 8, 10, 15, 28 or 30 days, or 'klizno' (spec 3 §9). */
export function isRok(value: unknown): value is Rok {
  return value === KLIZNO || (typeof value === 'number' && (ROK_VALUES as readonly number[]).includes(value));
}

/** A deadline as the catalogue form sends it: one of ROK_VALUES (a number, or its digits), or 'klizno'. */
export const rokSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,3}$/.test(v.trim()) ? Number(v.trim()) : v),
  z.custom<Rok>(isRok, { error: ACTIVITIES.invalidRok }),
);

/**
 * PATCH /api/activity/catalogue/:code (Admin): what may change in a catalogue entry. Every field is
 * optional (left out: unchanged); any other field (code, odgovoran, flow, …) is refused.
 */
export const catalogueEditSchema = z.strictObject(
  {
    naziv: requiredText(ACTIVITIES.required, 200).optional(),
    rok: rokSchema.optional(),
    uputstvo: z.string().max(10_000).optional(),
    dokumenta: z.string().trim().max(2_000).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? CATALOGUE.fixedFields : undefined) },
);
export type CatalogueEdit = z.output<typeof catalogueEditSchema>;
