// Ant Design's popups, drawers and lists, driven by their state rather than by timing. A menu or a select list opens with
// a motion (classes such as ant-slide-up-appear-active, and a CSS animation): a click that lands while it is still
// opening can be lost (seen in CI), so every choice here waits for the popup to be open and still, clicks, and then
// checks that the choice was taken (the menu closed, the select's aria-expanded went back to false). Drawers are closed
// by their Close button and awaited until their content is gone, so no test leaves one open for the next.
import type { Locator, Page } from 'playwright-core';

const TIMEOUT = 15_000;

/** Waits until the element is visible and neither in an opening/closing motion class nor running a finite animation. */
export async function waitUntilStill(page: Page, popup: Locator, timeout = TIMEOUT): Promise<void> {
  await popup.waitFor({ state: 'visible', timeout });
  const handle = await popup.elementHandle({ timeout });
  if (!handle) throw new Error('popup vanished before it settled');
  await page.waitForFunction(
    (el) => {
      if (/-(appear|enter|leave)(-prepare|-start|-active)?(\s|$)/.test(el.className)) return false;
      return !el.getAnimations({ subtree: true }).some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
    },
    handle,
    { polling: 'raf', timeout },
  );
  await handle.dispose();
}

/** The open (not hidden) Ant Design dropdown menus. */
const openMenus = (page: Page) => page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');

/** Waits until no dropdown menu is open or closing (a previous menu's closing motion is over). */
export async function noMenuOpen(page: Page, timeout = TIMEOUT): Promise<void> {
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('.ant-dropdown')).every(
        (el) => el.classList.contains('ant-dropdown-hidden') || getComputedStyle(el).display === 'none',
      ),
    undefined,
    { polling: 'raf', timeout },
  );
}

/**
 * Opens the dropdown menu of `trigger`, waits for it to be open and still, and clicks `item`. Unless `keepOpen` (a menu of
 * checkboxes), the menu must then close: that proves the click was taken.
 */
export async function chooseMenuItem(page: Page, trigger: Locator, item: string | RegExp, opts: { keepOpen?: boolean } = {}): Promise<void> {
  const name = typeof item === 'string' ? { name: item, exact: true } : { name: item };
  const menu = openMenus(page).filter({ has: page.getByRole('menuitem', name) });
  if (!(await menu.isVisible())) {
    await noMenuOpen(page);
    await trigger.click();
  }
  await waitUntilStill(page, menu);
  await menu.getByRole('menuitem', name).click();
  if (!opts.keepOpen) await menu.waitFor({ state: 'hidden' });
}

/** Closes an open menu with Escape and waits until it is gone. */
export async function closeMenu(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await noMenuOpen(page);
}

/**
 * Chooses `option` in the Ant Design select whose combobox is `combobox` (e.g. getByLabel('Status')): opens it (once),
 * waits for its own list (aria-controls) to be open and still, clicks the option, and waits until the select closed.
 */
export async function chooseOption(page: Page, combobox: Locator, option: string | RegExp | { first: true }): Promise<string> {
  if ((await combobox.getAttribute('aria-expanded')) !== 'true') await combobox.click();
  await page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'true', await combobox.elementHandle(), { polling: 'raf', timeout: TIMEOUT });
  const listId = await combobox.getAttribute('aria-controls');
  const popup = listId
    ? page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${listId}"]`) })
    : page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await waitUntilStill(page, popup);
  const options = popup.locator('.ant-select-item-option');
  const target = typeof option === 'object' && 'first' in option ? options.first() : options.filter({ hasText: option }).first();
  const text = (await target.innerText()).trim();
  await target.click();
  await page.waitForFunction((el) => el.getAttribute('aria-expanded') !== 'true', await combobox.elementHandle(), { polling: 'raf', timeout: TIMEOUT });
  return text;
}

/** Closes the drawer that holds `content` with its Close button and waits until the content is gone. */
export async function closeDrawer(page: Page, content: Locator): Promise<void> {
  await page.locator('.ant-drawer').filter({ has: content }).getByRole('button', { name: 'Close' }).click();
  await content.waitFor({ state: 'hidden' });
}

/** Waits until a Modal with this title is open and still (its buttons no longer move), and returns it. */
export async function openedDialog(page: Page, title: string): Promise<Locator> {
  const dialog = page.getByRole('dialog').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
  await waitUntilStill(page, page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) }));
  return dialog;
}

/** Waits until a confirmation (a Modal without a title bar) holding this text is open and still, and returns it. */
export async function openedConfirm(page: Page, text: string): Promise<Locator> {
  await waitUntilStill(page, page.locator('.ant-modal').filter({ hasText: text }));
  return page.getByRole('dialog').filter({ hasText: text });
}

/** Opens a list screen at a known address and waits for its heading and first answer (rows or the empty text). */
export async function openList(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.locator('section[aria-labelledby] .ant-table-row, section[aria-labelledby] .ant-table-placeholder .ant-empty').first().waitFor();
  await page.locator('section[aria-labelledby] .ant-table .ant-spin-spinning').waitFor({ state: 'detached' });
}

/** Waits until no Ant Design open/close motion is under way on the page (no motion class, no finite animation running). */
export async function motionsSettled(page: Page, timeout = 5_000): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[class*="-appear-start"], [class*="-appear-active"], [class*="-enter-start"], [class*="-enter-active"], [class*="-leave-start"], [class*="-leave-active"]',
      ) && !document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity),
    undefined,
    { polling: 'raf', timeout },
  );
}
