import { z } from 'zod';

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

/** Server pages are 1-based. Limits up to 50000 (group pickers). */
export const pageQuery = z.object({
  page: z.coerce.number({ error: 'Neispravan broj strane.' }).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number({ error: 'Neispravan broj redova.' }).int().min(1).max(50_000).default(10),
});
