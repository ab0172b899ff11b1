import { z } from 'zod';
import { COMMON } from '../messages/common.js';

/** A required, trimmed string with the spec's message for "missing" and a sane length cap. */
export function requiredText(message: string, max = 200, tooLong = 'Predugačak unos.') {
  return z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: tooLong });
}

export function email(required: string, invalid: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(254, { error: invalid })
    .pipe(z.email({ error: invalid }))
    .transform((e) => e.toLowerCase());
}

export const idParam = z.object({ id: z.uuid({ error: 'Није пронађено' }) });

/** Largest page a list serves (group pickers ask for 50000, spec 1 §9). */
export const MAX_LIMIT = 50_000;

/** A whole number from the query string, clamped into [min, max]: a huge or tiny value is not an error. */
const clamped = (message: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: message })
    .transform((n) => Math.min(max, Math.max(min, Math.trunc(n))))
    .default(fallback);

/** Server pages are 1-based; `limit` is clamped to 1..50000. */
export const pageQuery = z.object({
  page: clamped('Neispravan broj strane.', 1, 1_000_000, 1),
  limit: clamped('Neispravan broj redova.', 1, MAX_LIMIT, 10),
});
export type PageQuery = z.output<typeof pageQuery>;

/**
 * Zod's own messages are English; a schema gives the spec's text where the spec has one. For every other
 * failure (a body that is not an object, a number where a text belongs, an unknown option) the answer is
 * Serbian: the whole request is refused, or the field's value is. Installed once by the server and the
 * web (installSerbianValidationMessages).
 */
export function serbianIssueMessage(issue: { path?: PropertyKey[] | undefined }): string {
  return issue.path && issue.path.length > 0 ? COMMON.invalidValue : COMMON.badRequest;
}

export function installSerbianValidationMessages(): void {
  z.config({ customError: serbianIssueMessage });
}
