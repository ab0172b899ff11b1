// Which requests the suite makes (bench/suite.mjs, bench/suite/ab.mjs): the chosen cases and roles, the
// values their URLs need (a role's id, a cluster, the snapshot days) and the pages of each (1 and a deep one).
import { CASES } from './cases.mjs';
import { headersFor, wireGet } from './measure.mjs';
import { totalOf } from './run.mjs';

/**
 * The cases and roles chosen: `filters` (lower-case words; a case runs when its name contains one, or is
 * one written with a leading `=`: `=clusters` is the case `clusters` alone; all when none) and `roles`
 * (only those roles' rows, all when none).
 */
export function chosen(filters, roles) {
  const out = [];
  const matches = (name, f) => (f.startsWith('=') ? name === f.slice(1) : name.includes(f));
  for (const c of CASES) {
    if (filters.length && !filters.some((f) => matches(c.name.toLowerCase(), f))) continue;
    for (const role of c.roles) if (!roles.length || roles.includes(role)) out.push({ c, role });
  }
  return out;
}

/**
 * The values the cases' URLs take (`extra`): the built-in Zaposleni role, a location with inventory
 * items, a cluster the employee sees and, when a report comparison is chosen, the two days of snapshots
 * (backfilled as the Admin: `POST /api/report/backfill-snapshots?days=2`, as bench/reports.mjs does).
 */
export async function extrasOf(base, db, tokens, list) {
  const extra = {
    staffRole: (await db.query("SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin")).rows[0].id,
    // A location with inventory items ('' without them: those cases answer 400/404 and are skipped).
    inventoryLocation: await db.query('SELECT cluster_id AS id FROM inventory_items ORDER BY cluster_id LIMIT 1').then(
      (r) => r.rows[0]?.id ?? '',
      () => '',
    ),
  };
  // A cluster the employee sees (firm 1's: the first of their clusters list), for the calls about one cluster.
  extra.employeeCluster = await fetch(`${base}/api/location?page=1&limit=1`, { headers: { authorization: `Bearer ${tokens.employee}` } })
    .then((r) => r.json())
    .then((body) => body.locations?.[0]?._id ?? '');
  if (list.some(({ c }) => c.name.startsWith('report compare'))) {
    const res = await fetch(`${base}/api/report/backfill-snapshots?days=2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    const days = res.ok ? ((await res.json()).results ?? []).map((r) => r.date) : [];
    [extra.today, extra.yesterday] = days;
    console.log(`snapshots of ${days.join(', ') || 'no day'} stored (backfill ${res.status})`);
  }
  return extra;
}

/**
 * The pages of a case as `role`: page 1, and for a case with deep pages page 2,500 (of 10 rows) or the
 * last when there are fewer; `null` (with the reason printed) when page 1 does not answer 200.
 * Each: `{ label: '1' | 'deep', page, url, deep }`.
 */
export async function pagesOf(base, c, role, extra, tokens) {
  const get = (url) => wireGet(base, url, headersFor(tokens[role]));
  const first = await get(c.url(1, extra));
  if (first.status !== 200) {
    console.log(`${c.name} as ${role}: ${first.status} ${first.text.slice(0, 120)} — skipped`);
    return null;
  }
  const pages = [1];
  if (c.deep) {
    const firstBody = JSON.parse(first.text);
    const total = totalOf(firstBody);
    let last = total ? Math.ceil(total / 10) : 0;
    // A total estimated on page 1 (totalExact: false; the log's frequent search) may point past the
    // last page: the deep page asked tells the exact total, and the last page is that one's.
    if (last > 1 && firstBody.totalExact === false) {
      const deepAnswer = await get(c.url(Math.min(2500, last), extra));
      const exact = deepAnswer.status === 200 ? JSON.parse(deepAnswer.text) : null;
      if (exact?.totalExact && totalOf(exact)) last = Math.ceil(totalOf(exact) / 10);
    }
    if (last > 1) pages.push(Math.min(2500, last));
  }
  return pages.map((page, i) => ({ label: i ? 'deep' : '1', page, url: c.url(page, extra), deep: i > 0 }));
}
