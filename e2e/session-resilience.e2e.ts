// The session survives what users do to a page (issue 33, item 0): reloads that abort the load before them, a refresh
// whose answer never reaches the browser, and tabs opened at the same moment. Refresh tokens rotate; the API gives a
// token presented again within its reuse interval the same successor, and the console's tabs refresh one at a time
// (a Web Lock). Reuse after the interval still ends the session: apps/api/src/modules/auth/auth.test.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CompactEncrypt, compactDecrypt } from 'jose';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, type Session } from './support/browser';
import { openList } from './support/ui';

const baseUrl = inject('baseUrl');
const REFRESH = '/api/auth/token/refresh/';
let browser: Browser;
let s: Session;

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  await signIn(s.page, ACCOUNTS.adminA);
});
afterAll(async () => {
  await browser?.close();
});

/** The farmers list is on screen, signed in: its heading and its first rows (the sign-in page has neither). */
async function farmersShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'All Farmers' }).waitFor();
  await page.locator('section[aria-labelledby] .ant-table-row, section[aria-labelledby] .ant-table-placeholder .ant-empty').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/admin/farmers');
}

/** The refresh cookie the browser holds now. */
async function refreshCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'farmland_refresh');
  if (!cookie) throw new Error('no refresh cookie');
  return cookie.value;
}

describe('an interrupted page load keeps the user signed in', () => {
  it('three reloads of /admin/farmers about 150 ms apart, each aborting the load before it', async () => {
    await openList(s.page, '/admin/farmers', 'All Farmers');
    const refreshes: string[] = [];
    const onRequest = (r: { url(): string }) => void (r.url().endsWith(REFRESH) && refreshes.push(r.url()));
    s.page.on('request', onRequest);
    try {
      // The scenario's own rhythm (a user pressing F5): each reload starts while the one before is still loading.
      for (let i = 0; i < 3; i++) {
        void s.page.reload({ waitUntil: 'commit' }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 150));
      }
      await s.page.waitForLoadState('load');
      await farmersShown(s.page);
    } finally {
      s.page.off('request', onRequest);
    }
    expect(refreshes.length).toBeGreaterThan(0);
    // And the session is still good for the next load.
    await s.page.reload();
    await farmersShown(s.page);
  });

  it('a refresh the server answered but the browser never received (the load aborted after the rotation)', async () => {
    await openList(s.page, '/admin/farmers', 'All Farmers');
    const before = await refreshCookie(s.page);
    let intercepted = 0;
    let serverRotated = '';
    await s.page.route(`**${REFRESH}`, async (route) => {
      if (intercepted > 0) return route.continue();
      intercepted++;
      // The server gets the refresh and rotates the token (sent from here, so its answer reaches no browser), and the
      // page's own request dies, as on a reload that lands between the two.
      // An encrypted {} body and a client key, as the suite's server requires encryption (the cookie carries the token).
      const key = ((await (await fetch(`${baseUrl}/api/crypto/key`)).json()) as { data: { key: { kid: string; jwk: crypto.JsonWebKey } } }).data.key;
      const body = await new CompactEncrypt(new TextEncoder().encode('{}'))
        .setProtectedHeader({
          alg: 'ECDH-ES',
          enc: 'A256GCM',
          kid: key.kid,
          htm: 'POST',
          htu: REFRESH,
          iat: Math.floor(Date.now() / 1000),
          jti: crypto.randomBytes(16).toString('base64url'),
        })
        .encrypt(crypto.createPublicKey({ key: key.jwk, format: 'jwk' }));
      const pair = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const { kty, crv, x, y } = pair.publicKey.export({ format: 'jwk' });
      const res = await fetch(`${baseUrl}${REFRESH}`, {
        method: 'POST',
        headers: {
          cookie: `farmland_refresh=${before}`,
          'content-type': 'application/jose',
          'x-client-key': Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url'),
        },
        body,
      });
      const answer = new TextDecoder().decode((await compactDecrypt(await res.text(), pair.privateKey)).plaintext);
      serverRotated = res.status === 200 ? 'yes' : answer;
      await route.abort('aborted');
    });
    try {
      await s.page.reload();
      await expect.poll(() => serverRotated).not.toBe('');
      expect(serverRotated).toBe('yes');
      expect(intercepted).toBe(1);
      // The aborted refresh left this load without a session; the next load presents the old cookie again.
      expect(await refreshCookie(s.page)).toBe(before);
      await s.page.goto('/admin/farmers');
      await farmersShown(s.page);
      expect(await refreshCookie(s.page)).not.toBe(before);
    } finally {
      await s.page.unroute(`**${REFRESH}`);
    }
  });
});

describe('tabs', () => {
  it('two tabs opened at the same moment after sign-in both stay signed in', async () => {
    const [a, b] = [await s.context.newPage(), await s.context.newPage()];
    try {
      await Promise.all([a.goto('/admin/farmers'), b.goto('/admin/farmers')]);
      await Promise.all([farmersShown(a), farmersShown(b)]);
      // Both again at once, and the first tab once more: every refresh presented the token the one before it stored.
      await Promise.all([a.reload(), b.reload()]);
      await Promise.all([farmersShown(a), farmersShown(b)]);
      await s.page.reload();
      await farmersShown(s.page);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
