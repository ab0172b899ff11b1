// What bench/lighthouse.mjs measures and where (its LH_* settings), and the helpers every part uses.
import os from 'node:os';
import path from 'node:path';
import { resolveChromium } from '../../scripts/chromium.mjs';

export const RUNS = Number(process.env.LH_RUNS || 5);
// CHROME_PATH, else the journeys' Chromium (scripts/chromium.mjs: CHROMIUM_PATH, /usr/bin/chromium, @sparticuz/chromium).
export const CHROME = process.env.CHROME_PATH || (await resolveChromium()).path;
// LH_MODE=trace takes several builds (LH_DIST=.build/a,.build/b) and measures them in turns.
export const DISTS = process.env.LH_DIST ? process.env.LH_DIST.split(',').map((d) => path.resolve(d)) : [null];
export const DIST = DISTS[0];
export const SERVER_DIST = DIST ? path.join(DIST, 'server') : path.resolve('packages/server/dist');
export const WEB_DIST = DIST ? path.join(DIST, 'web') : path.resolve('packages/web/dist');
export const ADMIN = { email: 'ana.admin@mit.gov.rs', lozinka: 'Lozinka123' };
/** A demo Zaposleni whose team has notifications (the demo seed's late activity among them). */
export const EMPLOYEE = { email: 'jovana.kostic@optikagradnja.rs', lozinka: 'Lozinka123' };
const ONLY = process.env.LH_PAGES?.split(',');
/**
 * Every screen of the Admin's menu (packages/domain/src/menu.ts, in its order), the Rukovodilac's roles, a
 * cluster and an activity (their ids read from the demo seed: `:cluster`, `:activity`), and an Employee's
 * notifications and clusters. `as` names who is signed in (the Admin unless said).
 */
const ALL_PAGES = [
  { name: 'login (/)', path: '/', signedIn: false },
  ...[
    '/app/aktivnosti-u-toku',
    '/app/teme',
    '/app/korisnici',
    '/app/klasteri',
    '/app/grupe',
    '/app/ugovori',
    '/app/inventar',
    '/app/izvestaji',
    '/app/ijo',
    '/app/sifrarnici',
    '/app/emailconfig',
    '/app/logovi',
    '/app/moj-nalog',
    '/app/komentari',
    '/app/role',
    '/app/klaster/:cluster',
    '/app/aktivnost/:activity',
  ].map((p) => ({ name: p, path: p, signedIn: true, as: 'admin' })),
  { name: '/app (notifications)', path: '/app', signedIn: true, as: 'employee' },
  { name: '/app/klasteri-user', path: '/app/klasteri-user', signedIn: true, as: 'employee' },
];
/** LH_PAGES=/app/klasteri,/ measures only those (by path as listed above, or by name). */
/** The table goes into docs/performance.md when every page was measured (LH_WRITE=1 / 0 decides otherwise). */
export const WRITE = process.env.LH_WRITE ? process.env.LH_WRITE !== '0' : !ONLY;
export const PAGES = ONLY ? ALL_PAGES.filter((p) => ONLY.includes(p.path) || ONLY.includes(p.name)) : ALL_PAGES;
/** LH_FIRST_ROW=0: no runs under applied throttling (the first-row mark's time is not measured). */
export const FIRST_ROW = process.env.LH_FIRST_ROW !== '0';
/** The user timing the app sets when the screen's real content has painted (packages/web/src/components/firstContent.ts). */
export const FIRST_ROW_MARK = 'trasa:first-row';
/** Issue 40's targets per screen: performance ≥ 90, CLS ≤ 0.1, the first real row within 3.5 s. */
export const TARGETS = { performance: 90, cls: 0.1, firstRowMs: 3500 };
export const DOC = 'docs/performance.md';
export const START = '<!-- lighthouse:start -->';
export const END = '<!-- lighthouse:end -->';

export const MODE = process.env.LH_MODE || 'lighthouse';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
