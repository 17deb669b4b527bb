// Finding English on a French screen (e2e/i18n-french.e2e.ts). The heuristic, in two parts:
//  1. a visible text (a text node, or an aria-label, placeholder, title or alt) that is exactly one of the console's
//     English catalogue texts whose French differs (read from apps/web/src/**/*.messages.ts and their *.messages.fr.ts
//     with the TypeScript parser, plain texts only: no placeholders), anywhere on the page, names and data included;
//  2. outside elements marked translate="no" (names and data: list cells, people's names, emails, tenant names), a text
//     with an English function word ("the", "of", "your", "with", ...: words that are not French, so a French sentence
//     never has them, while almost every English sentence does).
// Skipped: scripts, styles, hidden elements (visually-hidden texts for screen readers are checked), the map's credits
// (third-party attributions, as their authors write them) and the language picker's own names ("English").
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Page } from 'playwright-core';

const WEB_SRC = path.resolve(import.meta.dirname, '../../apps/web/src');

/** English words that are not French words: one of them in a text means the text is English. */
export const ENGLISH_FUNCTION_WORDS = [
  'the',
  'and',
  'of',
  'to',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'has',
  'have',
  'had',
  'your',
  'you',
  'with',
  'for',
  'from',
  'this',
  'that',
  'these',
  'those',
  'not',
  'will',
  'can',
  'into',
  'than',
  'their',
  'they',
  'them',
  'which',
  'what',
  'when',
  'where',
  'who',
  'how',
  'any',
  'each',
  'please',
  'yet',
  'by',
  'at',
  'it',
  'its',
  'no',
  'none',
  'all',
  'there',
  'here',
  'could',
  'would',
  'should',
  'been',
  'does',
  'did',
  'our',
  'we',
];

function files(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'field') out.push(...files(full, suffix));
    } else if (entry.name.endsWith(suffix)) out.push(full);
  }
  return out;
}

/** The string properties of the object literal given to `fn(...)` in a file: { key: text }. */
function literalTexts(file: string, fn: string): Map<string, Record<string, string>> {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map<string, Record<string, string>>();
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === fn) {
      const [first, second] = node.arguments;
      const name = first && ts.isStringLiteral(first) ? first.text : (first?.getText(source) ?? '');
      if (second && ts.isObjectLiteralExpression(second)) {
        const texts: Record<string, string> = {};
        for (const p of second.properties) {
          if (ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.initializer) || ts.isNoSubstitutionTemplateLiteral(p.initializer))) {
            texts[p.name.getText(source).replace(/^['"]|['"]$/g, '')] = p.initializer.text;
          }
        }
        found.set(name, texts);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The catalogue's English texts whose French differs: plain texts (no placeholder or tag) with at least 3 letters. */
export function englishCatalogueTexts(): string[] {
  const english = new Map<string, Record<string, string>>(); // by the catalogue's variable name
  for (const file of files(WEB_SRC, '.messages.ts')) {
    const source = fs.readFileSync(file, 'utf8');
    for (const [namespace, texts] of literalTexts(file, 'defineMessages')) {
      const variable = new RegExp(`export const (\\w+) = defineMessages\\('${namespace}'`).exec(source)?.[1];
      if (variable) english.set(variable, texts);
    }
  }
  const out = new Set<string>();
  // A text that is also some French text of the catalogue is French too: "Active" is an English tenant status and the
  // French of a licence's (feminine) status.
  const frenchTexts = new Set<string>();
  for (const file of files(WEB_SRC, '.messages.fr.ts')) {
    for (const [variable, french] of literalTexts(file, 'translate')) {
      for (const text of Object.values(french)) frenchTexts.add(text.trim());
      const en = english.get(variable);
      if (!en) continue;
      for (const [key, text] of Object.entries(en)) {
        if (/[{}<]/.test(text) || !/\p{L}{3}/u.test(text)) continue;
        if (french[key] !== undefined && french[key].trim() !== text.trim()) out.add(text.trim());
      }
    }
  }
  return [...out].filter((text) => !frenchTexts.has(text));
}

export type EnglishFound = { text: string; where: string; why: 'catalogue' | 'function word' };

/** The English texts visible on the page, by the heuristic above. */
export async function englishOnPage(page: Page, catalogue: readonly string[]): Promise<EnglishFound[]> {
  return page.evaluate(
    ({ catalogue, words }) => {
      const known = new Set(catalogue);
      const wordSet = new Set(words);
      const found: EnglishFound[] = [];
      const seen = new Set<string>();
      const SKIP = 'script, style, noscript, template, .maplibregl-ctrl-attrib, [data-testid="profile-language"], .ant-select-dropdown [lang]';
      const where = (el: Element) => {
        const parts: string[] = [];
        for (let e: Element | null = el; e && parts.length < 3 && e !== document.body; e = e.parentElement) {
          const testId = e.getAttribute('data-testid');
          parts.unshift(testId ? `[data-testid=${testId}]` : e.tagName.toLowerCase() + (e.classList[0] ? `.${e.classList[0]}` : ''));
        }
        return parts.join(' > ');
      };
      const shown = (el: Element) => {
        if (el.closest('.visually-hidden')) return true;
        return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
      };
      const check = (raw: string, el: Element) => {
        const text = raw.replace(/\s+/g, ' ').trim();
        if (!/\p{L}{2}/u.test(text) || el.closest(SKIP) || !shown(el)) return;
        const key = `${text}@${where(el)}`;
        if (seen.has(key)) return;
        let why: EnglishFound['why'] | null = known.has(text) ? 'catalogue' : null;
        if (!why && !el.closest('[translate="no"]')) {
          // Words of letters in any script: "forêt" is one word, not "for" and "t".
          const tokens = text.toLowerCase().match(/\p{L}+/gu) ?? [];
          if (tokens.some((w) => wordSet.has(w))) why = 'function word';
        }
        if (why) {
          seen.add(key);
          found.push({ text: text.slice(0, 160), where: where(el), why });
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.parentElement) check(n.textContent ?? '', n.parentElement);
      for (const el of Array.from(document.body.querySelectorAll('[aria-label], [placeholder], [title], img[alt]'))) {
        for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
          const v = el.getAttribute(attr);
          if (v) check(v, el);
        }
      }
      return found;
    },
    { catalogue: [...catalogue], words: ENGLISH_FUNCTION_WORDS },
  );
}
