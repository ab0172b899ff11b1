// Bundles the server (and @trasa/domain) into dist/main.js (or OUT_DIR, for a build beside another
// one while it is in use); npm packages stay external, so OUT_DIR must lie inside the repository.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const outdir = process.env.OUT_DIR || 'dist';
await rm(outdir, { recursive: true, force: true });
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
await build({ ...common, entryPoints: { main: 'src/main.ts', 'seed-demo': 'src/seed/demo-cli.ts' }, outdir });
await cp('drizzle', `${outdir}/drizzle`, { recursive: true });
await cp('assets', `${outdir}/assets`, { recursive: true });
