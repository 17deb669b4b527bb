// The CPU time a piece of work took in this process, for the tests that bound the work a hostile input may cause (a zip
// bomb refused before inflating, a file over the row cap stopped in its stream). Wall time is the wrong measure there:
// it grows with everything else the machine runs (CI runs the suites with both cores busy), and a test bounded by it
// fails under load without any defect. The process's CPU time (user and system, all its threads) counts only the work
// this process did. On PostgreSQL the database's own work is in another process and not counted: the bounds are on the
// API's readers, which run here.
import { cpuUsage } from 'node:process';

/** Runs `work` and gives its result with the CPU milliseconds this process spent meanwhile. */
export async function withCpuMs<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = cpuUsage();
  const value = await work();
  const used = cpuUsage(before);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}
