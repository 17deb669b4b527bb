// The catalogue is whole: every English text has its French, with the same placeholders and the same markup tags, and
// no id is defined twice. Reads every *.messages.ts and *.messages.fr.ts of the console.
import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { NAMESPACE, type Catalogue } from './define';

const english = import.meta.glob<Record<string, unknown>>('../**/*.messages.ts', { eager: true });
const french = import.meta.glob<Record<string, string>>('../**/*.messages.fr.ts', { eager: true, import: 'default' });

function catalogues(): Catalogue[] {
  const out: Catalogue[] = [];
  for (const [file, mod] of Object.entries(english)) {
    if (file.includes('/field/')) continue;
    for (const value of Object.values(mod)) if (value && typeof value === 'object' && NAMESPACE in value) out.push(value as Catalogue);
  }
  return out;
}

/** The argument names and tags of a message, sorted: what a translation must keep. */
function shape(message: string): string[] {
  const names = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) names.add(`{${el.value}}`);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        names.add(`{${el.value}}`);
        for (const opt of Object.values(el.options)) walk(opt.value);
      }
      if (el.type === TYPE.tag) {
        names.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return [...names].sort();
}

describe('the console catalogue', () => {
  const all = catalogues();
  const frMessages: Record<string, string> = Object.assign({}, ...Object.values(french));

  it('reads the catalogues', () => {
    expect(all.length).toBeGreaterThan(0);
    expect(Object.keys(frMessages).length).toBeGreaterThan(0);
  });

  it('defines each id once', () => {
    const seen = new Map<string, string>();
    const namespaces = new Set<string>();
    for (const c of all) {
      expect(namespaces.has(c[NAMESPACE]), `namespace ${c[NAMESPACE]} defined twice`).toBe(false);
      namespaces.add(c[NAMESPACE]);
      for (const text of Object.values(c)) {
        expect(seen.has(text.id), `id ${text.id} defined twice`).toBe(false);
        seen.set(text.id, text.defaultMessage);
      }
    }
  });

  it('has every English text in French, with the same placeholders and tags', () => {
    const missing: string[] = [];
    const differing: string[] = [];
    for (const c of all) {
      for (const text of Object.values(c)) {
        const fr = frMessages[text.id];
        if (fr === undefined || fr.trim() === '') missing.push(text.id);
        else if (shape(fr).join() !== shape(text.defaultMessage).join())
          differing.push(`${text.id}: ${shape(text.defaultMessage).join()} ≠ ${shape(fr).join()}`);
      }
    }
    expect(missing, 'ids without French').toEqual([]);
    expect(differing, 'French texts whose placeholders differ').toEqual([]);
  });

  it('has no French text for an id that no longer exists', () => {
    const ids = new Set(all.flatMap((c) => Object.values(c).map((t) => t.id)));
    expect(Object.keys(frMessages).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('parses every text as an ICU message', () => {
    for (const c of all) for (const text of Object.values(c)) expect(() => parse(text.defaultMessage), text.id).not.toThrow();
    for (const [id, text] of Object.entries(frMessages)) expect(() => parse(text), id).not.toThrow();
  });
});
