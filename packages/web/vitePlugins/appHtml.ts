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

/** The screens' modules src/opening.ts names (its OPENING table): app.html lists the chunks each one loads. */
const SCREEN_MODULES = [
  'features/notices/NoticesPage.tsx',
  'features/notices/ActivitiesInProgressPage.tsx',
  'features/topics/TopicsPage.tsx',
  'features/users/UsersPage.tsx',
  'features/clusters/ClustersPage.tsx',
  'features/clusters/MyClustersPage.tsx',
  'features/clusters/ClusterPage.tsx',
  'features/groups/GroupsPage.tsx',
  'features/contracts/ContractsPage.tsx',
  'features/inventory/InventoryPage.tsx',
  'features/reports/ReportsPage.tsx',
  'features/ijo/IjoPage.tsx',
  'features/codebooks/CodebooksPage.tsx',
  'features/smtp/SmtpListPage.tsx',
  'features/logs/LogsPage.tsx',
  'features/comments/CommentsPage.tsx',
  'features/roles/RolesPage.tsx',
  'features/activities/ActivityPage.tsx',
  'features/account/MyAccountPage.tsx',
];

/**
 * Writes app.html beside index.html: the page the server sends for /app and /app/* (a signed-in visit, or
 * one that goes on to sign in). It is index.html (the same entry, so the login page is unchanged) with, in
 * its head:
 * - the list of the application's chunks (FullApp, the shell, the table, the shared modules, with their
 *   static imports and styles) and of each screen's, as JSON;
 * - src/opening.ts first: it asks for the profile and the screen's first answers at once, then preloads the
 *   application's and the screen's chunks (see there), so they download beside the entry instead of after
 *   it has run;
 * - the Bitter face of the frame's title preloaded (the largest paint of a phone's first visit waits for it).
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
      // The chunks of the screens src/opening.ts knows (its table names each screen's module): what a visit
      // of that screen loads beyond the application's, with their styles.
      const closure = (roots: string[]) => {
        const seen = new Set<string>();
        const todo = [...roots];
        while (todo.length > 0) {
          const file = todo.pop() as string;
          if (seen.has(file) || inIndex(file)) continue;
          seen.add(file);
          todo.push(...(chunks.find((c) => c.fileName === file)?.imports ?? []));
        }
        return seen;
      };
      const stylesOf = (files: Iterable<string>) => [
        ...new Set([...files].flatMap((file) => [...(chunks.find((c) => c.fileName === file)?.viteMetadata?.importedCss ?? [])])),
      ];
      const screens: Record<string, string[]> = {};
      for (const module of SCREEN_MODULES) {
        const chunk = chunks.find((c) => c.moduleIds.includes(path.join(SRC, module)));
        if (!chunk) continue;
        const own = [...closure([chunk.fileName])].filter((file) => !wanted.has(file));
        screens[module] = [...own, ...stylesOf(own).filter((file) => !stylesOf(wanted).includes(file))];
      }
      const font = files.find((f) => f.type === 'asset' && /(^|\/)bitter-700-[\w-]+\.woff2$/.test(f.fileName));
      const chunkMap = { application: [...wanted, ...stylesOf(wanted)], screens };
      const tags = [
        // JSON, not a script: the opening script reads it (the CSP allows no inline script).
        `<script type="application/json" id="trasa-chunks">${JSON.stringify(chunkMap)}</script>`,
        `<script type="module" async crossorigin src="/${this.getFileName(opening)}"></script>`,
        ...(font ? [`<link rel="preload" as="font" type="font/woff2" crossorigin href="/${font.fileName}">`] : []),
      ];
      const source = html.replace('</title>', `</title>\n    ${tags.join('\n    ')}`);
      this.emitFile({ type: 'asset', fileName: 'app.html', source });
    },
  };
}
