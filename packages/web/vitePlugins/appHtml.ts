import path from 'node:path';
import type { Plugin } from 'vite';

type Chunk = {
  type: 'chunk';
  name: string;
  fileName: string;
  moduleIds: string[];
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
};
type Asset = { type: 'asset'; fileName: string; names?: string[]; source: string | Uint8Array };

const SRC = path.resolve(import.meta.dirname, '../src');
/**
 * What nearly every /app visit loads beyond the entry: the application, the shell, the lists' table and the
 * modules the screens share (vite.config.ts groups `application`, `table`, `shared`).
 */
const APP_MODULES = ['FullApp.tsx', 'shell/AppShell.tsx', 'components/DataTable.tsx'].map((m) => path.join(SRC, m));

/**
 * Writes app.html beside index.html: the page the server sends for /app and /app/* (a signed-in visit, or
 * one that goes on to sign in). It is index.html (the same entry, so the login page is unchanged) with, in
 * its head:
 * - src/opening.ts first: it asks for the profile and the screen's first answers at once (see there);
 * - the Bitter face of the frame's title preloaded (the largest paint of a phone's first visit waits for it);
 * - the application's chunks (FullApp, the shell, the table, the shared modules, with their static imports)
 *   as modulepreload links and their styles as preloads, so they download beside the entry instead of
 *   after it has run.
 */
export function appHtml(): Plugin {
  let opening = '';
  return {
    name: 'trasa:app-html',
    apply: 'build',
    enforce: 'post',
    buildStart() {
      opening = this.emitFile({ type: 'chunk', id: path.join(SRC, 'opening.ts'), name: 'opening' });
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'] as Asset | undefined;
      if (!index) return;
      const files = Object.values(bundle) as (Chunk | Asset)[];
      const chunks = files.filter((f): f is Chunk => f.type === 'chunk');
      const html = String(index.source);
      const inIndex = (file: string) => html.includes(`/${file}"`);
      const wanted = new Set<string>();
      const stack = chunks.filter((c) => c.name === 'shared' || c.moduleIds.some((id) => APP_MODULES.includes(id))).map((c) => c.fileName);
      while (stack.length > 0) {
        const file = stack.pop() as string;
        if (wanted.has(file) || inIndex(file)) continue;
        wanted.add(file);
        stack.push(...(chunks.find((c) => c.fileName === file)?.imports ?? []));
      }
      const styles = [...wanted].flatMap((file) => [...(chunks.find((c) => c.fileName === file)?.viteMetadata?.importedCss ?? [])]);
      const font = files.find((f) => f.type === 'asset' && /(^|\/)bitter-700-[\w-]+\.woff2$/.test(f.fileName));
      const tags = [
        `<script type="module" async crossorigin src="/${this.getFileName(opening)}"></script>`,
        ...(font ? [`<link rel="preload" as="font" type="font/woff2" crossorigin href="/${font.fileName}">`] : []),
        ...[...wanted].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ...[...new Set(styles)].map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
      ];
      // The opening script first (it runs as soon as it arrives), the rest after the entry's own tags.
      const [first, ...rest] = tags;
      const source = html.replace('</title>', `</title>\n    ${first}`).replace('</head>', `  ${rest.join('\n    ')}\n  </head>`);
      this.emitFile({ type: 'asset', fileName: 'app.html', source });
    },
  };
}
