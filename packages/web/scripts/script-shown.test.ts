/**
 * One script at a time, what the web shows (issue 13 item 10): the public pages' own switch and the spec's
 * constants the server stores (statuses, responsible parties, 'klizno', inventory kinds) read in the chosen
 * script, while the values themselves stay as stored. The public page is rendered as the browser would
 * first paint it (react-dom/server: no DOM in these tests); clicking the switch is the journey's part
 * (e2e/script.spec.ts).
 */
import { FINISHED, IN_PROGRESS, INVENTORY_TIPOVI, KLIZNO, NOT_STARTED, PAYERS } from '@trasa/domain';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { activityStatusLabel, partiesLabel } from '../src/features/activities/model';
import { ForgotPasswordPage, LoginPage } from '../src/public/PublicPages';
import { inScript, SCRIPT_NAMES, setScript } from '../src/script';

afterEach(() => setScript('cyr'));

function render(page: () => ReturnType<typeof createElement> | null): string {
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(page)));
}

/** The pressed button of the page's switch, by its text. */
function pressed(html: string): string | undefined {
  return /<button[^>]*aria-pressed="true"[^>]*>([^<]*)<\/button>/.exec(html)?.[1];
}

describe('the public pages', () => {
  it('show a Ћирилица / Latinica switch, the chosen script pressed', () => {
    const html = render(LoginPage);
    expect(html).toContain('aria-label="Писмо"');
    expect(html).toContain(`>${SCRIPT_NAMES.cyr}</button>`);
    expect(html).toContain(`>${SCRIPT_NAMES.lat}</button>`);
    expect(pressed(html)).toBe('Ћирилица');
  });

  it('read in Latin once the switch chose Latinica, the names of the switch as they are', () => {
    const cyrillic = render(LoginPage);
    expect(cyrillic).toContain('Пријава');
    expect(cyrillic).toContain('Пријави се');
    setScript('lat');
    const latin = render(LoginPage);
    expect(latin).toContain('Prijava');
    expect(latin).toContain('Prijavi se');
    expect(latin).toContain('aria-label="Pismo"');
    expect(pressed(latin)).toBe('Latinica');
    // Nothing of the page's own is left in Cyrillic but the switch's own name of that script.
    expect(latin.replace(`>${SCRIPT_NAMES.cyr}<`, '><')).not.toMatch(/[\u0400-\u04FF]/);
    expect(render(ForgotPasswordPage)).not.toMatch(/Заборављена|Пошаљи/);
  });
});

describe("the spec's constants the server stores", () => {
  it('show in the chosen script, the stored value unchanged', () => {
    expect(activityStatusLabel(IN_PROGRESS)).toBe('У току');
    expect(partiesLabel(['NARUCILAC', 'IZVODJAC'])).toBe('Наручилац, Извођач');
    setScript('lat');
    expect(activityStatusLabel(NOT_STARTED)).toBe('Nije započeta');
    expect(activityStatusLabel(FINISHED)).toBe('Završena');
    expect(partiesLabel(['NARUCILAC', 'AUTOMATSKI'])).toBe('Naručilac, Automatski');
    expect(inScript(KLIZNO)).toBe('klizno');
    expect(INVENTORY_TIPOVI.map(inScript)).toEqual(['Materijal', 'Oprema', 'Radovi']);
    setScript('cyr');
    expect(inScript(KLIZNO)).toBe('клизно');
    expect(INVENTORY_TIPOVI.map(inScript)).toEqual(['Материјал', 'Опрема', 'Радови']);
    expect(PAYERS.map(inScript)).toEqual(['Извођач', 'Наручилац']);
    // What is sent stays the stored value.
    expect(INVENTORY_TIPOVI).toEqual(['Materijal', 'Oprema', 'Radovi']);
  });
});
