// Builds the map benchmark page (apps/web/bench) on its own; scripts/bench-map.mjs serves it and drives Chromium.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  logLevel: 'warn',
  build: { outDir: path.join(import.meta.dirname, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
