import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { checkScreen } from './support/a11y';
import { ADMIN, apiToken, DEMO_PASSWORD } from './support/api';
import { deviceRecords, recordSyncRegistrations, serviceWorkerControls, syncRegistrations } from './support/device';
import { pdfFile } from './support/files';
import { signIn } from './support/ui';

/**
 * Field work without signal, on a phone (390 px): a contractor fills an activity's data and takes a photo
 * with the network off (a Background Sync registered for them); the changes wait on the device ('На
 * чекању' in the bar) across a reload made without a network — the app opens from its service worker and
 * the device's copy — and reach the server and its log in order when the network returns; with no page
 * of the app open, the service worker sends them itself on the browser's sync. A queued change that meets an activity
 * finished meanwhile is not applied: the bar and the page say why, in the server's words, and the text is
 * kept to copy until the user removes it.
 */

/** Demo accounts (packages/server/src/seed/demo.ts): the client's and a contractor's employees. */
const CLIENT = 'nenad.stojanovic@mit.gov.rs';
const CONTRACTOR = 'stefan.markovic@optikagradnja.rs';
/** Where the phone walk's pictures go (SHOTS_DIR), when asked for. */
const SHOTS = process.env.SHOTS_DIR;

type Activity = {
  _id: string;
  kratakNaziv: string;
  status: string;
  version: number;
  kontrolna: boolean;
  podaci: { key: string; vrednost: string }[];
  fajlovi: { _id: string; originalnoIme: string; deleted?: boolean }[];
  komentari: { komentar: string }[];
  lokacija: { _id: string; naselja: { _id: string; naziv: string }[] };
};

async function as(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const headers = { authorization: `Bearer ${await apiToken(request, email, password)}` };
  const ok = async (res: Awaited<ReturnType<APIRequestContext['get']>>, what: string) => {
    expect(res.ok(), `${what}: ${res.status()} ${await res.text()}`).toBeTruthy();
    return res;
  };
  return {
    headers,
    get: async <T>(path: string): Promise<T> => (await (await ok(await request.get(path, { headers }), path)).json()) as T,
    post: async (path: string, data: unknown) => ok(await request.post(path, { headers, data }), path),
    patch: async (path: string, data: unknown) => ok(await request.patch(path, { headers, data }), path),
    upload: async (a: Activity, name: string, userInput: string) =>
      ok(
        await request.patch(`/api/activity/${a.kratakNaziv}/${a.lokacija._id}/${a._id}/${a.kontrolna}/${a.version}/true`, {
          headers,
          multipart: { isRequiredFile: 'true', userInput, fajl1: pdfFile(name) },
        }),
        `upload ${name}`,
      ),
    bytes: async (path: string): Promise<Buffer> => Buffer.from(await (await ok(await request.get(path, { headers }), path)).body()),
  };
}

/** Width and height of a JPEG, from its first frame header (SOF0–SOF3). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) throw new Error('not a JPEG');
    const marker = bytes[i + 1] ?? 0;
    const length = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  throw new Error('no frame header');
}

/** A camera's photo as a phone gives it: a 4000 × 3000 JPEG, made by the page's own canvas. */
async function cameraPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(4000, 3000);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
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

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  // Notices gone and dialogs settled: the screen as the user reads it.
  await expect(page.locator('.MuiSnackbar-root')).toHaveCount(0, { timeout: 10_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });
}

const bar = (page: Page) => page.getByRole('banner');

test.describe
  .serial('work queued without signal', () => {
    let a2id = '';

    // The app installed (its service worker), as on the phone: the other journeys block it (playwright.config.ts).
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'allow' });

    test.beforeAll(async ({ request }) => {
      // A cluster of its own (a retry starts again on a new one) like a demo cluster under a contract the
      // contractor sees; the client starts and finishes A1 through the API, so A2 (the contractor's) is under way.
      const contractor = await as(request, CONTRACTOR);
      const client = await as(request, CLIENT);
      const admin = await as(request, ADMIN.email, ADMIN.password);
      type Listed = { _id: string; ugovor: { _id: string } | null };
      const { locations } = await contractor.get<{ locations: Listed[] }>('/api/location?page=1&limit=100');
      const model = locations.find((l) => l.ugovor);
      expect(model, 'a demo cluster under a contract that the contractor sees').toBeDefined();
      const { location } = await admin.get<{ location: { odgovoran: { _id: string }[]; naselja: { _id: string }[] } }>(
        `/api/location/${model?._id}`,
      );
      const created = await admin.post('/api/location', {
        naziv: `Klaster Teren ${Date.now().toString(36)}`,
        odgovoran: location.odgovoran.map((g) => g._id),
        naselja: location.naselja.slice(0, 1).map((n) => n._id),
        usputnaNaselja: [],
      });
      const clusterId = ((await created.json()) as { location: { _id: string } }).location._id;
      await admin.patch(`/api/link/location-to-contract/${model?.ugovor?._id}`, { lokacije: [clusterId] });
      const steps = async () =>
        new Map(
          (
            await contractor.get<{ location: { aktivnosti: { _id: string; kratakNaziv: string }[] } }>(`/api/location/${clusterId}`)
          ).location.aktivnosti.map((a) => [a.kratakNaziv, a._id]),
        );
      const a1id = (await steps()).get('A1') as string;
      await client.post('/api/activity/activity-status', { status: 'U toku', activityId: a1id });
      const { activity: a1 } = await client.get<{ activity: Activity }>(`/api/activity/${a1id}`);
      for (const n of a1.lokacija.naselja) await client.upload(a1, `Trasa ${n.naziv}.pdf`, n._id);
      await client.post('/api/activity/activity-status', { status: 'Završena', activityId: a1id });
      a2id = (await steps()).get('A2') as string;
      expect((await contractor.get<{ activity: Activity }>(`/api/activity/${a2id}`)).activity.status).toBe('U toku');
    });

    test('data and a photo made offline wait on the device across a reload and reach the server on reconnect', async ({
      page,
      context,
      request,
    }) => {
      await recordSyncRegistrations(context);
      await signIn(page, CONTRACTOR, DEMO_PASSWORD);
      await page.goto(`/app/aktivnost/${a2id}`);
      const heading = page.getByRole('heading', { level: 1, name: /^A2 - / });
      await expect(heading).toBeVisible();
      // Installed and controlling the page; the activity kept on the device.
      await serviceWorkerControls(page);
      await expect.poll(async () => (await deviceRecords(page)).answers).toBeGreaterThan(1);
      const photo = await cameraPhoto(page);

      await context.setOffline(true);
      const length = page.getByLabel('Ревидирана дужина кластера');
      await length.fill('1234');
      await expect(page.getByText('Сачувано на уређају, на чекању')).toBeVisible();
      await page.locator('input[type="file"][aria-label="Фотографиши: Додатни (необавезни) документи"]').setInputFiles({
        name: 'rov.jpg',
        mimeType: 'image/jpeg',
        buffer: photo,
      });
      await page.getByRole('button', { name: 'Пошаљи документа' }).click();
      await expect(bar(page).getByRole('button', { name: 'На чекању: 2' })).toBeVisible();
      // Chromium has Background Sync: the worker is asked to send them when the network returns.
      await expect.poll(() => syncRegistrations(page)).toContain('trasa-queue');
      expect((await deviceRecords(page)).session).toBe(1);
      // The page lists what waits for it, in the order made.
      const mine = page.getByRole('list', { name: 'Измене ове активности на чекању' }).locator(':scope > li');
      await expect(mine).toHaveCount(2);
      await expect(mine.nth(0)).toHaveAccessibleName(/^Подаци: A2 - /);
      await expect(mine.nth(1)).toHaveAccessibleName(/^Документа: A2 - /);
      await expect(mine.nth(1)).toContainText('rov.jpg');
      await mine.nth(0).scrollIntoViewIfNeeded();
      await shot(page, 'queue-page-390');

      await bar(page).getByRole('button', { name: 'На чекању: 2' }).click();
      const dialog = page.getByRole('dialog', { name: 'Измене на чекању' });
      await expect(dialog.getByText('Нема мреже: слање ће се наставити чим се мрежа врати.')).toBeVisible();
      await checkScreen(page);
      await shot(page, 'queue-390');
      await dialog.getByRole('button', { name: 'Затвори' }).click();

      // Reloaded without a network: the app opens from its service worker, the activity and the changes
      // from the device.
      await page.reload();
      await expect(heading).toBeVisible();
      await expect(page.getByTestId('offline-note')).toBeVisible();
      await expect(bar(page).getByRole('button', { name: 'На чекању: 2' })).toBeVisible();
      await expect(mine).toHaveCount(2);
      const contractor = await as(request, CONTRACTOR);
      const before = (await contractor.get<{ activity: Activity }>(`/api/activity/${a2id}`)).activity;
      expect(before.podaci.find((d) => d.key === 'RevidiranaDuzinaKlastera')).toBeUndefined();
      expect(before.fajlovi).toEqual([]);

      await context.setOffline(false);
      await expect(bar(page).getByRole('button', { name: /^На чекању/ })).toHaveCount(0);
      await expect(page.getByRole('list', { name: 'Документа', exact: true }).getByText('rov.jpg')).toBeVisible();

      const { activity } = await contractor.get<{ activity: Activity }>(`/api/activity/${a2id}`);
      expect(activity.podaci).toContainEqual(expect.objectContaining({ key: 'RevidiranaDuzinaKlastera', vrednost: '1234' }));
      const file = activity.fajlovi.find((f) => f.originalnoIme === 'rov.jpg');
      expect(file, 'the photo on the server').toBeDefined();
      // Shrunk on the phone before it was kept: 2048 px on its long edge.
      const stored = await contractor.bytes(`/api/files/activity/${activity.lokacija._id}/${a2id}/${file?._id}`);
      expect(jpegSize(stored)).toEqual({ width: 2048, height: 1536 });
      expect(stored.length).toBeLessThan(photo.length);

      // The log has both, as any change made online: the data first, then the document.
      const admin = await as(request, ADMIN.email, ADMIN.password);
      const { logs } = await admin.get<{ logs: { message: string }[] }>('/api/log?page=1&limit=50');
      // The log's sentences in the script the journeys read (Cyrillic), the typed names in them as typed.
      const messages = logs.map((l) => l.message).filter((m) => m.includes(CONTRACTOR) && m.includes('активност') && m.includes('A2'));
      const saved = messages.findIndex((m) => m.includes('сачувао податке (Ревидирана дужина кластера)'));
      const added = messages.findIndex((m) => m.includes('додао документе (rov.jpg)'));
      expect(saved, messages.join('\n')).toBeGreaterThanOrEqual(0);
      // Newest first: the document, sent second, comes before the data.
      expect(added, messages.join('\n')).toBeGreaterThanOrEqual(0);
      expect(added).toBeLessThan(saved);
    });

    test('with no page of the app open, the service worker sends what was kept (Background Sync)', async ({ page, context, request }) => {
      await signIn(page, CONTRACTOR, DEMO_PASSWORD);
      await page.goto(`/app/aktivnost/${a2id}`);
      await expect(page.getByRole('heading', { level: 1, name: /^A2 - / })).toBeVisible();
      await serviceWorkerControls(page);
      // The browser's own sync, dispatched through DevTools: the registration's id from the worker's events.
      const cdp = await context.newCDPSession(page);
      const registrations = new Map<string, string>();
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
        for (const r of list) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
      });
      await cdp.send('ServiceWorker.enable');
      const origin = new URL(page.url()).origin;
      await expect.poll(() => registrations.get(`${origin}/`)).toBeDefined();

      await context.setOffline(true);
      const text = `Poslato iz pozadine ${Date.now().toString(36)}`;
      await page.getByRole('textbox', { name: 'Коментар' }).fill(text);
      await page.getByRole('button', { name: 'Пошаљи', exact: true }).click();
      await expect(bar(page).getByRole('button', { name: 'На чекању: 1' })).toBeVisible();
      expect((await deviceRecords(page)).session).toBe(1);

      // The app closed (no page of its origin left), then the network back: the browser's sync wakes the worker.
      await page.goto('about:blank');
      await context.setOffline(false);
      await cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin,
        registrationId: registrations.get(`${origin}/`) ?? '',
        tag: 'trasa-queue',
        lastChance: false,
      });
      const contractor = await as(request, CONTRACTOR);
      // Applied exactly once, however many times it was sent (the change's Idempotency-Key).
      const onServer = async () =>
        (await contractor.get<{ activity: Activity }>(`/api/activity/${a2id}`)).activity.komentari.filter((k) => k.komentar === text)
          .length;
      await expect.poll(onServer).toBe(1);

      // Opened again: nothing waits, the worker's token is gone from the device.
      await page.goto(`/app/aktivnost/${a2id}`);
      await expect(page.getByRole('region', { name: 'Коментари' }).getByText(text)).toHaveCount(1);
      await expect(bar(page).getByRole('button', { name: /^На чекању/ })).toHaveCount(0);
      expect(await deviceRecords(page)).toMatchObject({ changes: 0, session: 0 });
      expect(await onServer()).toBe(1);
    });

    test('a queued change that meets an activity finished meanwhile shows why and keeps the text', async ({ page, context, request }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signIn(page, CONTRACTOR, DEMO_PASSWORD);
      await page.goto(`/app/aktivnost/${a2id}`);
      await expect(page.getByRole('heading', { level: 1, name: /^A2 - / })).toBeVisible();
      // The comments come with the page's later part: on a first visit the service worker does not yet
      // answer for this page, so that part is loaded before the network goes.
      await expect(page.getByRole('textbox', { name: 'Коментар' })).toBeVisible();

      await context.setOffline(true);
      const text = 'Trasa kod škole ide levom stranom puta, 40 m dalje od projektovane.';
      await page.getByRole('textbox', { name: 'Коментар' }).fill(text);
      await page.getByRole('button', { name: 'Пошаљи', exact: true }).click();
      await expect(bar(page).getByRole('button', { name: 'На чекању: 1' })).toBeVisible();

      // Meanwhile, elsewhere, the activity is finished.
      const contractor = await as(request, CONTRACTOR);
      await contractor.patch(`/api/activity/${a2id}`, {
        podaci: [
          { key: 'Datum', naziv: 'Datum', vrednost: '2025-01-15' },
          { key: 'RevidiranaVrednost', naziv: 'Revidirana vrednost', vrednost: '150000' },
        ],
      });
      await contractor.post('/api/activity/activity-status', { status: 'Završena', activityId: a2id });

      await context.setOffline(false);
      const refused = bar(page).getByRole('button', { name: 'Није примењено: 1' });
      await expect(refused).toBeVisible();
      const kept = page.getByRole('list', { name: 'Измене ове активности на чекању' }).locator(':scope > li');
      await expect(kept.getByRole('alert')).toHaveText('Није примењено: Активност је у међувремену завршена. Измена није примењена.');
      await expect(kept.getByRole('textbox', { name: 'Коментар' })).toHaveValue(text);
      await checkScreen(page);
      await kept.scrollIntoViewIfNeeded();
      await shot(page, 'conflict-390');
      await kept.getByRole('button', { name: 'Копирај текст' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
      const { activity } = await contractor.get<{ activity: Activity }>(`/api/activity/${a2id}`);
      expect(activity.komentari.map((k) => k.komentar)).not.toContain(text);

      // Kept across a reload, until the user removes it.
      await page.reload();
      await expect(refused).toBeVisible();
      await refused.click();
      const dialog = page.getByRole('dialog', { name: 'Измене на чекању' });
      await expect(dialog.getByRole('textbox', { name: 'Коментар' })).toHaveValue(text);
      await shot(page, 'conflict-dialog-390');
      await dialog.getByRole('button', { name: 'Уклони са списка' }).click();
      await page.getByRole('dialog', { name: 'Уклонити измену са уређаја?' }).getByRole('button', { name: 'Да' }).click();
      await expect(dialog.getByText('Нема измена на чекању.')).toBeVisible();
      await dialog.getByRole('button', { name: 'Затвори' }).click();
      await expect(refused).toHaveCount(0);

      // Signing out (offline still) with a change waiting asks first, then clears the device.
      await context.setOffline(true);
      await page.getByRole('textbox', { name: 'Коментар' }).fill('Nije poslato.');
      await page.getByRole('button', { name: 'Пошаљи', exact: true }).click();
      await expect(bar(page).getByRole('button', { name: 'На чекању: 1' })).toBeVisible();
      await page.getByRole('button', { name: 'Крај рада' }).click();
      await page.getByRole('dialog', { name: 'Одјавити се?' }).getByRole('button', { name: 'Одјави се и обриши' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect.poll(() => deviceRecords(page)).toEqual({ answers: 0, changes: 0, session: 0 });
      expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toEqual(['trasa-offline']);
    });
  });
