#!/usr/bin/env node
/**
 * Codemod (issue 13 item 10): the web's modules take the domain's message objects from src/messages.ts
 * (shown in the user's script) instead of '@trasa/domain'. Moves the names of SCRIPTED_NAMES out of every
 * `import { … } from '@trasa/domain'` under packages/web/src into an import of './messages' (relative).
 * Idempotent; `--check` lists the files that would change and exits 1 if any (scripts/script.test.ts).
 *
 *   node packages/web/scripts/use-scripted-messages.mjs [--check]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const MESSAGES = join(SRC, 'messages.ts');
// The light public pages convert their few texts with inScript themselves (no proxy, no domain index).
const SKIP = [join(SRC, 'public'), MESSAGES, join(SRC, 'script.ts'), join(SRC, 'scripted.ts')];

const NAMES = [...readFileSync(MESSAGES, 'utf8').matchAll(/^export (?:const|function) (\w+)/gm)]
  .map((m) => m[1])
  .filter((name) => name !== 'SCRIPTED_NAMES');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SKIP.some((skip) => path === skip || path.startsWith(`${skip}/`))) return [];
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'@trasa\/domain';\n?/g;

export function rewrite(path, text) {
  const moved = [];
  let out = text.replace(IMPORT, (whole, list) => {
    const specifiers = list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const stay = specifiers.filter((s) => !NAMES.includes(s));
    moved.push(...specifiers.filter((s) => NAMES.includes(s)));
    if (stay.length === specifiers.length) return whole;
    return stay.length ? `import { ${stay.join(', ')} } from '@trasa/domain';\n` : '';
  });
  if (!moved.length) return text;
  let from = relative(dirname(path), MESSAGES).replace(/\.ts$/, '');
  if (!from.startsWith('.')) from = `./${from}`;
  const existing = new RegExp(`import \\{([^}]*)\\} from '${from.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}';`);
  const found = out.match(existing);
  if (found) {
    const names = [...new Set([...found[1].split(',').map((s) => s.trim()), ...moved])].filter(Boolean).sort();
    out = out.replace(existing, `import { ${names.join(', ')} } from '${from}';`);
  } else {
    // After the last import at the top of the module (biome sorts them afterwards).
    const lines = out.split('\n');
    let last = -1;
    let inImport = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (/^import\s/.test(line)) inImport = true;
      if (inImport && /from\s+'[^']+';\s*$|^import\s+'[^']+';\s*$/.test(line)) {
        last = i;
        inImport = false;
      } else if (!inImport && last >= 0 && line.trim() && !line.startsWith('//')) break;
    }
    lines.splice(last + 1, 0, `import { ${[...new Set(moved)].sort().join(', ')} } from '${from}';`);
    out = lines.join('\n');
  }
  return out;
}

const check = process.argv.includes('--check');
const changed = [];
for (const path of files(SRC)) {
  const text = readFileSync(path, 'utf8');
  const next = rewrite(path, text);
  if (next === text) continue;
  changed.push(relative(process.cwd(), path));
  if (!check) writeFileSync(path, next);
}
for (const path of changed) console.log(path);
if (check && changed.length) process.exit(1);
