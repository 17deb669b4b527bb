// Console actions shared by the browser tests: sign in (with two-factor enrolment or the two-factor dialog), type a
// 6-digit code, create an admin link through the running server, and read the sidebar.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { freshCode, readState, writeState } from './totp';

export const DEMO_PASSWORD = 'Farmland#2026';
export const ACCOUNTS = { superAdmin: 'superadmin@farmland.local', adminA: 'admin@oyo-agro.example', adminB: 'admin@greenharvest.example' } as const;
export const PROMO_TEXT = 'Step into a world of precision agriculture and seamless farm management.';

const root = path.resolve(import.meta.dirname, '../..');

/** Secrets learned from the enrolment screen, per email. */
export const secrets = new Map<string, string>();

export async function typeCode(page: Page, code: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('OTP Input 1').click();
  await page.keyboard.type(code, { delay: 20 });
}

export async function submitCredentials(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Reads the secret from the enrolment dialog (the text shown for manual entry). */
export async function readEnrolmentSecret(page: Page, email: string): Promise<string> {
  const text = await page.getByTestId('mfa-secret').innerText();
  const secret = text.replace(/\s+/g, '');
  secrets.set(email, secret);
  writeState((s) => void (s.secrets[email] = secret));
  return secret;
}

/** Full sign-in through the UI: enrols two-factor when the account has none yet, else uses the two-factor dialog. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await submitCredentials(page, email);
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const title = await dialog
    .getByText(/two-factor authentication/i)
    .first()
    .innerText();
  if (/set up/i.test(title)) {
    await page.getByTestId('mfa-secret').waitFor();
    const secret = await readEnrolmentSecret(page, email);
    await typeCode(page, await freshCode(secret));
  } else {
    // Enrolled by this file, or by an earlier file of the run.
    const secret = secrets.get(email) ?? readState().secrets[email];
    if (!secret) throw new Error(`no two-factor secret known for ${email}`);
    await typeCode(page, await freshCode(secret));
  }
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/(admin|super-admin)\/dashboard$/);
}

/** A one-time admin link from the running server (npm run admin-link talks to it over loopback). */
export function createAdminLink(server: { dataDir: string; appSecret: string }, email: string = ACCOUNTS.superAdmin): string {
  const out = execFileSync(process.execPath, ['apps/api/dist/bin/admin-link.js', email], {
    cwd: root,
    env: { ...process.env, DATA_DIR: server.dataDir, NODE_ENV: 'production', APP_SECRET: server.appSecret, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const url = out.trim().split('\n').pop() ?? '';
  // The id rides in the fragment (/#q=<id>): a browser never sends it to the server.
  const id = new URLSearchParams(new URL(url).hash.slice(1)).get('q');
  if (!id) throw new Error(`admin-link printed no request id: ${out}`);
  return id;
}

export async function sidebarItems(page: Page): Promise<string[]> {
  const items = await page.getByTestId('sidebar').getByRole('menuitem').allInnerTexts();
  return items.map((t) => t.trim()).filter(Boolean);
}

export type OutboxMail = { to: string; subject: string; body: string; created_at: string };

/** The newest outbox mail to an address (npm run outbox asks the running server over loopback); null when none. */
export function readOutbox(server: { dataDir: string; appSecret: string }, email: string): OutboxMail | null {
  try {
    const out = execFileSync(process.execPath, ['apps/api/dist/bin/outbox.js', email], {
      cwd: root,
      env: { ...process.env, DATA_DIR: server.dataDir, NODE_ENV: 'production', APP_SECRET: server.appSecret, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out.trim().split('\n').pop() ?? 'null') as OutboxMail | null;
  } catch (err) {
    if (/No mail to/.test(String((err as { stderr?: string }).stderr ?? ''))) return null;
    throw err;
  }
}
