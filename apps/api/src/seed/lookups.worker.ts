// Short-lived thread that builds the lookup rows (country-state-city: about 27 MB of heap once loaded, plus ~70 MB of
// rows while they are built) and hands them over one batch at a time, so that the thread that inserts them never holds
// more than a batch, and all of it is given back when this thread ends (a module once imported stays for the life of
// its thread). Protocol: each 'next' message is answered with the next batch, or null at the end.
import { parentPort } from 'node:worker_threads';
import { buildLookups } from './lookups-data.js';

export type LookupBatch =
  | { table: 'countries'; rows: ReturnType<typeof buildLookups>['countries'] }
  | { table: 'states'; rows: ReturnType<typeof buildLookups>['states'] }
  | { table: 'cities'; rows: ReturnType<typeof buildLookups>['cities'] };

const port = parentPort;
if (!port) throw new Error('lookups.worker must run in a worker thread');
const batch = Number(process.env['LOOKUP_BATCH'] ?? 0) || 5_000;

function* batches(): Generator<LookupBatch> {
  const { countries, states, cities } = buildLookups();
  yield { table: 'countries', rows: countries };
  for (let i = 0; i < states.length; i += batch) yield { table: 'states', rows: states.slice(i, i + batch) };
  for (let i = 0; i < cities.length; i += batch) yield { table: 'cities', rows: cities.slice(i, i + batch) };
}

const it = batches();
port.on('message', () => {
  const r = it.next();
  port.postMessage(r.done ? null : r.value);
});
