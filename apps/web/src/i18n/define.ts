// The catalogue's building blocks. Each feature (and components/, lib/, app/) keeps its English texts in its own
// `<name>.messages.ts` and their French in `<name>.messages.fr.ts`:
//
//   export const farmersText = defineMessages('farmers', { title: 'Farmers', count: '{count, plural, one {# farmer} other {# farmers}}' });
//   export default translate(farmersText, { title: 'Agriculteurs', count: '{count, plural, one {# agriculteur} other {# agriculteurs}}' });
//
// A text is an ICU message (react-intl). Its id is `<namespace>.<key>`. A French file that misses a key, or has one too
// many, does not type-check; i18n/catalogue.test.ts checks every French text's placeholders against its English one.
import type { MessageDescriptor } from 'react-intl';

export interface Text extends MessageDescriptor {
  id: string;
  defaultMessage: string;
}

export type Catalogue<K extends string = string> = { readonly [key in K]: Text } & { readonly [NAMESPACE]: string };

export const NAMESPACE = Symbol('namespace');

/** English texts of one namespace, as react-intl descriptors (`t(farmersText.title)`). */
export function defineMessages<const T extends Record<string, string>>(namespace: string, texts: T): Catalogue<Extract<keyof T, string>> {
  const out: Record<string | symbol, unknown> = { [NAMESPACE]: namespace };
  for (const [key, defaultMessage] of Object.entries(texts)) out[key] = { id: `${namespace}.${key}`, defaultMessage };
  return out as Catalogue<Extract<keyof T, string>>;
}

/** The French of one catalogue: every key, no other. Returns the id → text map the French IntlProvider reads. */
export function translate<K extends string>(catalogue: Catalogue<K>, texts: { readonly [key in K]: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(texts) as K[]) {
    const text = catalogue[key];
    if (!text) throw new Error(`${catalogue[NAMESPACE]}: no English text for ${key}`);
    out[text.id] = texts[key];
  }
  return out;
}
