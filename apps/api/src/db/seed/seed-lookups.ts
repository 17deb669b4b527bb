// Loads countries, states and cities into their tables once (about 150k rows), in a few large unnest() statements
// so that neither engine spends long on it. Runs with the migrating role: the app role may only read lookups.
import type { Database } from '../client.js';
import { buildLookups } from './lookups-data.js';

const BATCH = 25_000;

export async function seedLookupsIfEmpty(database: Database): Promise<{ seeded: boolean; ms: number }> {
  const t0 = Date.now();
  const [row] = await database.adminQuery<{ n: number }>('SELECT count(*)::int AS n FROM countries');
  if ((row?.n ?? 0) > 0) return { seeded: false, ms: Date.now() - t0 };
  const { countries, states, cities } = buildLookups();
  await database.adminQuery(
    `INSERT INTO countries (id, name, iso2, iso3, phone_code, currency_code, currency_name, currency_symbol, flag_emoji, country_flag, latitude, longitude)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::float8[], $12::float8[])`,
    [
      countries.map((c) => c.id),
      countries.map((c) => c.name),
      countries.map((c) => c.iso2),
      countries.map((c) => c.iso3),
      countries.map((c) => c.phone_code),
      countries.map((c) => c.currency_code),
      countries.map((c) => c.currency_name),
      countries.map((c) => c.currency_symbol),
      countries.map((c) => c.flag_emoji),
      countries.map((c) => c.country_flag),
      countries.map((c) => c.latitude),
      countries.map((c) => c.longitude),
    ],
  );
  for (let i = 0; i < states.length; i += BATCH) {
    const b = states.slice(i, i + BATCH);
    await database.adminQuery(
      `INSERT INTO states (id, country_id, name, code, latitude, longitude)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::float8[], $6::float8[])`,
      [b.map((s) => s.id), b.map((s) => s.country_id), b.map((s) => s.name), b.map((s) => s.code), b.map((s) => s.latitude), b.map((s) => s.longitude)],
    );
  }
  for (let i = 0; i < cities.length; i += BATCH) {
    const b = cities.slice(i, i + BATCH);
    await database.adminQuery(
      `INSERT INTO cities (id, country_id, state_id, name, latitude, longitude, location)
       SELECT id, country_id, state_id, name, lat, lng, ST_SetSRID(ST_MakePoint(lng, lat), 4326)
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::float8[], $6::float8[]) AS t(id, country_id, state_id, name, lat, lng)`,
      [b.map((c) => c.id), b.map((c) => c.country_id), b.map((c) => c.state_id), b.map((c) => c.name), b.map((c) => c.latitude), b.map((c) => c.longitude)],
    );
  }
  return { seeded: true, ms: Date.now() - t0 };
}
