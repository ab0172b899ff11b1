// What bench/lighthouse.mjs measures and where (its LH_* settings), and the helpers every part uses.
import os from 'node:os';
import path from 'node:path';
import { resolveChromium } from '../../scripts/chromium.mjs';

export const RUNS = Number(process.env.LH_RUNS || 5);
export const WRITE = process.env.LH_WRITE !== '0';
// CHROME_PATH, else the journeys' Chromium (scripts/chromium.mjs: CHROMIUM_PATH, /usr/bin/chromium, @sparticuz/chromium).
export const CHROME = process.env.CHROME_PATH || (await resolveChromium()).path;
// LH_MODE=trace takes several builds (LH_DIST=.build/a,.build/b) and measures them in turns.
export const DISTS = process.env.LH_DIST ? process.env.LH_DIST.split(',').map((d) => path.resolve(d)) : [null];
export const DIST = DISTS[0];
export const SERVER_DIST = DIST ? path.join(DIST, 'server') : path.resolve('packages/server/dist');
export const WEB_DIST = DIST ? path.join(DIST, 'web') : path.resolve('packages/web/dist');
export const ADMIN = { email: 'ana.admin@mit.gov.rs', lozinka: 'Lozinka123' };
const ONLY = process.env.LH_PAGES?.split(',');
const ALL_PAGES = [
  { name: 'login (/)', path: '/', signedIn: false },
  { name: '/app/klasteri', path: '/app/klasteri', signedIn: true },
  { name: '/app/korisnici', path: '/app/korisnici', signedIn: true },
  { name: '/app/izvestaji', path: '/app/izvestaji', signedIn: true },
];
/** LH_PAGES=/app/klasteri,/ measures only those. */
export const PAGES = ONLY ? ALL_PAGES.filter((p) => ONLY.includes(p.path)) : ALL_PAGES;
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
