import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * src/opening.ts names each screen's module (its OPENING table) and vitePlugins/appHtml.ts lists the chunks
 * of those modules in app.html: the two lists agree, and each is a screen the route table loads
 * (shell/screens.ts), so a moved or renamed screen is not silently left without its early chunks.
 */
const web = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(web, file), 'utf8');
const modules = (text: string) => [...text.matchAll(/'(features\/[\w/]+\.tsx)'/g)].map((m) => m[1]);

test('the opening script and app.html name the same screens, each one the route table loads', () => {
  const opening = [...new Set(modules(read('src/opening.ts')))].sort();
  const listed = [...new Set(modules(read('vitePlugins/appHtml.ts')))].sort();
  expect(opening.length).toBeGreaterThan(10);
  expect(listed).toEqual(opening);
  const screens = read('src/shell/screens.ts');
  for (const module of opening) expect(screens, module).toContain(`import('../${module?.replace(/\.tsx$/, '')}')`);
});
