// Run an analysis from a CSV stream as a tenant admin, wait for it, and stream its results page by page (by cursor).
// FARMLAND_URL=http://localhost:3000 FARMLAND_TOKEN=<access token> node examples/analysis.mjs
import { Readable } from 'node:stream';
import { analysisResults, createFarmlandClient, listItems, uploadAnalysis, waitForAnalysis } from '@farmland/sdk';

const client = createFarmlandClient({
  baseUrl: process.env.FARMLAND_URL ?? 'http://localhost:3000',
  token: process.env.FARMLAND_TOKEN,
});

// The tenant's operational areas, every page of them.
const areas = [];
for await (const area of listItems((query) => client.ops.listOperationalAreas({ params: { query } }), { page_size: 100 })) areas.push(area);
console.log(`${areas.length} operational areas`);

// Two farms as a CSV, sent from a stream (a file works too: `await fs.openAsBlob('farms.csv')`).
const csv = [
  'farm_name,farm_coordinates',
  'Adebayo Farm,"[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471]]"',
  'Ngozi Farm,"[[3.7730,7.6461],[3.7741,7.6461],[3.7741,7.6470],[3.7730,7.6470]]"',
].join('\n');
const started = await uploadAnalysis(client, {
  file: Readable.from([Buffer.from(csv)]),
  filename: 'farms.csv',
  name: 'SDK example',
  operationalAreas: areas.slice(0, 1).map((a) => a.id),
});
console.log(`analysis ${started.id}: ${started.status}`);

const done = await waitForAnalysis(client, started.id, { intervalMs: 500 });
console.log(`finished: ${done.status}, ${done.total_uploaded_data_count} rows`);

for (const category of ['within', 'outside', 'overlapping', 'unrecognized', 'errors']) {
  let n = 0;
  for await (const row of analysisResults(client, started.id, category, 50)) {
    n++;
    console.log(`  ${category} #${row.row_number} ${row.name ?? ''}`);
  }
  console.log(`${category}: ${n}`);
}
