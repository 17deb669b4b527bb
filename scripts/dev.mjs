// npm run dev: builds the contracts and the API when needed, then runs the API (port API_PORT, default 3000) and the
// Vite dev server (port WEB_PORT, default 5173, proxying /api to the API) together; Ctrl+C stops both.
import { execSync, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.API_PORT ?? '3000';
const webPort = process.env.WEB_PORT ?? '5173';

execSync('npx tsc -b packages/contracts apps/api', { cwd: root, stdio: 'inherit' });

const children = [];
function run(name, cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (chunk) => chunk.toString().replace(/^(?=.)/gm, `[${name}] `);
  child.stdout.on('data', (c) => process.stdout.write(prefix(c)));
  child.stderr.on('data', (c) => process.stderr.write(prefix(c)));
  child.on('exit', (code, signal) => {
    process.stdout.write(`[${name}] exited (${signal ?? code})\n`);
    shutdown(code ?? 0);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

// The dev server speaks plain http, so the refresh cookie cannot be Secure here.
run('api', process.execPath, ['apps/api/dist/server.js'], { PORT: apiPort, COOKIE_SECURE: 'false', NODE_ENV: process.env.NODE_ENV ?? 'development' });
run('web', 'npm', ['run', 'dev', '-w', '@farmland/web', '--', '--port', webPort, '--strictPort'], { API_URL: `http://localhost:${apiPort}` });
process.stdout.write(`\n  console (dev): http://localhost:${webPort}   API: http://localhost:${apiPort}/api\n\n`);
