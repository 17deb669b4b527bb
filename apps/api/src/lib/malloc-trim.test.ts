// The C-heap trim (lib/malloc-trim.ts): on Linux with glibc (CI and the deployment target) it must load and run, or the
// embedded server's idle memory goes back above its target; elsewhere it must be a harmless no-op.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadMallocTrim, startMallocTrim, trimOnce } from './malloc-trim.js';

describe('malloc trim', () => {
  it.runIf(process.platform === 'linux')('loads glibc malloc_trim and runs it off the event loop', async () => {
    const trim = await loadMallocTrim();
    expect(trim).not.toBeNull();
    const r = await trimOnce(trim!);
    expect(r.releasedMb).toBeGreaterThanOrEqual(0);
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });

  it('an interval of 0 starts nothing', async () => {
    const stop = await startMallocTrim(pino({ level: 'silent' }), 0);
    expect(stop()).toBeUndefined();
  });
});
