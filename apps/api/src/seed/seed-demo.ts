// Demo data for an empty embedded database: a provider super-admin, two tenants (Platform and SDK licenses) with admins,
// agents, farmers, farms with realistic boundaries around Ogbomosho/Oyo (lat 7.6466, lng 3.7717, some overlapping),
// operational areas and a few hundred activity entries. Deterministic (seeded PRNG), so every machine gets the same demo.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.js';
import { jsonb, queryRows, withScope } from '../db/client.js';
import { activityLogs, farmers, licenses, regions, tenantConfigurations, tenants, users } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { createRng } from '../lib/prng.js';
import { recomputeTenantOverlaps } from '../modules/farm-overlaps/farm-overlaps.js';
import { syncVerdicts } from '../modules/reference-layers/reference-layers.verdicts.js';
import { licenseKeyColumns, newLicenseKey } from '../lib/license-key.js';
import { buildDemoAreas, buildDemoFarms, buildPeople, type LngLat } from './demo-data.js';
import { uuidV5 } from './uuid-v5.js';

export const DEMO_PASSWORD = 'Farmland#2026';
export const DEMO_ACCOUNTS = {
  superAdmin: 'superadmin@farmland.local',
  adminA: 'admin@oyo-agro.example',
  adminB: 'admin@greenharvest.example',
} as const;

const NIGERIA = uuidV5('country:NG');
const OYO_STATE = uuidV5('state:NG:OY');

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const polygonJson = (ring: LngLat[]) => JSON.stringify({ type: 'Polygon', coordinates: [ring] });

type SeedTenant = { id: string; name: string; adminId: string; agentIds: string[]; agentNames: string[]; farmerIds: string[]; areaIds: string[] };

/**
 * A city of the state by name (the lookups' spelling, e.g. Ogbomoso), else the state's first city: never a city of
 * another state (the first Nigerian city by name is Aba, in Abia State, which is how every demo area once read "Aba").
 */
async function cityOfState(tx: Tx, stateId: string, name: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM cities WHERE state_id = ${stateId} ORDER BY (name ILIKE ${name}) DESC, name LIMIT 1`);
  if (!row) throw new Error('Lookups are not seeded: the demo state has no city');
  return row.id;
}

/** The demo tenants' license keys, known only at seeding (keys are stored hashed): name, type and key. */
export type DemoLicenseKey = { tenant: string; type: 'Platform' | 'SDK'; key: string };

export async function seedDemoIfEmpty(database: Database): Promise<{ seeded: boolean; ms: number; licenseKeys: DemoLicenseKey[] }> {
  const t0 = Date.now();
  // Row-level security hides users outside a scope, so the emptiness check runs in the system scope.
  const [row] = await withScope(database.db, { kind: 'system' }, (tx) => queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM users`));
  if ((row?.n ?? 0) > 0) return { seeded: false, ms: Date.now() - t0, licenseKeys: [] };
  const licenseKeys: DemoLicenseKey[] = [];
  const demoKey = (tenant: string, type: 'Platform' | 'SDK') => {
    const key = newLicenseKey(type);
    licenseKeys.push({ tenant, type, key });
    return key;
  };

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const rng = createRng(20261121);
  const now = new Date();

  await withScope(database.db, { kind: 'system' }, async (tx) => {
    const [superAdmin] = await tx
      .insert(users)
      .values({ role: 'super_admin', email: DEMO_ACCOUNTS.superAdmin, passwordHash, firstName: 'Ada', lastName: 'Okafor', phoneNumber: '+2348030000001' })
      .returning({ id: users.id });
    const ogbomoso = await cityOfState(tx, OYO_STATE, 'Ogbomoso');
    const ibadan = await cityOfState(tx, OYO_STATE, 'Ibadan');

    const specs = [
      {
        name: 'Oyo Agro Cooperative',
        type: 'Platform' as const,
        email: DEMO_ACCOUNTS.adminA,
        admin: ['Tunde', 'Adeyemi'],
        agents: 8,
        farmers: 150,
        farms: 380,
        areas: 4,
        seed: 11,
      },
      {
        name: 'Green Harvest SDK Ltd',
        type: 'SDK' as const,
        email: DEMO_ACCOUNTS.adminB,
        admin: ['Ngozi', 'Eze'],
        agents: 4,
        farmers: 70,
        farms: 160,
        areas: 2,
        seed: 23,
      },
    ];
    const seeded: SeedTenant[] = [];
    for (const [ti, s] of specs.entries()) {
      const [tenant] = await tx
        .insert(tenants)
        .values({
          name: s.name,
          address: ti === 0 ? '12 Oke-Ado Road, Ogbomosho' : '4 Ring Road, Ibadan',
          phoneNumber: ti === 0 ? '+2348031110000' : '+2348032220000',
          email: ti === 0 ? 'info@oyo-agro.example' : 'hello@greenharvest.example',
          countryId: NIGERIA,
          stateId: OYO_STATE,
          cityId: ti === 0 ? ogbomoso : ibadan,
          city: ti === 0 ? 'Ogbomoso' : 'Ibadan',
          enableFarmSync: s.type === 'SDK',
          createdAt: addDays(now, -400 + ti * 60),
        })
        .returning({ id: tenants.id });
      const tenantId = tenant!.id;
      await tx.insert(licenses).values({
        tenantId,
        type: s.type,
        issuedDate: isoDay(addDays(now, -200 + ti * 30)),
        expiryDate: isoDay(addDays(now, 165 + ti * 30)),
        price: s.type === 'SDK' ? '220000' : '1500000',
        ...licenseKeyColumns(demoKey(s.name, s.type)),
      });
      await tx.insert(tenantConfigurations).values({ tenantId, minimumFarmSize: 100, recognitionThreshold: 0.5 });
      const [admin] = await tx
        .insert(users)
        .values({
          tenantId,
          role: 'tenant_admin',
          email: s.email,
          passwordHash,
          firstName: s.admin[0]!,
          lastName: s.admin[1]!,
          phoneNumber: `+23480300000${10 + ti}`,
        })
        .returning({ id: users.id });

      const regionRows = await tx
        .insert(regions)
        .values(['Ogbomosho North', 'Ogbomosho South', 'Surulere', 'Oriire'].slice(0, ti === 0 ? 4 : 2).map((name) => ({ tenantId, countryId: NIGERIA, name })))
        .returning({ id: regions.id });

      const areas = buildDemoAreas({ seed: s.seed, count: s.areas });
      const areaIds: string[] = [];
      for (const [ai, a] of areas.entries()) {
        const res = await queryRows<{ id: string }>(
          tx,
          sql`
          INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm, created_by, created_at)
          SELECT ${tenantId}, ${a.name}, ${regionRows[ai % regionRows.length]!.id}, nearest.id, g, ST_Area(g::geography), ${admin!.id}, ${addDays(now, -300 + ai * 7)}
            FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${polygonJson(a.ring)}), 4326) AS g) s
            -- The area's city: the city of its state (Oyo) nearest to the area, so its label matches where it lies.
            CROSS JOIN LATERAL (SELECT c.id FROM cities c WHERE c.state_id = ${OYO_STATE} ORDER BY c.location <-> ST_PointOnSurface(s.g) LIMIT 1) nearest
          RETURNING id`,
        );
        areaIds.push(res[0]!.id);
      }

      const people = buildPeople({ seed: s.seed * 7, count: s.agents + s.farmers });
      const agentIds: string[] = [];
      for (const [i, p] of people.slice(0, s.agents).entries()) {
        const [agent] = await tx
          .insert(users)
          .values({
            tenantId,
            role: 'agent',
            email: p.email.replace('@example.com', `@agents.${ti === 0 ? 'oyo-agro' : 'greenharvest'}.example`),
            passwordHash,
            firstName: p.first_name,
            lastName: p.last_name,
            gender: p.gender,
            phoneNumber: p.phone_number,
            operationalAreaId: areaIds[i % areaIds.length]!,
            isSuspended: i === s.agents - 1,
            createdAt: addDays(now, -280 + i * 9),
          })
          .returning({ id: users.id });
        agentIds.push(agent!.id);
      }
      const farmerRows = await tx
        .insert(farmers)
        .values(
          people.slice(s.agents).map((p, i) => ({
            tenantId,
            firstName: p.first_name,
            lastName: p.last_name,
            email: i % 5 === 0 ? null : p.email,
            phoneNumber: p.phone_number,
            gender: p.gender,
            address: `${1 + (i % 40)} Farm Settlement Road, ${ti === 0 ? 'Ogbomosho' : 'Ibadan'}`,
            location: ti === 0 ? 'Ogbomosho, Oyo' : 'Ibadan, Oyo',
            folioId: `${ti === 0 ? 'OYA' : 'GHV'}-${String(1000 + i)}`,
            countryId: NIGERIA,
            regionId: regionRows[i % regionRows.length]!.id,
            createdBy: agentIds[i % agentIds.length]!,
            createdAt: addDays(now, -270 + Math.floor((i * 260) / s.farmers)),
          })),
        )
        .returning({ id: farmers.id });
      seeded.push({
        id: tenantId,
        name: s.name,
        adminId: admin!.id,
        agentIds,
        agentNames: people.slice(0, s.agents).map((p) => `${p.first_name} ${p.last_name}`),
        farmerIds: farmerRows.map((f) => f.id),
        areaIds,
      });

      // Farms: most farmers get one or more; about a tenth stay unmapped. Captured by agents over the past months.
      const rings = buildDemoFarms({ seed: s.seed * 13, count: s.farms, overlapShare: 0.08 });
      const mappedFarmers = farmerRows.slice(0, Math.floor(farmerRows.length * 0.9));
      const farmValues = rings.map((r, i) => ({
        geo: polygonJson(r.ring),
        farmer: mappedFarmers[i % mappedFarmers.length]!.id,
        agent: agentIds[i % agentIds.length]!,
        name: `Farm ${ti === 0 ? 'A' : 'B'}-${String(i + 1).padStart(4, '0')}`,
        at: addDays(now, -250 + Math.floor((i * 249) / rings.length) + rng.int(0, 3)).toISOString(),
        secs: rng.int(240, 3600),
        device: `GPS-${ti === 0 ? 'OY' : 'GH'}-${String(rng.int(1, 12)).padStart(3, '0')}`,
      }));
      await tx.execute(sql`
        WITH input AS (
          SELECT * FROM jsonb_to_recordset(${jsonb(farmValues)})
                 AS t(geo text, farmer uuid, agent uuid, name text, at timestamptz, secs int, device text)
        ), g AS (
          SELECT *, ST_SetSRID(ST_GeomFromGeoJSON(geo), 4326) AS geom FROM input
        ), ins AS (
          INSERT INTO farms (tenant_id, farmer_id, name, location, geom, area_sqm, operational_area_id, mapped_by, created_at, updated_at)
          SELECT ${tenantId}, farmer, name, ${ti === 0 ? 'Ogbomosho, Oyo' : 'Ibadan, Oyo'}, geom, ST_Area(geom::geography),
                 (SELECT oa.id FROM operational_areas oa WHERE oa.tenant_id = ${tenantId} AND ST_Covers(oa.geom, g.geom) ORDER BY oa.created_at LIMIT 1),
                 agent, at, at
            FROM g
          RETURNING id, geom, mapped_by, created_at
        )
        INSERT INTO mapping_records (tenant_id, farm_id, mapped_by, geom, time_taken_seconds, gps_device_id, location, country_id, source, created_at, updated_at)
        SELECT ${tenantId}, ins.id, ins.mapped_by, ins.geom, g.secs, g.device, ${ti === 0 ? 'Ogbomosho, Oyo' : 'Ibadan, Oyo'}, ${NIGERIA}, 'seed', ins.created_at, ins.created_at
          FROM ins JOIN g ON g.agent = ins.mapped_by AND g.at = ins.created_at AND ST_Equals(g.geom, ins.geom)`);
      await recomputeTenantOverlaps(tx, tenantId);
      // Each farm's EUDR verdict stored, as a capture stores it (farm_verdicts, decision 0100): the Farmlands map colours
      // farms by the stored verdict and the drawer computes it on read, so without this the demo's map showed every
      // farm as "No verdict" while its drawer said "Needs review". No event is raised for a first verdict.
      const seededFarms = await queryRows<{ id: string }>(tx, sql`SELECT id FROM farms WHERE tenant_id = ${tenantId} ORDER BY id`);
      await syncVerdicts(
        tx,
        tenantId,
        seededFarms.map((f) => f.id),
      );
    }

    // A few hundred activity entries over the last 90 days, as the console would have written them.
    const verbs = [
      ['Create', (n: string) => `${n} created a farmer record`],
      ['Update', (n: string) => `${n} updated a farm boundary`],
      ['Create', (n: string) => `${n} mapped a new farm`],
      ['Update', (n: string) => `${n} edited an operational area`],
      ['Login', (n: string) => `${n} signed in`],
      ['Delete', (n: string) => `${n} deleted a duplicate farmer record`],
    ] as const;
    const entries: Array<typeof activityLogs.$inferInsert> = [];
    for (let i = 0; i < 320; i++) {
      const t = seeded[i % 5 === 0 ? 1 : 0]!;
      const provider = i % 23 === 0;
      const [action, describe] = rng.pick(verbs);
      const name = provider ? 'Ada Okafor' : i % 3 === 0 ? (t === seeded[0] ? 'Tunde Adeyemi' : 'Ngozi Eze') : t.agentNames[i % t.agentNames.length]!;
      entries.push({
        tenantId: provider ? null : t.id,
        userId: provider ? superAdmin!.id : i % 3 === 0 ? t.adminId : t.agentIds[i % t.agentIds.length]!,
        userName: name,
        role: provider ? 'super_admin' : i % 3 === 0 ? 'tenant_admin' : 'agent',
        action: provider ? 'Update' : action,
        description: provider ? `${name} reviewed the license of ${t.name}` : describe(name),
        platform: i % 3 === 0 || provider ? 'web' : i % 7 === 0 ? 'sdk' : 'mobile',
        country: 'Nigeria',
        createdAt: new Date(now.getTime() - (320 - i) * 4 * 3_600_000 - rng.int(0, 3_000_000)),
      });
    }
    for (let i = 0; i < entries.length; i += 200) await tx.insert(activityLogs).values(entries.slice(i, i + 200));
  });
  return { seeded: true, ms: Date.now() - t0, licenseKeys };
}
