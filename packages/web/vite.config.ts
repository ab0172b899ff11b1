import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

type ModuleInfo = { id: string; code: string | null; importedIds: readonly string[] };
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

/**
 * The modules a module needs before it runs: itself and its static imports, recursively. Through a barrel
 * (`@mui/material`, `@trasa/domain`) only the modules that export the names imported from it: the build
 * leaves the others out, so the barrel's own list of imports would name every component of MUI.
 */
function staticClosure(graph: ModuleGraph, root: string): Set<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    for (const imported of info.importedIds) {
      const barrel = BARRELS.find((b) => b.id.test(imported));
      if (!barrel) {
        stack.push(imported);
        continue;
      }
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
      for (const name of names) {
        const part =
          parts.find((p) => p.includes(`${path.sep}${name}${path.sep}`) || p.includes(`/${name}/`)) ??
          parts.find((p) => EXPORTED(name).test(graph.getModuleInfo(p)?.code ?? ''));
        if (part) stack.push(part);
      }
    }
  }
  return seen;
}

type Groups = { shell: Set<string>; table: Set<string> };
const groupsOf = new WeakMap<object, Groups>();
/**
 * Two chunks for what the /app pages' first visit needs beyond the entry (issue 13 item 3), each made of
 * ~25–35 small chunks before (a request, a preload link and a module record each):
 * - `application`: what every /app screen loads — the application (FullApp) and the shell (AppShell)
 *   with their static imports — and the login page does not;
 * - `table`: the lists' table (components/DataTable.tsx) with its static imports beyond those.
 */
function groupOf(id: string, graph: ModuleGraph): string | null {
  let groups = groupsOf.get(graph);
  if (!groups) {
    const entry = staticClosure(graph, path.join(SRC, 'main.tsx'));
    const shell = new Set(
      [...staticClosure(graph, path.join(SRC, 'FullApp.tsx')), ...staticClosure(graph, path.join(SRC, 'shell/AppShell.tsx'))].filter(
        (m) => !entry.has(m),
      ),
    );
    const table = new Set(
      [...staticClosure(graph, path.join(SRC, 'components/DataTable.tsx'))].filter((m) => !entry.has(m) && !shell.has(m)),
    );
    groups = { shell, table };
    groupsOf.set(graph, groups);
  }
  if (groups.shell.has(id)) return 'application';
  if (process.env.NO_TABLE_GROUP) return null;
  return groups.table.has(id) ? 'table' : null;
}

/** In development the API runs on port 3000 (see the repository README); production serves dist from the server. */
export default defineConfig({
  plugins: [react()],
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
