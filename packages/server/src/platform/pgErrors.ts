/** PostgreSQL errors a concurrent request can cause, turned into the client errors a check would give. */

/** The PostgreSQL error code behind a failed query (drizzle wraps the driver's error in `cause`). */
export function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** A foreign key declared ON DELETE RESTRICT raises this instead of 23503; it is handled as the same. */
export const RESTRICT_VIOLATION = '23001';

/**
 * Runs `fn`, turning the constraint violations a concurrent request can cause (a name taken, a row
 * removed meanwhile) into the client error the check before it would have given.
 */
export async function onConstraint<T>(fn: () => Promise<T>, map: Partial<Record<string, () => Error>>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code = pgCode(err) ?? '';
    const make = map[code] ?? (code === RESTRICT_VIOLATION ? map[FOREIGN_KEY_VIOLATION] : undefined);
    throw make ? make() : err;
  }
}
