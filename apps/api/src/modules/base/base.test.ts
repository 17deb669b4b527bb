// Lookups (countries with currency and flag, states, cities with coordinates) and regions per tenant.
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
beforeAll(async () => {
  env = await testEnv();
});

describe('lookups', () => {
  it('lists countries with the reference fields of the spec', async () => {
    const res = await env.as('adminA').get('/api/base/all-countries/');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(160);
    const ng = res.body.data.find((c: { country_code: string }) => c.country_code === 'NG');
    expect(ng).toEqual({
      id: NIGERIA,
      country_name: 'Nigeria',
      country_code: 'NG',
      currency_code: 'NGN',
      currency_name: 'Naira',
      currency_symbol: '₦',
      country_flag: expect.stringMatching(/ng\.png$/),
      flag_emoji: '🇳🇬',
    });
  });

  it('lists states of a country and cities with latitude and longitude', async () => {
    const states = await env.as('adminA').get(`/api/base/states/${NIGERIA}/`);
    expect(states.body.data.map((s: { name: string }) => s.name)).toContain('Oyo');
    const cities = await env.as('adminA').get(`/api/base/countries/${NIGERIA}/cities/?search=Ogbomos`);
    expect(cities.status).toBe(200);
    const ogbomosho = cities.body.data.find((c: { name: string }) => c.name.startsWith('Ogbomos'));
    expect(ogbomosho.latitude).toBeCloseTo(8.13, 1);
    expect(ogbomosho.longitude).toBeCloseTo(4.24, 1);
  });

  it('answers 404 for an unknown country and 400 for a malformed id', async () => {
    expect((await env.as('adminA').get('/api/base/states/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
    const bad = await env.as('adminA').get('/api/base/states/nope/');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)[0]).toBe('id');
  });
});

describe('regions', () => {
  it('creates a region for the tenant and lists only the tenant’s own', async () => {
    const name = `Iseyin ${Date.now()}`;
    const created = await env.as('adminA').post('/api/base/regions/', { country_id: NIGERIA, name });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ message: 'Region created successfully', data: { name, country: 'Nigeria' } });
    const mine = await env.as('adminA').get('/api/base/regions/?page_size=100');
    expect(mine.body.data.results.map((r: { name: string }) => r.name)).toContain(name);
    const theirs = await env.as('adminB').get('/api/base/regions/?page_size=100');
    expect(theirs.body.data.results.map((r: { name: string }) => r.name)).not.toContain(name);
  });

  it('names the field on bad input and refuses duplicates', async () => {
    const short = await env.as('adminA').post('/api/base/regions/', { country_id: NIGERIA, name: 'X' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ name: ['Name should have at least 2 letters'] });
    const unknownCountry = await env.as('adminA').post('/api/base/regions/', { country_id: '00000000-0000-4000-8000-000000000000', name: 'Somewhere' });
    expect(Object.keys(unknownCountry.body.errors)[0]).toBe('country_id');
    const dup = await env.as('adminA').post('/api/base/regions/', { country_id: NIGERIA, name: 'ogbomosho north' });
    expect(dup.status).toBe(409);
    expect(Object.keys(dup.body.errors)[0]).toBe('name');
  });
});
