#!/usr/bin/env node
// The application's icons (the web manifest's and the home screen's): PNGs drawn from the SVGs in
// packages/web/icons by the journeys' Chromium (scripts/chromium.mjs), written to public/icons. The PNGs are
// committed; run this again after changing an SVG: `node packages/web/scripts/icons.mjs`.
// - icon.svg: the rounded blue square with the white T of the favicon (purpose "any");
// - maskable.svg: the same drawn to the edges, the T inside the middle 80 % circle a launcher's mask keeps
//   (purpose "maskable"; also Apple's home-screen icon, which iOS rounds itself).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { resolveChromium } from '../../../scripts/chromium.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(web, 'public/icons');
const ICONS = [
  { svg: 'icon.svg', size: 192, name: 'icon-192.png' },
  { svg: 'icon.svg', size: 512, name: 'icon-512.png' },
  { svg: 'maskable.svg', size: 180, name: 'apple-touch-icon.png' },
  { svg: 'maskable.svg', size: 192, name: 'maskable-192.png' },
  { svg: 'maskable.svg', size: 512, name: 'maskable-512.png' },
];

await mkdir(out, { recursive: true });
const browser = await chromium.launch({ executablePath: (await resolveChromium()).path, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const svg = await readFile(path.join(web, 'icons', icon.svg), 'utf8');
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    const html = `<style>html,body{margin:0;background:transparent}svg{display:block;width:${icon.size}px;height:${icon.size}px}</style>${svg}`;
    await page.setContent(html);
    await page.screenshot({ path: path.join(out, icon.name), omitBackground: true });
    await page.close();
    console.log(`${icon.name} ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
