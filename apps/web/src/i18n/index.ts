// The console's texts: one react-intl instance per page load, in the chosen language (locale.ts). `t()` works in and
// out of components (column definitions, notifications); `<FormattedMessage>` works under the app's RawIntlProvider
// for texts with markup. English is each descriptor's defaultMessage; French is loaded before the first render.
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { Locale as AntdLocale } from 'antd/es/locale';
import enGB from 'antd/es/locale/en_GB';
import type { Text } from './define';
import { currentLocale } from './locale';

export { defineMessages, translate, type Text, type Catalogue } from './define';
export { currentLocale, chooseLocale, formatLocale, LOCALES, type Locale } from './locale';

/** Plain values (markup goes through <FormattedMessage> with the same descriptor). */
type Values = Record<string, string | number | boolean | Date | null | undefined>;

const cache = createIntlCache();
let intl: IntlShape = createIntl({ locale: 'en', defaultLocale: 'en', messages: {} }, cache);
let antd: AntdLocale = enGB;

function reportMissing(err: { code?: string; message: string }): void {
  // A French text missing at run time falls back to English; catalogue.test.ts keeps that from shipping.
  if (import.meta.env?.DEV) console.warn(err.message);
}

/** Loads the chosen language's catalogue (French: its own chunk). Called once, before the first render. */
export async function initI18n(): Promise<void> {
  const locale = currentLocale();
  document.documentElement.lang = locale;
  if (locale === 'fr') {
    const fr = await import('./fr');
    fr.applyDayjsLocale();
    antd = fr.antdLocale;
    intl = createIntl({ locale: 'fr', defaultLocale: 'en', messages: fr.frMessages, onError: reportMissing }, cache);
  }
}

/** Tests only: use these messages (French texts keyed by id) for the rest of the test file. */
export function setMessagesForTest(locale: 'en' | 'fr', messages: Record<string, string>): void {
  intl = createIntl({ locale, defaultLocale: 'en', messages, onError: reportMissing }, cache);
}

/** The text in the page's language. */
export function t(text: Text, values?: Values): string {
  return intl.formatMessage(text, values);
}

/** The react-intl instance, for RawIntlProvider and FormattedMessage. */
export function currentIntl(): IntlShape {
  return intl;
}

/** Ant Design's own texts (pagination, pickers, empty states) in the page's language. */
export function antdLocale(): AntdLocale {
  return antd;
}
