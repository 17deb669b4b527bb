// Loads countries, states and cities into their tables once (about 150k rows), in unnest() statements of 5,000 rows.
// The rows are built in a short-lived thread (lookups.worker.ts) and arrive one batch at a time, so this thread never
// holds them all, and the embedded database's WebAssembly heap (which never shrinks) only has to hold one batch's
// statement (was 25,000 rows; a first start also reopens the database afterwards: docs/decisions/0012-embedded-footprint.md).
// Runs with the migrating role: the app role may only read lookups.
import type { Worker } from 'node:worker_threads';
import type { Database } from '../db/client.js';
import { startWorker } from '../lib/worker-entry.js';
import type { LookupBatch } from './lookups.worker.js';

/** Asks the thread for its next batch (null at the end). */
function nextBatch(worker: Worker): Promise<LookupBatch | null> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: LookupBatch | null) => {
      worker.off('error', onError);
      resolve(m);
    };
    const onError = (err: Error) => {
      worker.off('message', onMessage);
      reject(err);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.postMessage('next');
  });
}

export async function seedLookupsIfEmpty(database: Database): Promise<{ seeded: boolean; ms: number }> {
  const t0 = Date.now();
  const [row] = await database.adminQuery<{ n: number }>('SELECT count(*)::int AS n FROM countries');
  if ((row?.n ?? 0) > 0) return { seeded: false, ms: Date.now() - t0 };
  const worker = startWorker(import.meta.url, './lookups.worker');
  try {
    for (let b = await nextBatch(worker); b; b = await nextBatch(worker)) await insertBatch(database, b);
  } finally {
    await worker.terminate();
  }
  return { seeded: true, ms: Date.now() - t0 };
}

async function insertBatch(database: Database, b: LookupBatch): Promise<void> {
  switch (b.table) {
    case 'countries': {
      const c = b.rows;
      await database.adminQuery(
        `INSERT INTO countries (id, name, iso2, iso3, phone_code, currency_code, currency_name, currency_symbol, flag_emoji, country_flag, latitude, longitude)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::float8[], $12::float8[])`,
        [
          c.map((r) => r.id),
          c.map((r) => r.name),
          c.map((r) => r.iso2),
          c.map((r) => r.iso3),
          c.map((r) => r.phone_code),
          c.map((r) => r.currency_code),
          c.map((r) => r.currency_name),
          c.map((r) => r.currency_symbol),
          c.map((r) => r.flag_emoji),
          c.map((r) => r.country_flag),
          c.map((r) => r.latitude),
          c.map((r) => r.longitude),
        ],
      );
      return;
    }
    case 'states': {
      const s = b.rows;
      await database.adminQuery(
        `INSERT INTO states (id, country_id, name, code, latitude, longitude)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::float8[], $6::float8[])`,
        [s.map((r) => r.id), s.map((r) => r.country_id), s.map((r) => r.name), s.map((r) => r.code), s.map((r) => r.latitude), s.map((r) => r.longitude)],
      );
      return;
    }
    case 'cities': {
      const c = b.rows;
      await database.adminQuery(
        `INSERT INTO cities (id, country_id, state_id, name, latitude, longitude, location)
         SELECT id, country_id, state_id, name, lat, lng, ST_SetSRID(ST_MakePoint(lng, lat), 4326)
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::float8[], $6::float8[]) AS t(id, country_id, state_id, name, lat, lng)`,
        [c.map((r) => r.id), c.map((r) => r.country_id), c.map((r) => r.state_id), c.map((r) => r.name), c.map((r) => r.latitude), c.map((r) => r.longitude)],
      );
      return;
    }
  }
}
