// Unit tests for the country/state/city lookup builder: stable UUID v5 ids, referential integrity and Nigeria's data.
import { describe, it, expect } from 'vitest';
import { buildLookups, LOOKUP_NAMESPACE, uuidV5 } from './lookups-data.js';

const UUID_V5_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV5', () => {
  it('matches the RFC 4122 reference vector', () => {
    // uuidv5('www.example.com', DNS namespace), as produced by the `uuid` package and Python's uuid.uuid5.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('is deterministic, namespaced and well-formed', () => {
    expect(uuidV5('country:NG')).toBe(uuidV5('country:NG', LOOKUP_NAMESPACE));
    expect(uuidV5('country:NG')).toMatch(UUID_V5_RE);
    expect(uuidV5('country:NG')).not.toBe(uuidV5('country:GH'));
    expect(uuidV5('country:NG', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).not.toBe(uuidV5('country:NG'));
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(TypeError);
  });
});

describe('buildLookups', () => {
  const t0 = performance.now();
  const first = buildLookups();
  const elapsedMs = performance.now() - t0;
  const second = buildLookups();

  it('builds the expected volumes (its time is printed, not asserted: timing stays out of unit tests)', () => {
    console.info(`buildLookups: ${elapsedMs.toFixed(0)} ms, ${first.countries.length} countries, ${first.states.length} states, ${first.cities.length} cities`);
    expect(first.countries.length).toBeGreaterThanOrEqual(240);
    expect(first.states.length).toBeGreaterThan(4_000);
    expect(first.cities.length).toBeGreaterThan(100_000);
  });

  it('produces the same ids on every call (stable across runs and machines)', () => {
    const ng1 = first.countries.find((c) => c.iso2 === 'NG');
    const ng2 = second.countries.find((c) => c.iso2 === 'NG');
    expect(ng1?.id).toBeDefined();
    expect(ng1?.id).toBe(ng2?.id);
    expect(ng1?.id).toMatch(UUID_V5_RE);
    expect(ng1?.id).toBe(uuidV5('country:NG'));
    expect(first.states.map((s) => s.id)).toEqual(second.states.map((s) => s.id));
    expect(first.cities.length).toBe(second.cities.length);
    for (let i = 0; i < first.cities.length; i += 997) expect(first.cities[i]?.id).toBe(second.cities[i]?.id);
  });

  it('gives Nigeria its currency, flag and codes', () => {
    const ng = first.countries.find((c) => c.iso2 === 'NG');
    expect(ng).toMatchObject({
      name: 'Nigeria',
      iso2: 'NG',
      iso3: 'NGA',
      phone_code: '+234',
      currency_code: 'NGN',
      currency_symbol: '₦',
      currency_name: 'Naira',
      flag_emoji: '🇳🇬',
      country_flag: 'https://flagcdn.com/w80/ng.png',
    });
    expect(typeof ng?.latitude).toBe('number');
    expect(typeof ng?.longitude).toBe('number');
  });

  it('links Oyo State and Ibadan to Nigeria', () => {
    const ng = first.countries.find((c) => c.iso2 === 'NG');
    const oyo = first.states.find((s) => s.country_id === ng?.id && s.code === 'OY');
    expect(oyo?.name).toBe('Oyo');
    expect(oyo?.id).toBe(uuidV5('state:NG:OY'));
    const ibadan = first.cities.find((c) => c.state_id === oyo?.id && c.name === 'Ibadan');
    expect(ibadan?.country_id).toBe(ng?.id);
    expect(ibadan?.latitude).toBeCloseTo(7.38, 1);
    expect(ibadan?.longitude).toBeCloseTo(3.9, 1);
  });

  it('has unique, well-formed ids everywhere', () => {
    const ids = [...first.countries, ...first.states, ...first.cities].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < ids.length; i += 101) expect(ids[i]).toMatch(UUID_V5_RE);
  });

  it('fills every country column with sensible values', () => {
    expect(new Set(first.countries.map((c) => c.iso2)).size).toBe(first.countries.length);
    expect(new Set(first.countries.map((c) => c.iso3)).size).toBe(first.countries.length);
    for (const c of first.countries) {
      expect(c.iso2).toMatch(/^[A-Z]{2}$/);
      expect(c.iso3).toMatch(/^[A-Z]{3}$/);
      expect(c.phone_code.startsWith('+')).toBe(true);
      expect(c.currency_code).toMatch(/^[A-Z]{3}$/);
      expect(c.currency_name.length).toBeGreaterThan(0);
      expect(c.currency_symbol.length).toBeGreaterThan(0);
      expect(c.flag_emoji.length).toBeGreaterThan(0);
      expect(c.country_flag).toBe(`https://flagcdn.com/w80/${c.iso2.toLowerCase()}.png`);
      if (c.latitude !== null) expect(Math.abs(c.latitude)).toBeLessThanOrEqual(90);
      if (c.longitude !== null) expect(Math.abs(c.longitude)).toBeLessThanOrEqual(180);
    }
    const byIso2 = new Map(first.countries.map((c) => [c.iso2, c]));
    expect(byIso2.get('US')).toMatchObject({ iso3: 'USA', currency_code: 'USD', currency_symbol: '$' });
    expect(byIso2.get('GB')?.iso3).toBe('GBR');
    expect(byIso2.get('GH')).toMatchObject({ iso3: 'GHA', currency_code: 'GHS' });
  });

  it('keeps states and cities referentially consistent with numeric coordinates', () => {
    const countryIds = new Set(first.countries.map((c) => c.id));
    const stateCountry = new Map(first.states.map((s) => [s.id, s.country_id]));
    for (const s of first.states) {
      expect(countryIds.has(s.country_id)).toBe(true);
      expect(s.code.length).toBeGreaterThan(0);
      for (const v of [s.latitude, s.longitude]) if (v !== null) expect(Number.isFinite(v)).toBe(true);
    }
    for (const c of first.cities) {
      if (!countryIds.has(c.country_id)) throw new Error(`city ${c.name} has unknown country ${c.country_id}`);
      if (c.state_id !== null && stateCountry.get(c.state_id) !== c.country_id) {
        throw new Error(`city ${c.name} has a state from another country`);
      }
      if (!Number.isFinite(c.latitude) || Math.abs(c.latitude) > 90 || !Number.isFinite(c.longitude) || Math.abs(c.longitude) > 180) {
        throw new Error(`city ${c.name} has bad coordinates ${c.latitude}, ${c.longitude}`);
      }
    }
  });
});
