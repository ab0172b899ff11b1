/**
 * The script switch's texts (issue 13 item 10): the web's texts and the domain's message objects read in
 * the chosen script, what is compared or sent stays as written, and no module of the web reads a message
 * object past the scripted view (the codemod's check).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as domain from '@trasa/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_TEXTS } from '../src/components/tableTexts';
import { REPORT_LABELS } from '../src/features/reports/labels';
import { ACCOUNT, ACTIVITIES, CLUSTERS, COMMON, CONTRACTS, dataLabel, INVENTORY, menuFor, USERS } from '../src/messages';
import { getScript, inScript, setScript, toScript } from '../src/script';
import { scripted, unscripted } from '../src/scripted';
import { UI } from '../src/texts';

afterEach(() => setScript('cyr'));

describe('texts in the chosen script', () => {
  it('reads the same label in Cyrillic and in Latin', () => {
    expect(getScript()).toBe('cyr');
    expect(UI.myAccountTitle).toBe('Мој налог');
    expect(USERS.groupCreated).toBe(toScript(domain.USERS.groupCreated, 'cyr'));
    expect(ACCOUNT.wrongPassword).toBe('Погрешна лозинка');
    setScript('lat');
    expect(UI.myAccountTitle).toBe('Moj nalog');
    expect(UI.cancel).toBe('Odustani');
    expect(ACCOUNT.wrongPassword).toBe('Pogrešna lozinka');
    expect(CLUSTERS.required).toBe('Polje je obavezno');
  });

  it('keeps codes, addresses, file types and placeholders as written', () => {
    expect(toScript('Aktivnost A5.1 je završena', 'cyr')).toBe('Активност A5.1 је завршена');
    expect(toScript('Izvezi u xlsx ili PDF', 'cyr')).toBe('Извези у xlsx или PDF');
    expect(toScript('Pošaljite na pera@primer.rs', 'cyr')).toBe('Пошаљите на pera@primer.rs');
    expect(toScript('Filtriraj po {column}', 'cyr')).toBe('Филтрирај по {column}');
    expect(toScript('Dozvoljeni formati: .pdf, .doc, .docx', 'cyr')).toBe('Дозвољени формати: .pdf, .doc, .docx');
    expect(toScript('Џеп Љубав ЊЕГОШ', 'lat')).toBe('Džep Ljubav NJEGOŠ');
  });

  it('shows the texts the specs word in English in Serbian, in the current script; the names as given', () => {
    setScript('cyr');
    expect(INVENTORY.locationsTitle('Škole')).toBe('Локације на уговору - Škole');
    expect(ACCOUNT.noToken).toBe('Сервер није вратио токен пријаве');
    expect(COMMON.networkUnreachable).toBe('Грешка мреже: сервер није доступан или је захтев блокиран');
    expect(INVENTORY.importTooLarge).toBe('Документ не сме бити већи од 10 мегабајта.');
    setScript('lat');
    expect(INVENTORY.locationsTitle('Škole')).toBe('Lokacije na ugovoru - Škole');
    expect(COMMON.networkError).toBe('Greška mreže ili servera');
    // The backfill's statuses ('created' / 'updated' in the API) on screen.
    expect([REPORT_LABELS.snapshotStatus.created, REPORT_LABELS.snapshotStatus.updated]).toEqual(['napravljen', 'ažuriran']);
  });

  it('leaves keys and compared values untouched', () => {
    setScript('cyr');
    expect(ACCOUNT.shortPasswordServerPhrase).toBe(domain.ACCOUNT.shortPasswordServerPhrase);
    expect(CONTRACTS.statusFinished).toBe('Završen');
    expect(INVENTORY.sortNaziv).toBe('naziv');
    expect(unscripted(ACCOUNT).inactiveUser).toBe(domain.ACCOUNT.inactiveUser);
    expect(TABLE_TEXTS.language).toBe('sr-Cyrl-RS');
    setScript('lat');
    const menu = menuFor('Admin');
    const original = domain.menuFor('Admin');
    expect(menu.map((m) => [m.key, m.path, m.icon])).toEqual(original.map((m) => [m.key, m.path, m.icon]));
    expect(menu[0]?.label).toBe(inScript(original[0]?.label ?? ''));
    expect(menu.every((m) => !/[\u0400-\u04FF]/.test(m.label))).toBe(true);
  });

  it('converts the text around what a text function is given, not the given names', () => {
    const texts = scripted({ deleted: (naziv: string) => `Кластер ${naziv} је обрисан`, count: (n: number) => `Укупно: ${n}` });
    setScript('lat');
    expect(texts.deleted('Ниш исток')).toBe('Klaster Ниш исток je obrisan');
    expect(texts.count(3)).toBe('Ukupno: 3');
    expect(ACTIVITIES.filesNeeded(2)).toBe(toScript(domain.ACTIVITIES.filesNeeded(2), 'lat'));
    expect(dataLabel('A2', domain.DATA_KEYS.date)).toBe('Datum');
    setScript('cyr');
    expect(dataLabel('A2', domain.DATA_KEYS.date)).toBe('Датум');
  });

  it('reads nested objects, arrays and spreads in the current script', () => {
    setScript('lat');
    const [first] = INVENTORY.tabs;
    expect(first).toBe(toScript(domain.INVENTORY.tabs[0] ?? '', 'lat'));
    expect(INVENTORY.tabs.map((t) => t).join(' ')).not.toMatch(/[\u0400-\u04FF]/);
    expect({ ...TABLE_TEXTS }.rowsPerPage).not.toMatch(/[\u0400-\u04FF]/);
    expect(Object.values(UI).some((t) => /[\u0400-\u04FF]/.test(String(t)))).toBe(false);
  });
});

describe('the codemod', () => {
  it('finds no module that imports a message object from @trasa/domain', () => {
    const codemod = fileURLToPath(new URL('./use-scripted-messages.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [codemod, '--check'], { encoding: 'utf8' })).not.toThrow();
  });
});
