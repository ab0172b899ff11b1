// Dropping a big table's indexes before a bulk load and building them after it (bench/generate.mjs).

/** Non-constraint indexes of a table, dropped before a bulk load; the returned statements rebuild them. */
export async function dropIndexes(db, table) {
  // The definition, and a statistics target an index column was given (0023's letter index: 300; the path
  // of the log's search follows its estimates), which CREATE INDEX alone would not bring back.
  const { rows } = await db.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def,
            coalesce((SELECT string_agg(format('ALTER INDEX %I ALTER COLUMN %s SET STATISTICS %s', i.relname, a.attnum, a.attstattarget), '; ')
                      FROM pg_attribute a WHERE a.attrelid = i.oid AND a.attstattarget > 0), '') AS stats
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)`,
    [table],
  );
  for (const r of rows) await db.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => (r.stats ? `${r.def}; ${r.stats}` : r.def));
}

/**
 * Creates the indexes `defs` (dropIndexes' answer) two at a time, on `db` and `second` (a second
 * connection, when given): an index build uses one core, and the machine has two. The trigram indexes
 * (the largest) go first, so the two connections finish close together.
 */
export async function createIndexes(db, second, defs) {
  const queue = [...defs].sort((a, b) => Number(b.includes(' gin ')) - Number(a.includes(' gin ')));
  const work = async (c) => {
    for (let def = queue.shift(); def; def = queue.shift()) await c.query(def);
  };
  await Promise.all([work(db), ...(second ? [work(second)] : [])]);
}
