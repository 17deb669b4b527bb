// TOTP codes for the browser suite, computed from the secret shown on the enrolment screen. The API accepts each
// 30-second step once and a window of ±1 step, so each new code uses the next unused step (waiting when needed).
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { inject } from 'vitest';

const PERIOD_MS = 30_000;

// The steps used so far, per secret, kept in the run's data directory: each test file is its own module, and a later
// file signing in with an account an earlier file enrolled must not reuse that file's last code.
type State = { secrets: Record<string, string>; lastStep: Record<string, number> };
const stateFile = () => path.join(inject('dataDir'), 'e2e-two-factor.json');
export function readState(): State {
  try {
    return JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as State;
  } catch {
    return { secrets: {}, lastStep: {} };
  }
}
export function writeState(change: (s: State) => void): void {
  const s = readState();
  change(s);
  fs.writeFileSync(stateFile(), JSON.stringify(s));
}
const lastStep = {
  get: (secret: string): number | undefined => readState().lastStep[secret],
  set: (secret: string, step: number) => writeState((s) => void (s.lastStep[secret] = step)),
};

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')), digits: 6, period: 30, algorithm: 'SHA1' });
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

/** A valid code that has not been used yet for this secret. */
export async function freshCode(secret: string): Promise<string> {
  const used = lastStep.get(secret) ?? -1;
  let step = Math.max(stepNow(), used + 1);
  // A code is accepted up to one step ahead; wait when the next unused step is further away.
  const t0 = Date.now();
  while (step > stepNow() + 1) await new Promise((r) => setTimeout(r, 1000));
  // Printed, so that a run shows how much of its time went to waiting for a code (the API takes each step once).
  if (Date.now() > t0 + 1000) process.stdout.write(`two-factor: waited ${((Date.now() - t0) / 1000).toFixed(0)} s for an unused step\n`);
  if (step < stepNow()) step = stepNow();
  lastStep.set(secret, step);
  return totp(secret).generate({ timestamp: step * PERIOD_MS + 1000 });
}

/** A 6-digit code that matches none of the steps the API would accept right now. */
export function wrongCode(secret: string): string {
  const t = totp(secret);
  const now = stepNow();
  const valid = new Set([-1, 0, 1].map((d) => t.generate({ timestamp: (now + d) * PERIOD_MS + 1000 })));
  for (const candidate of ['123456', '654321', '111111', '222222']) if (!valid.has(candidate)) return candidate;
  return '000000';
}
