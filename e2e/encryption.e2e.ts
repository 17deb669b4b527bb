// Encrypted bodies in a real browser (issue 17 §4): the suite's server runs with PAYLOAD_ENCRYPTION=required. The
// console's sign-in body on the wire is a JWE, not JSON, and carries no readable email or password; the answers are
// encrypted too, and the console reads them (the sign-in goes through, the farm list fills). Plain JSON is refused.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Request } from 'playwright-core';
import { ACCOUNTS, DEMO_PASSWORD, signIn } from './support/app';
import { launchBrowser, openPage, type Session } from './support/browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
});
afterAll(async () => {
  await browser?.close();
});

describe('encrypted bodies', () => {
  it('the server requires them', async () => {
    const key = (await (await fetch(`${baseUrl}/api/crypto/key`)).json()) as { data: { mode: string } };
    expect(key.data.mode).toBe('required');
    const plain = await fetch(`${baseUrl}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ACCOUNTS.adminA, password: DEMO_PASSWORD }),
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { code: string }).code).toBe('payload_encryption_required');
  });

  it("the console's sign-in body is a JWE on the wire, and its answers come back encrypted", async () => {
    const sent: Request[] = [];
    s.page.on('request', (r) => {
      if (r.url().includes('/api/') && r.method() !== 'GET') sent.push(r);
    });
    const listAnswer = s.page.waitForResponse((r) => r.url().includes('/api/farms/') && r.request().method() === 'GET', { timeout: 60_000 });
    await signIn(s.page, ACCOUNTS.adminA);
    const login = sent.find((r) => r.url().endsWith('/api/auth/login/'));
    expect(login).toBeDefined();
    const body = login!.postData() ?? '';
    expect(body.split('.')).toHaveLength(5);
    expect(() => JSON.parse(body)).toThrow();
    expect(body).not.toContain(ACCOUNTS.adminA);
    expect(body).not.toContain(DEMO_PASSWORD);
    expect((await login!.allHeaders())['content-type']).toBe('application/jose');
    expect((await login!.response())!.headers()['content-type']).toMatch(/^application\/jose/);
    // Every JSON body the console sent on the way in was encrypted.
    for (const r of sent) {
      const type = (await r.allHeaders())['content-type'] ?? '';
      if (r.postData()) expect(type === 'application/jose' || type.startsWith('multipart/')).toBe(true);
    }
    // The Farmlands list reads an encrypted answer and shows its rows.
    await s.page.goto('/admin/mapping');
    const answer = await listAnswer;
    expect(answer.headers()['content-type']).toMatch(/^application\/jose/);
    await expect.poll(() => s.page.locator('.ant-table-row').count(), { timeout: 30_000 }).toBeGreaterThan(0);
  });
});
