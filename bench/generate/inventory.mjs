// Inventory of the generated database (bench/generate.mjs).
import { createIndexes, dropIndexes } from './indexes.mjs';

/**
 * Inventory (migration 0009): 60 codebook types, 100 inventory contracts (30 clusters each, like the
 * general ones) and `n` items spread over the clusters, only when the tables exist. Returns what it made,
 * or '' when there is nothing to fill.
 */
export async function generateInventory(db, n, log, second) {
  const exists = (await db.query(`SELECT to_regclass('inventory_items') IS NOT NULL AS ok`)).rows[0].ok;
  if (!exists) {
    log('  inventory: no inventory tables in this schema (migration 0009 not applied), skipped');
    return '';
  }
  await db.query(
    `INSERT INTO inventory_types (naziv, kratak_naziv, tip, trajanje_garancije, cena, valuta, cena_rsd, sifra, redni_broj, jedinica)
     SELECT (ARRAY['Optički kabl', 'Spojnica', 'Ormar', 'Razdelnik', 'Iskop rova', 'Polaganje cevi'])[1 + t % 6] || ' ' || t,
            'INV' || t, (ARRAY['Materijal', 'Oprema', 'Radovi'])[1 + t % 3], CASE WHEN t % 3 = 1 THEN 24 END,
            10 + t * 3.5, 'RSD', 10 + t * 3.5, 'S-' || lpad(t::text, 4, '0'), t, (ARRAY['m', 'kom', 'kom', 'kom', 'm', 'm'])[1 + t % 6]
     FROM generate_series(1, 60) t ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `INSERT INTO inventory_contracts (naziv, broj, broj_key, datum_pocetka)
     SELECT 'Ugovor o isporuci opreme ' || j, 'INV-' || j || '/2025', lower('INV-' || j || '/2025'), current_date - 300 + j
     FROM generate_series(1, 100) j ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `WITH k AS (SELECT id, substring(naziv FROM '(\\d+)$')::int AS j FROM inventory_contracts WHERE naziv LIKE 'Ugovor o isporuci opreme %')
     INSERT INTO inventory_contract_locations (contract_id, cluster_id)
     SELECT k.id, c.id FROM bench_clusters c JOIN k ON k.j = 1 + (c.n - 1) * 100 / (SELECT count(*) FROM bench_clusters) ON CONFLICT DO NOTHING`,
  );
  const indexes = await dropIndexes(db, 'inventory_items');
  await db.query(`CREATE TEMP TABLE bench_types AS SELECT id, row_number() OVER (ORDER BY sifra)::int AS r FROM inventory_types`);
  await db.query(
    `WITH nt AS (SELECT count(*)::int AS n FROM bench_types), nc AS (SELECT count(*)::int AS n FROM bench_clusters)
     INSERT INTO inventory_items (type_id, cluster_id, contract_id, kolicina, cena_rsd, datum_primopredaje, created_at)
     SELECT t.id, c.id, l.contract_id, 1 + (i * 37) % 500, 10 + (i * 13) % 9000, current_date - (i % 400), now() - i * interval '2 minutes'
     FROM generate_series(1, $1::int) i CROSS JOIN nt CROSS JOIN nc
     JOIN bench_types t ON t.r = 1 + i % nt.n
     JOIN bench_clusters c ON c.n = 1 + (i * 7) % nc.n
     LEFT JOIN LATERAL (SELECT contract_id FROM inventory_contract_locations x WHERE x.cluster_id = c.id LIMIT 1) l ON true`,
    [n],
  );
  await createIndexes(db, second, indexes);
  return `${n} inventory items (60 types, 100 inventory contracts)`;
}
