import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  A3_OUTCOMES,
  A20_TEST_TYPES,
  ACTIVITY_CATALOGUE,
  ACTIVITY_INSTRUCTIONS,
  ACTIVITY_STATUSES,
  asTyped,
  DEFAULT_GROUP_TYPES,
  KEEP,
  SCRIPTS,
  toScript,
} from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { CLUSTER_TEXTS } from './features/clusters/form.js';
import { TEXTS as EXPORT_TEXTS } from './features/exports/texts.js';
import { MAIL_TEXTS } from './features/mail/routes.js';
import { PRIORITY_TEXTS } from './features/priorities/service.js';
import { SETTLEMENT_TEXTS } from './features/settlements/service.js';
import { TYPE_TEXTS } from './features/types/service.js';
import { FILE_TEXTS } from './platform/files.js';
import { SHEET_TEXTS } from './platform/spreadsheetRows.js';

/**
 * Every text the server ships — the domain's message objects, the shipped names (catalogue, group types,
 * statuses) and the server's own tables — reads wholly in either script: after toScript, no letter of
 * the other script is left outside a typed value and the parts KEEP leaves as written (codes, addresses,
 * placeholders, file types); the typed values a text is given come out exactly as typed.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const messagesDir = path.resolve(here, '../../domain/src/messages');

/** The server's tables of texts, by the name each is exported under (a new one must be listed here). */
const SERVER_TABLES: Record<string, unknown> = {
  CLUSTER_TEXTS,
  TEXTS: EXPORT_TEXTS,
  MAIL_TEXTS,
  PRIORITY_TEXTS,
  SETTLEMENT_TEXTS,
  TYPE_TEXTS,
  FILE_TEXTS,
  SHEET_TEXTS,
};

/** A typed value in both scripts, with a letter Serbian does not use: it must come out as it went in. */
const TYPED_VALUE = 'Ђура Žika w';
const TYPED = asTyped(TYPED_VALUE);
const HELD = { openTopics: 1, documents: 2, startedActivities: 3, inventory: 4 };

const LATIN_LETTER = /\p{Script=Latin}/u;
const CYRILLIC_LETTER = /\p{Script=Cyrillic}/u;
const KEPT = new RegExp(KEEP.source, 'gu');

type Found = { path: string; text: string };

/** A text function called with typed values of the kinds its parameters take (text, a list, counts). */
function callWithTyped(fn: (...args: unknown[]) => unknown): unknown {
  const arity = Math.max(fn.length, 1);
  for (const arg of [TYPED, [TYPED, TYPED], HELD]) {
    try {
      return fn(...Array.from({ length: arity }, () => arg));
    } catch {
      // Another kind of argument.
    }
  }
  throw new Error(`cannot call ${fn.name}`);
}

function texts(value: unknown, at: string, out: Found[]): Found[] {
  if (typeof value === 'string') out.push({ path: at, text: value });
  else if (typeof value === 'function') texts(callWithTyped(value as (...args: unknown[]) => unknown), `${at}()`, out);
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) texts(v, `${at}[${i}]`, out);
  } else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) texts(v, `${at}.${k}`, out);
  return out;
}

async function domainMessageObjects(): Promise<Record<string, unknown>> {
  const objects: Record<string, unknown> = {};
  for (const file of readdirSync(messagesDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const module = (await import(path.join(messagesDir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) objects[name] = value;
    }
  }
  return objects;
}

function checkOneScript(found: Found[]): string[] {
  const wrong: string[] = [];
  for (const { path: at, text } of found) {
    for (const script of SCRIPTS) {
      const shown = toScript(text, script);
      if (text.includes(TYPED) && !shown.includes(TYPED_VALUE)) wrong.push(`${at} (${script}): the typed value changed: ${shown}`);
      const rest = shown.split(TYPED_VALUE).join(' ').replace(KEPT, ' ');
      const other = script === 'cyr' ? LATIN_LETTER : CYRILLIC_LETTER;
      if (other.test(rest)) wrong.push(`${at} (${script}): ${shown}`);
      if (/[\uFDD0-\uFDD2]/.test(shown)) wrong.push(`${at} (${script}): a mark is left: ${shown}`);
    }
  }
  return wrong;
}

describe('the texts the server ships', () => {
  it('the domain’s message objects read wholly in either script, typed values as typed', async () => {
    const objects = await domainMessageObjects();
    expect(Object.keys(objects)).toEqual(
      expect.arrayContaining(['ACCOUNT', 'ACTIVITIES', 'COMMON', 'IMPORTS', 'INVENTORY', 'SMTP', 'USERS']),
    );
    const found = Object.entries(objects).flatMap(([name, value]) => texts(value, name, []));
    expect(found.length).toBeGreaterThan(400);
    // The functions were called with typed values, and gave them back.
    expect(found.filter((f) => f.text.includes(TYPED)).length).toBeGreaterThan(20);
    expect(checkOneScript(found)).toEqual([]);
  });

  it('the shipped names (catalogue, statuses, A20 test types, A3 outcomes, instructions, group types) too', () => {
    const found = [
      ...texts(
        ACTIVITY_CATALOGUE.map((e) => e.naziv),
        'ACTIVITY_CATALOGUE',
        [],
      ),
      ...texts(ACTIVITY_STATUSES, 'ACTIVITY_STATUSES', []),
      ...texts(A20_TEST_TYPES, 'A20_TEST_TYPES', []),
      ...texts(A3_OUTCOMES, 'A3_OUTCOMES', []),
      ...texts(ACTIVITY_INSTRUCTIONS, 'ACTIVITY_INSTRUCTIONS', []),
      ...texts(
        DEFAULT_GROUP_TYPES.map((t) => [t.naziv, t.kratakNaziv]),
        'DEFAULT_GROUP_TYPES',
        [],
      ),
    ];
    expect(found.length).toBeGreaterThan(50);
    expect(checkOneScript(found)).toEqual([]);
  });

  it('the server’s own tables too, and every table the server exports is among them', () => {
    const found = Object.entries(SERVER_TABLES).flatMap(([name, value]) => texts(value, name, []));
    expect(checkOneScript(found)).toEqual([]);
    // A new table of texts (export const …TEXTS) anywhere in the server is listed above.
    const declared = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          for (const m of readFileSync(file, 'utf8').matchAll(/export const (\w*TEXTS)\b/g)) declared.add(m[1] as string);
        }
      }
    };
    walk(here);
    expect([...declared].sort()).toEqual(Object.keys(SERVER_TABLES).sort());
  });
});
