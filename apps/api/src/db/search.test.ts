// Searches that leave a common word to the recheck (db/search.ts): the words an index condition uses, the rule that
// picks them from a sample, and the property that matters: whatever words the index uses, the answer is the plain
// pattern's.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../test/harness.js';
import { freshSpot } from '../test/geo-fixtures.js';
import { listFarmers } from '../modules/farmers/farmers.queries.js';
import { listFarms } from '../modules/farms/farms.queries.js';
import { queryRows, scopedReader, withScope } from './client.js';
import { forgetSearchSamples, matchesSearch, narrowWords, searchTerms, searchWords, type SearchColumn, type SearchTerms } from './search.js';

describe('search words and the narrowing rule', () => {
  it('words are runs of letters and digits of 3 or more, once each (case folded), as typed', () => {
    expect(searchWords('farm 12345')).toEqual(['farm', '12345']);
    expect(searchWords('SCALE-12345 scale')).toEqual(['SCALE', '12345']);
    expect(searchWords('ab 50% x_y')).toEqual([]);
    expect(searchWords('Óla straße 北京市')).toEqual(['Óla', 'straße', '北京市']);
    expect(searchWords('  ')).toEqual([]);
  });

  const sample = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i).toLowerCase());

  it('a common word is left out when a rare word stands in for it', () => {
    const names = sample(1000, (i) => `Scale farm ${i * 7}`);
    expect(narrowWords('farm 12345', names)).toEqual(['12345']);
    expect(narrowWords('Scale FARM 99999', names)).toEqual(['99999']);
  });

  it("remembers a word's share with the sample: the same answer without a second scan", () => {
    const names = sample(1000, (i) => `Scale farm ${i * 7}`);
    const memo = new Map<string, number>();
    expect(narrowWords('FARM 12345', names, memo)).toEqual(['12345']);
    expect(memo).toEqual(
      new Map([
        ['farm', 1],
        ['12345', 0],
      ]),
    );
    // A remembered share is used as it is (here a made-up one, to show no scan happens).
    memo.set('12345', 0.5);
    expect(narrowWords('farm 12345', names, memo)).toBeNull();
  });

  it('no narrowing: a small sample, no common word, every word common, or no rare word', () => {
    expect(
      narrowWords(
        'farm 12345',
        sample(150, (i) => `farm ${i}`),
      ),
    ).toBeNull();
    expect(
      narrowWords(
        'plot 12345',
        sample(1000, (i) => `farm ${i}`),
      ),
    ).toBeNull();
    expect(
      narrowWords(
        'scale farm',
        sample(1000, (i) => `scale farm ${i}`),
      ),
    ).toBeNull();
    // "chidi" is held by 1 name in 20: not common, but not rare either, so the plain pattern's trigrams decide.
    const names = sample(1000, (i) => `${i % 20 === 0 ? 'Chidi' : 'Ade'} farm ${i}`);
    expect(narrowWords('farm chidi', names)).toBeNull();
    // "123" alone is rare (1 in 1,000): the common "farm" is left out.
    expect(narrowWords('farm 123', names)).toEqual(['123']);
  });
});

describe('narrowed searches answer as the plain pattern', () => {
  let env: TestEnv;
  const tag = `NRW${Date.now()}`;
  const tokens = ['Farm', 'farm', 'Plot', 'Óla', 'straße', '12345', '1234', '50%', 'a_b', 'x\\y', 'SCALE', tag];

  beforeAll(async () => {
    env = await testEnv();
    // Farmers and farms of tenant B whose names mix the tokens; a farm's farmer is one of them, so farm searches match
    // through the farm's name, the farmer's name and the folio id.
    const rnd = fc.sample(fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 4 }), { numRuns: 120, seed: 7 });
    const seps = [' ', '-', '', ' '];
    const names = rnd.map((ws, i) => ws.join(seps[i % seps.length]));
    const farmerIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const [row] = await env.sql<{ id: string }>(sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, phone_number, email)
        VALUES (${env.fx.tenantB}, ${names[i]!}, ${tag}, ${`${tag}-${i}-${names[i + 40]!}`}, ${`+234${i}12345`}, ${i % 3 === 0 ? `${names[i + 80]!.replace(/\s/g, '')}@x.example` : null}) RETURNING id`);
      farmerIds.push(row!.id);
    }
    const [lng, lat] = freshSpot();
    for (let i = 0; i < 40; i++) {
      await env.sql(sql`INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
        SELECT ${env.fx.tenantB}, ${farmerIds[(i * 3) % 40]!}, ${`${names[(i * 7) % 120]!} ${tag}`}, g, ST_Area(g::geography)
          FROM (SELECT ST_MakeEnvelope(${lng + i * 0.01}, ${lat}, ${lng + i * 0.01 + 0.001}, ${lat + 0.001}, 4326) AS g) s`);
    }
  });
  afterAll(async () => {
    await env.sql(sql`DELETE FROM farms WHERE tenant_id = ${env.fx.tenantB} AND name LIKE ${`%${tag}`}`);
    await env.sql(sql`DELETE FROM farmers WHERE tenant_id = ${env.fx.tenantB} AND last_name = ${tag}`);
  });

  const read = () => scopedReader(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB });
  const farmerIdsOf = async (search: string | SearchTerms) => (await listFarmers(read(), env.fx.tenantB, { search }, 500, 0)).rows.map((r) => r.id).sort();
  const farmIdsOf = async (search: string | SearchTerms) => (await listFarms(read(), env.fx.tenantB, { search }, 500, 0)).rows.map((r) => r.id).sort();

  // A search: a run of tokens as a name would hold them, or a piece cut from one.
  const searchArb = fc.oneof(
    fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 3 }).chain((ws) => fc.constantFrom(ws.join(' '), ws.join('-'), ws.join(''))),
    fc.tuple(fc.constantFrom(...tokens), fc.constantFrom(...tokens), fc.nat(6), fc.nat(6)).map(([a, b, i, j]) => `${a} ${b}`.slice(i, i + 3 + j)),
  );
  const columns: SearchColumn[] = ['farms.name', 'farmers.full_name', 'farmers.folio_id', 'farmers.phone_number', 'farmers.email'];

  it('for any words of the search on any column, farmers and farms match as the plain pattern (fast-check)', async () => {
    let narrowed = 0;
    await fc.assert(
      fc.asyncProperty(searchArb, fc.array(fc.nat(), { minLength: columns.length, maxLength: columns.length }), async (text, picks) => {
        const words = searchWords(text);
        const indexWords: SearchTerms['indexWords'] = {};
        // Each column: a subset of the words (bit mask), none meaning the plain pattern.
        columns.forEach((c, i) => {
          const chosen = words.filter((_, k) => (picks[i]! >> k) & 1);
          if (chosen.length) indexWords[c] = chosen;
        });
        if (Object.keys(indexWords).length) narrowed++;
        const terms = { text, indexWords };
        expect(await farmerIdsOf(terms), text).toEqual(await farmerIdsOf(text));
        expect(await farmIdsOf(terms), text).toEqual(await farmIdsOf(text));
      }),
      { numRuns: 80, seed: 11 },
    );
    expect(narrowed).toBeGreaterThan(30);
    // The data do match: a search for the tag finds every farmer and farm.
    expect(await farmerIdsOf(tag)).toHaveLength(40);
    expect(await farmIdsOf(tag)).toHaveLength(40);
  });

  it('a narrowed column keeps only its rare words in the index condition and checks the whole text on the rows', async () => {
    const plan = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, async (tx) => {
      await tx.execute(sql`SELECT set_config('enable_seqscan', 'off', true)`);
      const where = matchesSearch(sql`fr.full_name`, 'farmers.full_name', { text: 'farm 12345', indexWords: { 'farmers.full_name': ['12345'] } });
      const rows = await queryRows<Record<string, string>>(tx, sql`EXPLAIN SELECT id FROM farmers fr WHERE ${where}`);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('farmers_full_name_trgm_idx');
    expect(plan).toMatch(/Index Cond: \(full_name ~~\* '%12345%'::text\)/);
    expect(plan).toMatch(/Filter: .*'%farm 12345%'/);
  });

  it('searchTerms reads a sample across tenants and leaves out a word most names hold', async () => {
    const common = `Cmn${Date.now() % 100000}`;
    // Farmers named with one word, a third of the table or more (other test files share this database): it becomes common.
    const [{ n }] = (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farmers`)) as [{ n: number }];
    await env.sql(sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id)
                      SELECT ${env.fx.tenantA}, ${common}, 'N' || g, ${`${common}-`} || g FROM generate_series(1, ${Math.max(2500, Math.ceil(n / 2))}::int) g`);
    // Test files share this worker's modules and database: a sample an earlier file's search read is forgotten.
    forgetSearchSamples(env.deps.db);
    try {
      const terms = await searchTerms(env.deps.db, `${common} 98765`, ['farmers.full_name', 'farmers.folio_id', 'farmers.email']);
      expect(terms.indexWords?.['farmers.full_name']).toEqual(['98765']);
      expect(terms.indexWords?.['farmers.folio_id']).toEqual(['98765']);
      // E-mails hold neither word: the plain pattern.
      expect(terms.indexWords?.['farmers.email']).toBeUndefined();
      // One word, nothing to leave out.
      expect(await searchTerms(env.deps.db, common, ['farmers.full_name'])).toEqual({ text: common });
      // Through the API: the same answer as ever (tenant A's farmer, not tenant B's).
      const res = await env.as('adminA').get(`/api/farmers/?search=${encodeURIComponent(`${common} N2499`)}`);
      expect(res.status).toBe(200);
      expect(res.body.data.results.map((r: { last_name: string }) => r.last_name)).toEqual(['N2499']);
      expect((await env.as('adminB').get(`/api/farmers/?search=${encodeURIComponent(`${common} N2499`)}`)).body.data.count).toBe(0);
    } finally {
      await env.sql(sql`DELETE FROM farmers WHERE tenant_id = ${env.fx.tenantA} AND first_name = ${common}`);
    }
  });
});
