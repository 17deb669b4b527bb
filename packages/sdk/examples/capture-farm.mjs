// Capture a farm with an SDK license key: create its farmer, then the farm, each with an Idempotency-Key and retries.
// FARMLAND_URL=http://localhost:3000 FARMLAND_LICENSE_KEY=<key> node examples/capture-farm.mjs
import { captureFarm, createFarmer, createFarmlandClient, FarmlandApiError } from '@farmland/sdk';

const client = createFarmlandClient({
  baseUrl: process.env.FARMLAND_URL ?? 'http://localhost:3000',
  licenseKey: process.env.FARMLAND_LICENSE_KEY,
});

const farmer = await createFarmer(client, { first_name: 'Ada', last_name: 'Okafor', gender: 'Female' });
console.log(`farmer ${farmer.data.id} (${farmer.data.folio_id})`);

// A square of about 100 m by 100 m ([longitude, latitude] pairs; the ring is closed by the server).
const lng = 3.9 + Math.random() * 0.5;
const lat = 7.4 + Math.random() * 0.5;
const d = 0.0009;
const farm = await captureFarm(client, {
  farmer_id: farmer.data.id,
  name: 'North field',
  coordinates: [[lng, lat], [lng + d, lat], [lng + d, lat + d], [lng, lat + d]],
  gps_device_id: 'SDK-EXAMPLE',
});
console.log(`farm ${farm.data.id}: ${farm.data.name}, ${farm.data.hectare} ha, source ${farm.data.mapping_record?.source}`);

// A refused capture throws a FarmlandApiError with the API's code and the fields at fault.
try {
  await captureFarm(client, { farmer_id: farmer.data.id, coordinates: [[lng, lat]] });
} catch (err) {
  if (!(err instanceof FarmlandApiError)) throw err;
  console.log(`refused: ${err.status} ${err.code}, coordinates: ${err.field('coordinates')}`);
}
