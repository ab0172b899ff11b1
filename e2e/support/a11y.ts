import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/**
 * axe-core in the journeys (issue 13 item 4): a screen or dialog fails its journey on any serious or
 * critical violation of WCAG 2.1 A/AA. The helpers in this folder call checkScreen when a journey lands
 * on a screen or works in a dialog, once per screen and open dialog (per user and width, across the run), so
 * every screen and dialog the journeys open is checked.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe run in the page itself (AxeBuilder's legacy mode): by default each check opened a blank tab, loaded
 * axe-core into it as well and gathered the results there, which is for cross-origin frames (the app has
 * no frames) and cost more CPU than the check; the rules and results are the same. axe-core (half a
 * megabyte of script) is sent to a document once: it stays loaded while the app moves between screens.
 */
async function runAxe(page: Page): ReturnType<AxeBuilder['analyze']> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object').catch(() => false);
  if (loaded) {
    try {
      return await new AxeBuilder({ page, axeSource: ';' }).withTags(TAGS).setLegacyMode().analyze();
    } catch {
      // A new document since the look: axe-core is loaded into it below.
    }
  }
  return new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze();
}

/**
 * Screens already checked in this run (the journeys share one worker): keyed by who is signed in, phone or
 * desktop width, the path and the open dialogs. Another journey landing on the same screen as the same user
 * at the same width does not pay for axe again.
 */
const checked = new Set<string>();

/** Who is signed in (the token's subject) and whether the page is phone-sized: part of a screen's key. */
async function viewerOf(page: Page): Promise<string> {
  const who = await page
    .evaluate(() => {
      const token = localStorage.getItem('token');
      try {
        return token ? String(JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))).sub) : 'anon';
      } catch {
        return 'anon';
      }
    })
    .catch(() => 'anon');
  const width = page.viewportSize()?.width ?? 1280;
  return `${who} ${width < 600 ? 'phone' : 'desktop'}`;
}

/** What is on the page now: its path and the names of its open dialogs. */
async function stateOf(page: Page): Promise<string> {
  const dialogs = await page
    .locator('[role="dialog"], [role="alertdialog"]')
    .evaluateAll((els) =>
      els.map((el) => {
        const id = el.getAttribute('aria-labelledby');
        return (id && document.getElementById(id)?.textContent) || el.getAttribute('aria-label') || '?';
      }),
    )
    .catch(() => [] as string[]);
  return `${new URL(page.url()).pathname} ${dialogs.join(' / ')}`.trim();
}

/** Waits for loaders to finish: axe then sees the screen as the user does. */
async function settle(page: Page): Promise<void> {
  await expect(page.getByRole('progressbar'))
    .toHaveCount(0, { timeout: 15_000 })
    .catch(() => undefined);
  // Transitions (dialogs, drawers fading in) end within MUI's 225 ms.
  await page.waitForTimeout(300);
}

/** Fails on serious or critical axe violations of the page as it is now. */
export async function expectAccessible(page: Page, what?: string): Promise<void> {
  await settle(page);
  let results = await runAxe(page);
  // A notice fading in or out is measured at part opacity (its contrast then reads too low): when only
  // notices are at fault, wait for their transitions to end and look again, once.
  const inNotice = (target: unknown[]) => String(target.join(' ')).includes('MuiAlert');
  const serious = (v: (typeof results.violations)[number]) => v.impact === 'serious' || v.impact === 'critical';
  if (results.violations.some((v) => serious(v) && v.nodes.every((n) => inNotice(n.target)))) {
    await page
      .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForTimeout(500);
    results = await runAxe(page);
  }
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
  expect(bad, `axe: ${what ?? (await stateOf(page))}`).toEqual([]);
}

/** expectAccessible once per screen and set of open dialogs in a page's life (the journeys' helpers call it). */
export async function checkScreen(page: Page): Promise<void> {
  if (process.env.E2E_AXE === '0') return;
  // A screen and set of dialogs checked before costs nothing: no waiting for it to settle (the helpers call
  // this at every step, and the wait was a large part of the journeys' time).
  const viewer = await viewerOf(page);
  if (checked.has(`${viewer} ${await stateOf(page)}`)) return;
  await settle(page);
  const state = await stateOf(page);
  const key = `${viewer} ${state}`;
  if (checked.has(key)) return;
  checked.add(key);
  // The check's own time does not count against the journey's (axe takes seconds on a busy machine).
  const info = test.info();
  info.setTimeout(info.timeout + 20_000);
  await expectAccessible(page, state);
}
