// The console's language: English (the spec's texts) or French, chosen in Profile and remembered on this device
// (localStorage). The choice is read once per page load; changing it reloads the page, so every text, column and
// memoised value is built in one language (docs/decisions/0088-console-languages.md).
export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_STORAGE_KEY = 'farmland.locale';

function stored(): Locale {
  try {
    const value = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    return (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en';
  } catch {
    return 'en';
  }
}

let current: Locale = stored();

/** The language of this page load. */
export function currentLocale(): Locale {
  return current;
}

/** The BCP 47 tag numbers and dates are formatted with: English keeps the spec's forms (1,234.56), French its own (1 234,56). */
export function formatLocale(): string {
  return current === 'fr' ? 'fr-FR' : 'en-US';
}

/** Remembers the choice on this device and reloads the page in that language. */
export function chooseLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // private mode: the choice lasts for this page only
  }
  if (locale !== current) globalThis.location?.reload();
}

/** Tests only: switch the language without a reload. */
export function setLocaleForTest(locale: Locale): void {
  current = locale;
}
