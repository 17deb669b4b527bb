// A field message of the API (the contracts' zod schemas, or zod's own English) in the page's language: the catalogue's
// text when the message is one it knows (contract-messages.messages.ts), its figures and names carried over; null for
// any other, which the caller shows as sent. In English every known message reads exactly as the server sent it.
import { t, type Text } from '../i18n';
import { contractPatternText as p, contractText as m } from './contract-messages.messages';

type Values = Record<string, string | number>;
type Rule = { pattern: RegExp; text: Text; values: (x: RegExpExecArray) => Values };

const exact = new Map<string, Text>(Object.values(m).map((text: Text) => [text.defaultMessage, text]));

const NUM = '(\\d+(?:\\.\\d+)?)';
const POSITION = 'Position (\\d+)(?: of ring (\\d+))?';
const where = (x: RegExpExecArray, i: number) => (x[i + 1] ? t(p.positionOfRing, { n: x[i]!, ring: x[i + 1]! }) : t(p.position, { n: x[i]! }));
const KINDS: Record<string, Text> = { 'A farm': p.aFarm, 'An operational area': p.anOperationalArea };
const kind = (english: string) => (KINDS[english] ? t(KINDS[english]) : english);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The English text of a pattern entry with its {placeholders} replaced by the given groups. */
const shape = (text: Text, groups: Record<string, string>) =>
  new RegExp(`^${esc(text.defaultMessage).replace(/\\\{(\w+)\\\}/g, (_all, name: string) => groups[name] ?? '(.+?)')}$`);

const RULES: readonly Rule[] = [
  { pattern: shape(p.pointPlotMax, { max: NUM }), text: p.pointPlotMax, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.maxLayers, { max: NUM }), text: p.maxLayers, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.controlCharacterOneLine, { code: '([0-9A-F]{4})' }), text: p.controlCharacterOneLine, values: (x) => ({ code: x[1]! }) },
  { pattern: shape(p.controlCharacter, { code: '([0-9A-F]{4})' }), text: p.controlCharacter, values: (x) => ({ code: x[1]! }) },
  { pattern: shape(p.passwordMin, { min: NUM }), text: p.passwordMin, values: (x) => ({ min: x[1]! }) },
  { pattern: shape(p.chooseEvents, { list: '(.+)' }), text: p.chooseEvents, values: (x) => ({ list: x[1]! }) },
  { pattern: shape(p.mustBeId, { field: '(\\w+)' }), text: p.mustBeId, values: (x) => ({ field: x[1]! }) },
  { pattern: shape(p.trueOrFalse, { field: '(\\w+)' }), text: p.trueOrFalse, values: (x) => ({ field: x[1]! }) },
  ...[p.outOfRangeSwapped, p.outOfRangeMetres, p.outOfRange].map((text): Rule => ({
    pattern: new RegExp(`^${POSITION} \\[([^\\]]+)\\]${esc(text.defaultMessage.slice('{where} [{at}]'.length))}$`),
    text,
    values: (x) => ({ where: where(x, 1), at: x[3]! }),
  })),
  {
    pattern: new RegExp(`^${POSITION}${esc(p.notAPair.defaultMessage.slice('{where}'.length))}$`),
    text: p.notAPair,
    values: (x) => ({ where: where(x, 1) }),
  },
  { pattern: shape(p.maxRings, { max: NUM }), text: p.maxRings, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.maxPositions, { max: NUM }), text: p.maxPositions, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.ringNotList, { ring: NUM }), text: p.ringNotList, values: (x) => ({ ring: x[1]! }) },
  {
    pattern: shape(p.distinctPositions, { what: '(A polygon|Ring \\d+)', count: NUM }),
    text: p.distinctPositions,
    values: (x) => ({ what: x[1] === 'A polygon' ? t(p.aPolygon) : t(p.ring, { ring: x[1]!.slice('Ring '.length) }), count: x[2]! }),
  },
  {
    pattern: shape(p.spanTooLarge, { kind: '(A farm|An operational area)', limit: NUM, lng: NUM, lat: NUM }),
    text: p.spanTooLarge,
    values: (x) => ({ kind: kind(x[1]!), limit: x[2]!, lng: x[3]!, lat: x[4]! }),
  },
  { pattern: shape(p.antimeridian, { kind: '(A farm|An operational area)' }), text: p.antimeridian, values: (x) => ({ kind: kind(x[1]!) }) },
  { pattern: shape(p.stringTooLong, { max: NUM }), text: p.stringTooLong, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.stringTooShort, { min: NUM }), text: p.stringTooShort, values: (x) => ({ min: x[1]! }) },
  { pattern: shape(p.numberAtMost, { max: '(-?[\\d.e+-]+)' }), text: p.numberAtMost, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.numberBelow, { max: '(-?[\\d.e+-]+)' }), text: p.numberBelow, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.numberAtLeast, { min: '(-?[\\d.e+-]+)' }), text: p.numberAtLeast, values: (x) => ({ min: x[1]! }) },
  { pattern: shape(p.numberAbove, { min: '(-?[\\d.e+-]+)' }), text: p.numberAbove, values: (x) => ({ min: x[1]! }) },
  { pattern: shape(p.arrayTooLong, { max: NUM }), text: p.arrayTooLong, values: (x) => ({ max: x[1]! }) },
  { pattern: shape(p.arrayTooShort, { min: NUM }), text: p.arrayTooShort, values: (x) => ({ min: x[1]! }) },
  { pattern: shape(p.expectedType, { expected: '(\\w+)', received: '(\\w+)' }), text: p.expectedType, values: (x) => ({ expected: x[1]!, received: x[2]! }) },
  { pattern: shape(p.expectedOneOf, { options: '(.+)' }), text: p.expectedOneOf, values: (x) => ({ options: x[1]! }) },
  { pattern: shape(p.expectedValue, { value: '(.+)' }), text: p.expectedValue, values: (x) => ({ value: x[1]! }) },
];

/** The message in the page's language when the catalogue knows it; null otherwise. */
export function localContractMessage(message: string): string | null {
  const known = exact.get(message);
  if (known) return t(known);
  for (const rule of RULES) {
    const x = rule.pattern.exec(message);
    if (x) return t(rule.text, rule.values(x));
  }
  return null;
}
