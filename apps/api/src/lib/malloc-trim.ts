// Gives the C heap's free pages back to the operating system on Linux, on a timer. The embedded database thread's
// WebAssembly compilation, the parse threads and V8's compiler zones allocate through glibc's malloc; when they free,
// glibc keeps the pages in its per-thread arenas, so the process's RSS stays at its high-water mark (measured: an idle
// embedded server at 450 MB, of which `malloc_trim(0)` gave back 138 MB; docs/decisions/0012-embedded-footprint.md).
// glibc only trims the top of the main arena by itself; `malloc_trim` walks every arena and releases whole free pages.
// It is called through koffi (a C FFI shipped with prebuilt binaries), loaded only on Linux; where libc.so.6 has no
// malloc_trim (musl, macOS, Windows) this does nothing.
import type { Logger } from 'pino';

/** Runs malloc_trim(0) on one of libuv's pool threads (it is process-wide, and releasing 100+ MB takes tens of ms). */
type TrimFn = () => Promise<number>;

let loaded: Promise<TrimFn | null> | null = null;

/** glibc's malloc_trim(0), or null where it does not exist. Loaded once. */
export function loadMallocTrim(): Promise<TrimFn | null> {
  loaded ??= (async () => {
    if (process.platform !== 'linux') return null;
    try {
      const { default: koffi } = await import('koffi');
      const fn = koffi.load('libc.so.6').func('int malloc_trim(size_t)');
      return () =>
        new Promise<number>((resolve, reject) => {
          fn.async(0, (err: unknown, released: number) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(released)));
        });
    } catch {
      return null;
    }
  })();
  return loaded;
}

export type TrimResult = { releasedMb: number; ms: number };

/** One trim, with what it gave back (RSS before minus after). */
export async function trimOnce(trim: TrimFn): Promise<TrimResult> {
  const before = process.memoryUsage.rss();
  const t0 = performance.now();
  await trim();
  const ms = performance.now() - t0;
  return { releasedMb: Math.max(0, Math.round((before - process.memoryUsage.rss()) / 1048576)), ms: Math.round(ms * 100) / 100 };
}

/**
 * Trims at start, 5 and 15 s later (the start-up's garbage is freed over those seconds: compiler zones, the demo
 * seeding), then every intervalMs, off the event loop.
 * A trim with nothing to give back costs well under a millisecond. intervalMs 0 turns it off.
 */
export async function startMallocTrim(log: Logger, intervalMs: number): Promise<() => void> {
  if (intervalMs <= 0) return () => undefined;
  const trim = await loadMallocTrim();
  if (!trim) {
    log.debug('malloc_trim is not available on this platform; the C heap is left to the allocator');
    return () => undefined;
  }
  let runs = 0;
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    trimOnce(trim)
      .then((r) => {
        const early = runs++ < 3; // the start-up trims are logged: they show what the allocator held
        if (early || r.releasedMb >= 16)
          log[early ? 'info' : 'debug'](
            { released_mb: r.releasedMb, trim_ms: r.ms, rss_mb: Math.round(process.memoryUsage.rss() / 1048576) },
            'returned free C-heap pages to the OS',
          );
      })
      .catch((err: unknown) => log.warn({ err }, 'malloc_trim failed'))
      .finally(() => {
        running = false;
      });
  };
  const early = [0, 5000, 15_000].map((ms) => setTimeout(run, ms).unref());
  const timer = setInterval(run, intervalMs).unref();
  return () => {
    early.forEach(clearTimeout);
    clearInterval(timer);
  };
}
