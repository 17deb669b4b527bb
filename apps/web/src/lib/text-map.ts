// A label map (`Record<Status, string>`) whose values are catalogue texts: each value is read in the page's language
// when it is used, never when the module loads (a module can load before the language's texts do).
import { t, type Text } from '../i18n';

export function textMap<K extends string>(texts: Record<K, Text>): Readonly<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const key of Object.keys(texts) as K[]) Object.defineProperty(out, key, { enumerable: true, get: () => t(texts[key]) });
  return out;
}
