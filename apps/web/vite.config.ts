// Vite configuration of the console and the field app: React, the /api proxy for `npm run dev`, two HTML entries
// (index.html: the console; field.html: the field app, its own chunks) and a manifest so that
// scripts/measure-login-size.mjs and scripts/bench-field.mjs can add up what each loads. The field app's service
// worker is written after the bundle (field-sw.ts).
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fieldServiceWorker } from './field-sw';

const apiUrl = process.env['API_URL'] ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), fieldServiceWorker()],
  server: {
    port: Number(process.env['WEB_PORT'] ?? 5173),
    proxy: { '/api': { target: apiUrl, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: { main: path.resolve(import.meta.dirname, 'index.html'), field: path.resolve(import.meta.dirname, 'field.html') },
    },
  },
});
