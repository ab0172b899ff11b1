/**
 * zod's Serbian messages are installed by components/validation.ts as it loads, no longer by FullApp (issue
 * 13 item 3: zod and the domain's schemas out of the shell's first load). So every module that validates
 * with zod must load it: the forms take zodResolver from it, a screen that checks a value with a schema
 * itself imports it. This fails for a module that would validate before the messages are installed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_LIMIT } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { ALL_ROWS_LIMIT } from '../src/components/tableTypes';

const SRC = path.resolve(import.meta.dirname, '../src');
const SETUP = path.join(SRC, 'components/validation.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Whether `file` imports components/validation (by a relative path). */
function importsSetup(file: string, text: string): boolean {
  return [...text.matchAll(/from\s+'(\.[^']+)'|import\s+'(\.[^']+)'/g)].some((m) => {
    const spec = m[1] ?? m[2] ?? '';
    return path.resolve(path.dirname(file), spec) === SETUP.replace(/\.ts$/, '');
  });
}

describe("zod's Serbian messages", () => {
  const files = sources(SRC).filter((f) => f !== SETUP);

  it('come with zodResolver: no module takes it from @hookform/resolvers directly', () => {
    const direct = files.filter((f) => readFileSync(f, 'utf8').includes("'@hookform/resolvers/zod'"));
    expect(direct.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('are installed before a module validates with a schema', () => {
    const validating = files.filter((f) => /\bzodResolver\(|\.safeParse(Async)?\(|\.parseAsync\(/.test(readFileSync(f, 'utf8')));
    expect(validating.length).toBeGreaterThan(10);
    const without = validating.filter((f) => !importsSetup(f, readFileSync(f, 'utf8')));
    // A schema module (clusterFormSchema.ts) is used only through a form that imports it.
    expect(without.map((f) => path.relative(SRC, f))).toEqual(['features/clusters/clusterFormSchema.ts']);
  });
});

describe('the lists without zod', () => {
  it("ask for the server's largest page as 'Све'", () => {
    expect(ALL_ROWS_LIMIT).toBe(MAX_LIMIT);
  });
});
