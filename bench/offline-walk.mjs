#!/usr/bin/env node
// A phone walk of the whole offline path (docs/decisions.md "Offline"), with pictures: the built app on a
// fresh, demo-seeded database (bench/lighthouse/server.mjs; BENCH_PORT names its port; the web build served
// from a copy, where a new version is deployed on the way), the journeys' Chromium at 390×844 with touch,
// the demo contractor on an A2 of a cluster of its own (A1 finished through the API, as
// e2e/offline-queue.spec.ts prepares it). Each step is checked as a journey would (a missing
// text fails the walk) and photographed into WALK_DIR (docs/offline-walk): the list of pictures and what
// each shows is in docs/decisions.md "Offline". Not a CI journey: it looks, the journeys assert.
// `npm run build` first; `node bench/offline-walk.mjs`.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, expect } from '@playwright/test';
import { resolveChromium } from '../scripts/chromium.mjs';
import { ADMIN, SERVER_DIST, WEB_DIST } from './lighthouse/config.mjs';
import { signIn, startServer } from './lighthouse/server.mjs';

const DIR = path.resolve(process.env.WALK_DIR || 'docs/offline-walk');
const CONTRACTOR = { email: 'stefan.markovic@optikagradnja.rs', lozinka: 'Lozinka123' };
const CLIENT = { email: 'nenad.stojanovic@mit.gov.rs', lozinka: 'Lozinka123' };
const TIMEOUT = 30_000;

/** A minimal valid PDF (one empty page) for A1's route documents. */
function minimalPdf(title) {
  const content = `BT /F1 12 Tf 72 770 Td (${title.replace(/[^\x20-\x7e]|[\\()]/g, '?')}) Tj ET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Blob([Buffer.from(out, 'latin1')], { type: 'application/pdf' });
}

/** The API as one user: JSON calls that must succeed. */
async function as(base, who) {
  const token = await signIn(base, who);
  const call = async (method, p, body) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { token, get: (p) => call('GET', p), post: (p, b) => call('POST', p, b), patch: (p, b) => call('PATCH', p, b) };
}

/** A cluster of its own under a demo contract the contractor sees, with A1 finished: A2 is the contractor's, under way. */
async function prepare(base) {
  const contractor = await as(base, CONTRACTOR);
  const client = await as(base, CLIENT);
  const admin = await as(base, ADMIN);
  const { locations } = await contractor.get('/api/location?page=1&limit=100');
  const model = locations.find((l) => l.ugovor);
  const { location } = await admin.get(`/api/location/${model._id}`);
  const created = await admin.post('/api/location', {
    naziv: 'Klaster Teren',
    odgovoran: location.odgovoran.map((g) => g._id),
    naselja: location.naselja.slice(0, 1).map((n) => n._id),
    usputnaNaselja: [],
  });
  const clusterId = created.location._id;
  await admin.patch(`/api/link/location-to-contract/${model.ugovor._id}`, { lokacije: [clusterId] });
  const steps = async () =>
    new Map((await contractor.get(`/api/location/${clusterId}`)).location.aktivnosti.map((a) => [a.kratakNaziv, a._id]));
  const a1id = (await steps()).get('A1');
  await client.post('/api/activity/activity-status', { status: 'U toku', activityId: a1id });
  const { activity: a1 } = await client.get(`/api/activity/${a1id}`);
  for (const n of a1.lokacija.naselja) {
    const form = new FormData();
    form.append('isRequiredFile', 'true');
    form.append('userInput', n._id);
    form.append('fajl1', minimalPdf(n.naziv), `Trasa ${n.naziv}.pdf`);
    await client.patch(`/api/activity/${a1.kratakNaziv}/${a1.lokacija._id}/${a1._id}/${a1.kontrolna}/${a1.version}/true`, form);
  }
  await client.post('/api/activity/activity-status', { status: 'Završena', activityId: a1id });
  const ids = await steps();
  return { contractor, a2id: ids.get('A2'), a3id: ids.get('A3') };
}

/** A camera's photo as a phone gives it: a 4000 × 3000 JPEG, drawn by the page's own canvas. */
async function cameraPhoto(page) {
  const base64 = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(4000, 3000);
    const context = canvas.getContext('2d');
    const gradient = context.createLinearGradient(0, 0, 4000, 3000);
    gradient.addColorStop(0, '#7a5c3a');
    gradient.addColorStop(1, '#417ab4');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 4000, 3000);
    for (let i = 0; i < 400; i++) {
      context.fillStyle = `hsl(${(i * 37) % 360} 40% 50%)`;
      context.fillRect((i * 97) % 4000, (i * 61) % 3000, 60, 40);
    }
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.95 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

const shots = [];
async function shot(page, name, what) {
  await page.waitForTimeout(400);
  const file = path.join(DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  shots.push({ name, what });
  console.log(`${name}.png  ${what}`);
}

/** The web build is served from a copy: the walk deploys a new version of it (a changed /sw.js) on the way. */
function copyOfWeb() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trasa-walk-web-'));
  cpSync(WEB_DIST, dir, { recursive: true });
  return dir;
}

/** A new version deployed: the worker's script changes (with its precompressed copies, which the server prefers). */
function deployNewWorker(web) {
  const script = `${readFileSync(path.join(web, 'sw.js'), 'utf8')}\n// the next version\n`;
  writeFileSync(path.join(web, 'sw.js'), script);
  writeFileSync(path.join(web, 'sw.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(web, 'sw.js.gz'), gzipSync(script));
}

mkdirSync(DIR, { recursive: true });
const web = copyOfWeb();
const { base, stop } = await startServer(SERVER_DIST, web);
const browser = await chromium.launch({
  executablePath: (await resolveChromium()).path,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const { contractor, a2id, a3id } = await prepare(base);
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    hasTouch: true,
    isMobile: true,
    locale: 'sr-RS',
    serviceWorkers: 'allow',
  });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  const bar = page.getByRole('banner');
  const heading = page.getByRole('heading', { level: 1, name: /^A2 - / });

  // 1. Online: the activity opened (the service worker installs, the device keeps the activity).
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), contractor.token);
  await page.goto(`/app/aktivnost/${a2id}`);
  await heading.waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page
    .getByTestId('file-name')
    .or(page.getByText('Нема документа'))
    .first()
    .waitFor()
    .catch(() => undefined);
  await shot(page, '01-online', 'the activity opened online: the top bar, A2 with its data and documents');
  const photo = await cameraPhoto(page);

  // 2. Offline, reloaded: from the service worker and the device, marked.
  await context.setOffline(true);
  await page.reload();
  await heading.waitFor();
  await expect(page.getByTestId('offline-note')).toHaveText(/^Ван мреже — подаци од /);
  await shot(page, '02-offline-reload', "reloaded without a network: 'Ван мреже — подаци од …' under the heading");

  // 3. An activity never opened on this device.
  await page.goto(`/app/aktivnost/${a3id}`);
  await expect(page.getByTestId('not-kept-offline')).toContainText('Није доступно ван мреже');
  await shot(page, '03-not-kept', "an activity never opened here: 'Није доступно ван мреже', why, and a retry");

  // 4. Data and a photo made offline: 'На чекању: 2' in the top bar.
  await page.goto(`/app/aktivnost/${a2id}`);
  await heading.waitFor();
  await page.getByLabel('Ревидирана дужина кластера').fill('1234');
  await expect(page.getByText('Сачувано на уређају, на чекању')).toBeVisible();
  await page.locator('input[type="file"][aria-label="Фотографиши: Додатни (необавезни) документи"]').setInputFiles({
    name: 'rov.jpg',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await page.getByRole('button', { name: 'Пошаљи документа' }).click();
  await expect(bar.getByRole('button', { name: 'На чекању: 2' })).toBeVisible();
  await expect(page.locator('.MuiSnackbar-root')).toHaveCount(0, { timeout: 15_000 });
  await page.getByLabel('Ревидирана дужина кластера').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -220));
  await shot(
    page,
    '04-queued-bar',
    "data and a photo kept on the device: 'На чекању: 2' in the top bar's own row, the data field as typed",
  );

  // 5. The activity's own list of what waits.
  const mine = page.getByRole('list', { name: 'Измене ове активности на чекању' });
  await mine.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -80));
  await shot(page, '05-queue-on-activity', 'the activity lists its waiting changes: the data and the photo, in the order made');

  // 6. Back online on a slow uplink: the queue's progress while the photo goes.
  await bar.getByRole('button', { name: 'На чекању: 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Измене на чекању' });
  await dialog.waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await context.setOffline(false);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 200, downloadThroughput: -1, uploadThroughput: 24 * 1024 });
  const progress = dialog.getByRole('progressbar');
  await progress.waitFor();
  await page.waitForFunction(() => {
    const bar = document.querySelector('[role="dialog"] [role="progressbar"]');
    const value = Number(bar?.getAttribute('aria-valuenow') ?? 0);
    return value >= 20 && value < 100;
  });
  await shot(page, '06-sending', 'reconnected: the list shows the one being sent and its progress');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(bar.getByRole('button', { name: /^На чекању/ })).toHaveCount(0, { timeout: 120_000 });
  await dialog
    .getByRole('button', { name: 'Затвори' })
    .click()
    .catch(() => undefined);

  // 7. A conflict: a comment made offline meets the activity finished meanwhile.
  await context.setOffline(true);
  const text = 'Trasa kod škole ide levom stranom puta, 40 m dalje od projektovane.';
  await page.getByRole('textbox', { name: 'Коментар' }).fill(text);
  await page.getByRole('button', { name: 'Пошаљи', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'На чекању: 1' })).toBeVisible();
  await contractor.patch(`/api/activity/${a2id}`, {
    podaci: [
      { key: 'Datum', naziv: 'Datum', vrednost: '2025-01-15' },
      { key: 'RevidiranaVrednost', naziv: 'Revidirana vrednost', vrednost: '150000' },
    ],
  });
  await contractor.post('/api/activity/activity-status', { status: 'Završena', activityId: a2id });
  await context.setOffline(false);
  await expect(bar.getByRole('button', { name: 'Није примењено: 1' })).toBeVisible();
  await expect(page.locator('.MuiSnackbar-root')).toHaveCount(0, { timeout: 15_000 });
  const kept = page.getByRole('list', { name: 'Измене ове активности на чекању' }).locator(':scope > li');
  await expect(kept.getByRole('button', { name: 'Копирај текст' })).toBeVisible();
  await kept.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -120));
  await shot(page, '07-conflict', "not applied: the server's reason, the text to select and 'Копирај текст'");
  await bar.getByRole('button', { name: 'Није примењено: 1' }).click();
  await page.getByRole('dialog', { name: 'Измене на чекању' }).waitFor();
  await shot(page, '08-conflict-list', "the top bar's list with the refused change, its reason and 'Уклони са списка'");
  await page.getByRole('dialog', { name: 'Измене на чекању' }).getByRole('button', { name: 'Затвори' }).click();

  // 9. A new version deployed meanwhile: it installs beside the running one and waits for the user.
  deployNewWorker(web);
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  await expect(page.getByText('Нова верзија је спремна')).toBeVisible({ timeout: 120_000 });
  await shot(page, '09-update', "'Нова верзија је спремна' with 'Освежи': the new version waits for the user");

  // 10. Signing out: asked first while a change is kept, then the device is empty.
  await page.getByRole('button', { name: 'Крај рада' }).click();
  const ask = page.getByRole('dialog', { name: 'Одјавити се?' });
  if (await ask.isVisible().catch(() => false)) {
    await shot(page, '10-sign-out', "'Крај рада' with a change kept: asked first, the device is cleared on yes");
    await ask.getByRole('button', { name: 'Одјави се и обриши' }).click();
  }
  await page.waitForURL((url) => url.pathname === '/');
  await page.locator('input[type="password"]').waitFor();
  await shot(page, '11-signed-out', 'signed out: the sign-in page, nothing of the user left on the device');
  await context.close();
} finally {
  await browser.close();
  await stop();
  rmSync(web, { recursive: true, force: true });
}
