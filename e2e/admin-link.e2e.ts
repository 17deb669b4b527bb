// The automatic admin login through /#q=<request_id> (made by `npm run admin-link` against the running server; the older
// /?q= form still works), the
// provider frame it lands in, and the ec=105 / ec=106 messages that then return to /.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ACCOUNTS, createAdminLink, sidebarItems } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
// Reference Layers is beyond the spec's list (issue 29; docs/decisions/0077-reference-layers-screen.md).
const PROVIDER_SIDEBAR = ['Dashboard', 'Tenant', 'License', 'Farmlands', 'Reports', 'Reference Layers', 'Activity Log', 'Profile'];
let browser: Browser;
const sessions: Session[] = [];

async function fresh(): Promise<Session> {
  const s = await openPage(browser, baseUrl);
  sessions.push(s);
  return s;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin link login', () => {
  let requestId = '';

  it('signs a super-admin in through /#q=<request_id> and lands on /super-admin/dashboard', async () => {
    requestId = createAdminLink(server);
    const { page } = await fresh();
    await page.goto(`/#q=${requestId}`);
    await page.waitForURL(/\/super-admin\/dashboard$/);
    await page.getByText('Login successful').first().waitFor();
    await expect.poll(() => sidebarItems(page)).toEqual(PROVIDER_SIDEBAR);
    await screenshot(page, '20-provider-dashboard');
  });

  it('refuses a link used twice with ec=105 "Invalid Service Provider", then returns to /', async () => {
    const { page } = await fresh();
    await page.goto(`/?q=${requestId}`);
    await page.getByText('Invalid Service Provider', { exact: true }).first().waitFor();
    await page.waitForURL((u: URL) => u.pathname === '/' && u.search === '');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, '21-admin-link-ec-105');
  });

  it('shows the ec=105 and ec=106 messages from the URL, then returns to /', async () => {
    const { page } = await fresh();
    await page.goto('/?ec=105');
    await page.getByText('Invalid Service Provider', { exact: true }).first().waitFor();
    await page.waitForURL((u: URL) => u.pathname === '/' && u.search === '');
    await page.goto('/?ec=106');
    await page.getByText('You do not have the right access to this service Provider', { exact: true }).first().waitFor();
    await page.waitForURL((u: URL) => u.pathname === '/' && u.search === '');
  });

  it("answers a tenant admin's link with ec=106", async () => {
    const id = createAdminLink(server, ACCOUNTS.adminB);
    const { page } = await fresh();
    await page.goto(`/?q=${id}`);
    await page.getByText('You do not have the right access to this service Provider', { exact: true }).first().waitFor();
    await page.waitForURL((u: URL) => u.pathname === '/' && u.search === '');
  });

  it('raised no uncaught errors in the pages', () => {
    expect(sessions.flatMap((s) => s.errors)).toEqual([]);
  });
});
