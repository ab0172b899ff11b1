// Bundles the server (and @trasa/domain) into dist/main.js; npm packages stay external.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@trasa/domain': '../domain/src/index.ts' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};
await build({ ...common, entryPoints: { main: 'src/main.ts', 'seed-demo': 'src/seed/demo-cli.ts' }, outdir: 'dist' });
await cp('drizzle', 'dist/drizzle', { recursive: true });
