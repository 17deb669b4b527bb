// The API's field messages in French: every message written out in the contracts (found in their source), the ones they
// build with figures (made by the contracts' own functions) and zod's own English (made by zod) have a French text;
// in English each reads exactly as the server sent it.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { normalizePolygonInput, extentProblem } from '@farmland/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMessagesForTest } from '../i18n';
import { setLocaleForTest } from '../i18n/locale';
import french from './contract-messages.messages.fr';
import { localContractMessage } from './contract-messages';
import { localFieldMessage } from './api-errors';

const CONTRACTS = path.resolve(__dirname, '../../../../packages/contracts/src');

/** Literals of the contracts that are parts of a built message or descriptions, not messages themselves. */
const NOT_MESSAGES = new Set([
  'Admin email',
  'Admin phone number',
  'Phone number',
  'A polygon',
  'An operational area',
  'The forest share',
  'The tree-cover loss share',
  'The protected-area share',
]);

/** Sentence-like single-quoted literals of the contracts outside OpenAPI descriptions: the messages they write out. */
function contractLiterals(): string[] {
  const found = new Set<string>();
  for (const file of fs.readdirSync(CONTRACTS)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(CONTRACTS, file), 'utf8');
    for (const m of text.matchAll(/'((?:[^'\\\n]|\\.)*)'/g)) {
      const literal = m[1]!;
      if (!/^[A-Z]/.test(literal) || !literal.includes(' ') || literal.length < 8) continue;
      const before = text.slice(Math.max(0, m.index - 40), m.index);
      if (/(describe\(\s*|description:\s*|summary:\s*|title:\s*|meta\(\{[^}]*)$/.test(before)) continue;
      if (!NOT_MESSAGES.has(literal)) found.add(literal.replace(/\\'/g, "'"));
    }
  }
  return [...found];
}

/** Messages the contracts build, made by their own functions and schemas. */
function builtMessages(): string[] {
  const problem = (input: unknown, kind?: 'farm' | 'operational_area') => {
    const r = normalizePolygonInput(input, kind);
    return r.ok ? null : r.message;
  };
  const square = (x: number, y: number, d: number) => [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
  ];
  const out = [
    problem([
      [1, 2],
      [3, 4],
      [5, 95],
    ]),
    problem([
      [1, 2],
      [3, 4],
      [500000, 9000000],
    ]),
    problem([
      [1, 2],
      [3, 4],
      [181, 45],
    ]),
    problem([
      square(1, 1, 0.1),
      [
        [1, 1],
        [1, 2],
        [1, 'x'],
      ],
    ]),
    problem([
      [1, 2],
      [1, 2],
      [3, 4],
    ]),
    problem([
      square(1, 1, 0.1),
      [
        [1, 1],
        [1, 1],
        [1, 1],
      ],
    ]),
    problem([square(1, 1, 0.1), 'x']),
    problem(square(1, 1, 2), 'farm'),
    extentProblem(
      [
        [
          [179.9, 1],
          [-179.9, 1],
          [-179.9, 1.1],
          [179.9, 1],
        ],
      ],
      'operational_area',
    ),
  ];
  return out.filter((m): m is string => m !== null);
}

/** zod's own English for the checks the contracts leave to it. */
function zodMessages(): string[] {
  const schema = z.object({
    a: z.string().max(3),
    b: z.string().min(2),
    c: z.number().max(5),
    d: z.number().lt(5),
    e: z.number().min(5),
    f: z.number().gt(5),
    g: z.array(z.number()).max(1),
    h: z.array(z.number()).min(2),
    i: z.uuid(),
    j: z.number().int(),
    k: z.url(),
    l: z.literal('x'),
    m: z.boolean(),
    n: z.enum(['a', 'b']),
    o: z.email(),
    p: z.string(),
  });
  const r = schema.safeParse({ a: 'abcd', b: 'a', c: 7, d: 7, e: 1, f: 1, g: [1, 2], h: [], i: 'x', j: 1.5, k: 'x', l: 'y', m: 'q', n: 'z', o: 'no' });
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('field messages of the API', () => {
  it('finds the messages the contracts write out, the ones they build and zod’s', () => {
    expect(contractLiterals().length).toBeGreaterThan(50);
    expect(builtMessages()).toHaveLength(9);
    expect(zodMessages()).toHaveLength(16);
  });

  it('read in English exactly as the server sent them', () => {
    for (const message of [...contractLiterals(), ...builtMessages(), ...zodMessages()]) {
      expect(localContractMessage(message), message).toBe(message);
      expect(localFieldMessage(message)).toBe(message);
    }
  });

  describe('in French', () => {
    beforeAll(() => {
      setLocaleForTest('fr');
      setMessagesForTest('fr', french);
    });
    afterAll(() => {
      setLocaleForTest('en');
      setMessagesForTest('en', {});
    });

    it('every one has a French text', () => {
      for (const message of [...contractLiterals(), ...builtMessages(), ...zodMessages()]) {
        const local = localContractMessage(message);
        expect(local, message).not.toBeNull();
        expect(local, message).not.toBe(message);
      }
    });

    it('carries figures and names over', () => {
      expect(
        localFieldMessage(
          'Position 3 of ring 2 [500000, 9000000] is out of range (|longitude| ≤ 180, |latitude| ≤ 90): these look like metres; send WGS84 degrees',
        ),
      ).toBe(
        'La position 3 de l’anneau 2 [500000, 9000000] est hors limites (|longitude| ≤ 180, |latitude| ≤ 90) : ce sont sans doute des mètres ; envoyez des degrés WGS84',
      );
      expect(localFieldMessage('Too big: expected string to have <=200 characters')).toBe('Trop long : au plus 200 caractères');
      expect(localFieldMessage('area_id must be an id')).toBe('area_id doit être un identifiant');
      expect(localFieldMessage('Not a message the catalogue knows')).toBe('Not a message the catalogue knows');
    });
  });
});
