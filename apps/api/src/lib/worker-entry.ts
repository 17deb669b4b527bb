// Where a worker thread's code lives: the compiled file (dist) runs as is; from TypeScript sources (tests, bench, dev)
// a small bootstrap registers tsx in the new thread and imports the .ts file.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker whose file sits next to `from` (pass import.meta.url) under `base` (no extension), e.g.
 * startWorker(import.meta.url, './pglite.worker', { workerData }).
 */
export function startWorker(from: string, base: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`${base}.js`, from), options);
  const src = new URL(`${base}.ts`, from).href;
  return new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(src)}); })`, { ...options, eval: true });
}
