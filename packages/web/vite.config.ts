import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appHtml } from './vitePlugins/appHtml';

type ModuleInfo = {
  id: string;
  code: string | null;
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
  importers: readonly string[];
};
type ModuleGraph = { getModuleInfo(id: string): ModuleInfo | null };

const SRC = path.resolve(import.meta.dirname, 'src');
/** Index modules that re-export a whole package: MUI's components, the domain's modules. */
const BARRELS: { specifier: string; id: RegExp }[] = [
  { specifier: '@mui/material', id: /node_modules[\\/]@mui[\\/]material[\\/]esm[\\/]index\.js$/ },
  { specifier: '@trasa/domain', id: /packages[\\/]domain[\\/]src[\\/]index\.ts$/ },
];
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const EXPORTED = (name: string) =>
  new RegExp(
    `export\\s+(?:declare\\s+)?(?:const|let|var|function\\*?|async\\s+function|class)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b`,
  );

/** The modules reached from `root`: itself and, recursively, the modules `next` names for each one reached. */
function reach(graph: ModuleGraph, root: string, next: (info: ModuleInfo) => string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (info) stack.push(...next(info));
  }
  return seen;
}

/**
 * A module's static imports. Through a barrel (`@mui/material`, `@trasa/domain`) only the modules that
 * export the names imported from it: the build leaves the others out, so the barrel's own list of imports
 * would name every component of MUI.
 */
function staticImports(graph: ModuleGraph, info: ModuleInfo): string[] {
  return info.importedIds.flatMap((imported) => {
    const barrel = BARRELS.find((b) => b.id.test(imported));
    if (!barrel) return [imported];
    const names = [...(info.code ?? '').matchAll(NAMED_IMPORT)]
      .filter((m) => m[2] === barrel.specifier)
      .flatMap((m) => (m[1] ?? '').split(','))
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? '',
      )
      .filter((n) => /^\w+$/.test(n));
    const parts = graph.getModuleInfo(imported)?.importedIds ?? [];
    return names.flatMap((name) => {
      const part =
        parts.find((p) => p.includes(`${path.sep}${name}${path.sep}`) || p.includes(`/${name}/`)) ??
        parts.find((p) => EXPORTED(name).test(graph.getModuleInfo(p)?.code ?? ''));
      return part ? [part] : [];
    });
  });
}

/** The modules a module needs before it runs: itself and its static imports (staticImports), recursively. */
function staticClosure(graph: ModuleGraph, root: string): Set<string> {
  return reach(graph, root, (info) => staticImports(graph, info));
}

/** Every module a dynamic import loads (the screens, the forms' dialogs, the charts …), found from the entry. */
function dynamicEntries(graph: ModuleGraph, root: string): Set<string> {
  const entries = new Set<string>();
  reach(graph, root, (info) => {
    for (const imported of info.dynamicallyImportedIds) entries.add(imported);
    return [...info.importedIds, ...info.dynamicallyImportedIds];
  });
  return entries;
}

/** The web's own modules and the icons: what the `shared` chunk may take (libraries keep their chunks). */
const OWN_CODE = /(packages[\\/]web[\\/]src|@mui[\\/]icons-material)[\\/]/;
/**
 * The domain's modules stay where the build puts them (the application reaches them through the package's
 * index, which the closures do not follow): `shared` may import them.
 */
const DOMAIN = /packages[\\/]domain[\\/]src[\\/]/;

type Groups = { shell: Set<string>; table: Set<string>; shared: Set<string> };
const groupsOf = new WeakMap<object, Groups>();
/**
 * Chunks for what the /app pages' first visit needs beyond the entry (issue 13 item 3), each made of
 * ~25–35 small chunks before (a request, a preload link and a module record each):
 * - `application`: what every /app screen loads — the application (FullApp) and the shell (AppShell)
 *   with their static imports — and the login page does not;
 * - `table`: the lists' table (components/DataTable.tsx) with its static imports beyond those;
 * - `shared`: the app's small modules that several screens and dialogs share (below).
 */
function groupOf(id: string, graph: ModuleGraph): string | null {
  let groups = groupsOf.get(graph);
  if (!groups) {
    // What the modules `roots` (in src/) need beyond the groups `taken`.
    const beyond = (roots: string[], taken: Set<string>[]) =>
      new Set(roots.flatMap((r) => [...staticClosure(graph, path.join(SRC, r))]).filter((m) => !taken.some((t) => t.has(m))));
    const entry = staticClosure(graph, path.join(SRC, 'main.tsx'));
    const shell = beyond(['FullApp.tsx', 'shell/AppShell.tsx'], [entry]);
    const table = beyond(['components/DataTable.tsx'], [entry, shell]);
    // The app's own modules that two or more lazily loaded parts (screens, dialogs) need beyond those:
    // small components, API modules, icons, messages. One `shared` chunk, instead of a chunk for each set of
    // parts that shares some (a screen's first visit asked for ~25 files of 1 KB: on HTTP/1.1's six
    // connections, a round trip of a slow network for every six). Only modules whose own imports are all
    // in the entry, the application, the table or this chunk: it never pulls in a library's chunk (the
    // forms' zod and react-hook-form, pickers, charts) that a list does not need.
    const counts = new Map<string, number>();
    for (const dynamicEntry of dynamicEntries(graph, path.join(SRC, 'main.tsx'))) {
      for (const m of staticClosure(graph, dynamicEntry)) {
        if (m === dynamicEntry || entry.has(m) || shell.has(m) || table.has(m) || !OWN_CODE.test(m)) continue;
        counts.set(m, (counts.get(m) ?? 0) + 1);
      }
    }
    const shared = new Set([...counts].filter(([, n]) => n >= 2).map(([m]) => m));
    // Nor a module that the entry, the application or the table imports themselves (a path the closures
    // above do not follow): those chunks would import `shared`, which imports them, and a cycle of chunks
    // runs a module before the ones it needs.
    const below = (m: string) => entry.has(m) || shell.has(m) || table.has(m);
    const outside = (m: string) => !below(m) && !shared.has(m) && !DOMAIN.test(m);
    for (let changed = true; changed; ) {
      changed = false;
      for (const m of shared) {
        if ((graph.getModuleInfo(m)?.importers ?? []).some(below) || [...staticClosure(graph, m)].some((d) => d !== m && outside(d))) {
          shared.delete(m);
          changed = true;
        }
      }
    }
    groups = { shell, table, shared };
    groupsOf.set(graph, groups);
  }
  if (groups.shell.has(id)) return 'application';
  if (process.env.NO_TABLE_GROUP) return null;
  if (groups.table.has(id)) return 'table';
  return groups.shared.has(id) ? 'shared' : null;
}

/** The theme colour of spec 1 §9 (theme.ts SPEC_BLUE): the installed app's title bar and splash. */
const THEME_COLOUR = '#417AB4';

/**
 * The installable application (docs/decisions.md "Offline"): the web manifest and the service worker
 * (src/sw.ts, strategy injectManifest: our own worker with Workbox's precache and navigation route, where
 * later parts of the offline work add their handlers). The precache holds the shell and every screen's
 * chunks, styles, icons and the fonts (one Serbian subset per weight) — never an API answer. registerType
 * 'prompt': a new version waits for the user (shell/UpdateNotice.tsx); offline/serviceWorker.ts registers it.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src',
  filename: 'sw.ts',
  registerType: 'prompt',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  includeAssets: [],
  // The icons are in the precache by the globs below; the manifest itself the plugin adds.
  includeManifestIcons: false,
  manifest: {
    id: '/app',
    // One manifest for both scripts (it cannot follow the user's choice): the product's name in Latin, which
    // every user reads; the screens themselves follow the chosen script.
    name: 'Trasa',
    short_name: 'Trasa',
    description: 'Praćenje izgradnje širokopojasne mreže: klasteri, aktivnosti, dokumenta.',
    lang: 'sr-Latn',
    dir: 'ltr',
    start_url: '/app',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOUR,
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    // The spreadsheet library (SheetJS) is the largest chunk; exports and imports need the network anyway.
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
  devOptions: { enabled: false },
});

/** In development the API runs on port 3000 (see the repository README); production serves dist from the server. */
export default defineConfig({
  plugins: [react(), appHtml(), pwa],
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // The domain's modules only declare constants, schemas and functions (none runs anything as it loads):
      // a chunk takes the ones it uses, not every module of the package's index (zod and every schema).
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]domain[\\/]src[\\/]/, sideEffects: false }] },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases. No
        // catch-all vendor group: a library imported lazily (SheetJS, charts) stays in its own chunk and
        // loads only with the screen that uses it.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // MUI's core (styles, theme, emotion) only: its components go with the screens that use them, so
            // the login page does not load the tables', dialogs' and pickers' code (issue 13 budgets).
            {
              name: 'mui',
              test: /node_modules[\\/](@mui[\\/](system|utils|styled-engine|private-theming|core-downloads-tracker|material[\\/](esm[\\/])?(styles|utils|locale|colors|internal|zero-styled|DefaultPropsProvider))|@emotion)[\\/]/,
            },
            // The queue of changes made offline (src/offline/queue.ts, its IndexedDB store and `idb`) loads after
            // the shell's first paint or with the first change, not with a screen.
            {
              name: 'queue',
              test: /(src[\\/]offline[\\/](queue|queueDb)\.ts$|node_modules[\\/]idb[\\/])/,
              includeDependenciesRecursively: false,
            },
            // Modules of the entry stay in the entry's chunks (not pulled in as dependencies): the login page is unchanged.
            { name: (id, ctx) => groupOf(id, ctx), debugName: 'application, table', includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
