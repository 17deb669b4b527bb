// Vite configuration of the console: React, the /api proxy for `npm run dev`, and a manifest so that
// scripts/measure-login-size.mjs can add up the JS the sign-in route loads.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiUrl = process.env['API_URL'] ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: Number(process.env['WEB_PORT'] ?? 5173),
    proxy: { '/api': { target: apiUrl, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
});
