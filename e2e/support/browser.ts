// Chromium for the browser suite: Debian's /usr/bin/chromium driven by playwright-core (browsers cannot be downloaded
// here), headless, with the flags these machines need. Also: screenshots into e2e/artifacts and an axe check.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { motionsSettled } from './ui';

const require = createRequire(import.meta.url);
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

// WebGL (the maps) runs on SwiftShader: --enable-unsafe-swiftshader --use-angle=swiftshader.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

export type Session = { context: BrowserContext; page: Page; errors: string[] };

/** A fresh context (its own cookies) and page; uncaught page errors are collected so a test can assert there were none. */
export async function openPage(browser: Browser, baseURL: string, viewport = { width: 1366, height: 860 }): Promise<Session> {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true, locale: 'en-GB', timezoneId: 'Africa/Lagos' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  // Let Ant Design's open/close motions settle, so the picture shows the screen as the user sees it (a picture is not
  // worth failing a test over: after 5 s it is taken as it is).
  await motionsSettled(page).catch(() => undefined);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[]; html?: string; summary?: string }[] };

/** Runs axe-core in the page (WCAG 2.1 A and AA rules) and returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  return (await a11yViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Runs axe-core in the page and returns the violations of every impact (minor, moderate, serious, critical). */
export async function a11yViolations(page: Page): Promise<AxeViolation[]> {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the console's CSP (no inline script) rightly refuses an injected <script>.
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    type AxeNode = { target: unknown[]; html: string; failureSummary?: string };
    type AxeResult = { id: string; impact: string | null; help: string; nodes: AxeNode[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeResult[] }> } }).axe;
    const res = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, summary: n.failureSummary })),
    }));
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, `axe-${new URL(page.url()).pathname.replace(/\W+/g, '-') || 'root'}.json`), JSON.stringify(violations, null, 2));
  return violations;
}
