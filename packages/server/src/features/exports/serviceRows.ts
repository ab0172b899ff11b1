/**
 * Export rows that come from a list's own service (reports computed beside SQL, the small codebooks)
 * instead of a cursor: page by page of the service, so the file is the list as its screen pages it.
 */

/**
 * Starts `gen`: its first batch is read now, so a refusal (an unknown activity, a malformed filter)
 * answers before the file starts; the rest is read as the file is written.
 */
export async function primed(gen: AsyncGenerator<unknown[][]>): Promise<() => AsyncGenerator<unknown[][]>> {
  const first = await gen.next();
  return async function* () {
    if (first.done) return;
    yield first.value;
    yield* gen;
  };
}

/** Rows read page by page (`fetch(page, limit)`, 1-based) until a short page; each page is one batch. */
export async function* paged<T>(
  fetch: (page: number, limit: number) => Promise<T[]>,
  toRows: (item: T) => unknown[][],
  limit = 500,
): AsyncGenerator<unknown[][]> {
  for (let page = 1; ; page++) {
    const items = await fetch(page, limit);
    const rows = items.flatMap(toRows);
    if (rows.length > 0) yield rows;
    if (items.length < limit) return;
  }
}

/** A list already in memory, as batches of 1,000 rows. */
export async function* inBatches(rows: unknown[][], size = 1000): AsyncGenerator<unknown[][]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
