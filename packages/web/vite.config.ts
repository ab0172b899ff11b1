import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
          ],
        },
      },
    },
  },
});
