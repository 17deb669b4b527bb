// What the benchmarks measure beside their own work, on the built server they start: a list page requested again and
// again (what a user waits for meanwhile), the peak RSS of a process, and the CPU time of the server's processes and
// its PostgreSQL backends, each per phase of the benchmark.
import fs from 'node:fs';
import { apiAt, percentile, rssMb } from './http.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sequential probe requests (GET `path`, by default the farms' first page), one every `everyMs`, each tagged with the
 * phase it ran in: the answered ones' times, and the count of others (a shed 503, a refusal, a failed connection).
 */
export function listProbe(base: string, token: string, phase: () => string, everyMs: number, path = '/api/farms/?page=1&page_size=10') {
  const times = new Map<string, number[]>();
  const failures = new Map<string, number>();
  let on = true;
  const done = (async () => {
    const api = apiAt(base);
    while (on) {
      const p = phase();
      const t0 = performance.now();
      const r = await api('GET', path, token).catch(() => ({ status: 0 }));
      const ms = performance.now() - t0;
      if (r.status === 200) times.set(p, [...(times.get(p) ?? []), ms]);
      else failures.set(p, (failures.get(p) ?? 0) + 1);
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      on = false;
      await done;
      return { times, failures };
    },
  };
}

/** Peak RSS of a process per phase, sampled every 50 ms. */
export function rssSampler(pid: number | undefined, phase: () => string) {
  const peaks = new Map<string, number>();
  const t = setInterval(() => {
    const p = phase();
    peaks.set(p, Math.max(peaks.get(p) ?? 0, rssMb(pid)));
  }, 50);
  return () => {
    clearInterval(t);
    return peaks;
  };
}

/** utime + stime of a process (all its threads) from /proc, in ms; null when it has gone. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time spent by the benchmark's server processes and, on PostgreSQL, by the backends connected to its database
 * (pg_stat_activity, sampled every second; other sessions on the shared server are not counted), per phase. On a
 * machine shared with other work, CPU seconds say what wall-clock time cannot: the work's own cost.
 */
export function cpuMeter(pids: Record<string, number>, backends: (() => Promise<Array<{ pid: number; group: string }>>) | null, phase: () => string) {
  const last = new Map<number, number>();
  const first = new Map<number, number>();
  const groupOf = new Map<number, string>(Object.entries(pids).map(([k, pid]) => [pid, k]));
  const byPhase = new Map<string, number>();
  // Per phase, per group (each named process, and the backends by the group backends() gives them): where the CPU went.
  const byGroup = new Map<string, Map<string, number>>();
  const counted = new Map<number, number>();
  let total = 0;
  let started = false;
  const sample = async () => {
    const dbBackends = backends ? await backends().catch(() => [] as Array<{ pid: number; group: string }>) : [];
    for (const b of dbBackends) if (!groupOf.has(b.pid)) groupOf.set(b.pid, b.group);
    const all = [...Object.values(pids), ...dbBackends.map((b) => b.pid)];
    for (const pid of all) {
      const ms = cpuMs(pid);
      if (ms === null) continue;
      // A backend first seen now counts from its start only if it was started meanwhile: the API's and worker's pool
      // connections are seen at the first sample.
      if (!first.has(pid)) first.set(pid, started ? 0 : ms);
      last.set(pid, ms);
    }
    const p = phase();
    const groups = byGroup.get(p) ?? new Map<string, number>();
    byGroup.set(p, groups);
    let t = 0;
    for (const [pid, ms] of last) {
      const used = ms - first.get(pid)!;
      t += used;
      const delta = Math.max(0, used - (counted.get(pid) ?? 0));
      counted.set(pid, used);
      const g = groupOf.get(pid) ?? 'database';
      groups.set(g, (groups.get(g) ?? 0) + delta);
    }
    byPhase.set(p, (byPhase.get(p) ?? 0) + Math.max(0, t - total));
    total = Math.max(total, t);
  };
  let on = true;
  const done = (async () => {
    await sample();
    total = 0;
    for (const [pid, ms] of last) first.set(pid, ms);
    counted.clear();
    byGroup.clear();
    started = true;
    while (on) {
      await sleep(1000);
      await sample();
    }
  })();
  return {
    stop: async () => {
      on = false;
      await done;
      await sample();
      return Object.assign(byPhase, { byGroup });
    },
  };
}

/** p50, p95, max and count of a list of times in ms. */
export const latencyStats = (xs: number[]) =>
  xs.length
    ? `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n ${xs.length})`
    : 'none';
