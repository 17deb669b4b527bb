// All SQL of agents: users with the agent role, read with their mapping totals (farmers they registered, farms they
// mapped and the area of those farms) from the agent_stats rollup (migration 0020). The tenant id is the first argument
// (null: provider staff, every tenant).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, readerOf, uuidArray, type Executor, type Reader } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { listPage, type Total } from '../../db/pagination.js';

export type AgentRow = {
  id: string;
  tenant_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  gender: string | null;
  image_file_id: string | null;
  operational_area_id: string | null;
  operational_area: string | null;
  region_id: string | null;
  region: string | null;
  is_suspended: boolean;
  is_active: boolean;
  farmers_count: number;
  mapped_farms_count: number;
  total_mapped_area: number;
  last_login_at: Date | string | null;
  created_at: Date | string;
};

export type AgentFilter = { search?: string | undefined; region?: string | undefined; operationalAreaId?: string | undefined };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function conditions(tenantId: string | null, f: AgentFilter): SQL {
  const conds: SQL[] = [sql`u.role = 'agent'`];
  if (tenantId) conds.push(sql`u.tenant_id = ${tenantId}`);
  if (f.operationalAreaId) conds.push(sql`u.operational_area_id = ${f.operationalAreaId}`);
  if (f.search) {
    const p = containsPattern(f.search);
    conds.push(sql`(u.full_name ILIKE ${p} OR u.email ILIKE ${p} OR u.phone_number ILIKE ${p})`);
  }
  if (f.region) {
    conds.push(
      UUID_RE.test(f.region)
        ? sql`oa.region_id = ${f.region}`
        : sql`EXISTS (SELECT 1 FROM regions r WHERE r.id = oa.region_id AND lower(r.name) = lower(${f.region}))`,
    );
  }
  return sql`WHERE ${sql.join(conds, sql` AND `)}`;
}

const from = sql`FROM users u LEFT JOIN operational_areas oa ON oa.id = u.operational_area_id`;

/** An agent's columns with its totals, over users u: farmers it registered, farms it mapped and their area (agent_stats). */
const agentColumns = sql`
  SELECT u.id, u.tenant_id, u.first_name, u.last_name, u.email, u.phone_number, u.gender, u.image_file_id, u.operational_area_id,
         oa.name AS operational_area, oa.region_id, r.name AS region, u.is_suspended, u.is_active, u.last_login_at, u.created_at,
         coalesce(st.farmers, 0) AS farmers_count, coalesce(st.farms, 0) AS mapped_farms_count,
         coalesce(st.farms_area, 0)::float8 AS total_mapped_area`;
const agentJoins = sql`
    LEFT JOIN operational_areas oa ON oa.id = u.operational_area_id
    LEFT JOIN regions r ON r.id = oa.region_id
    LEFT JOIN agent_stats st ON st.tenant_id = u.tenant_id AND st.user_id = u.id`;
const details = sql`${agentColumns} FROM users u ${agentJoins}`;

/** One page of agents (newest first) with their totals, and the count (db/pagination.ts), in one statement. */
export async function listAgents(
  run: Reader | Executor,
  tenantId: string | null,
  f: AgentFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AgentRow[]; total: Total }> {
  const where = conditions(tenantId, f);
  const join = f.region ? from : sql`FROM users u`;
  return listPage<AgentRow>(
    readerOf(run),
    {
      rows: sql`SELECT u.id, u.created_at ${join} ${where}`,
      details: sql`${agentColumns} FROM page p JOIN users u ON u.id = p.id ${agentJoins}`,
      count: { from: sql`${join} ${where}` },
    },
    limit,
    offset,
  );
}

export type RankedAgentRow = {
  id: string;
  first_name: string;
  last_name: string;
  operational_area: string | null;
  farmers_count: number;
  mapped_farms_count: number;
  total_mapped_area: number;
};

/**
 * The tenant's agents ranked over all of them (not a page): farms mapped, then their area, then name and id, from the
 * agent_stats rollup; the top `limit`, and how many agents there are.
 */
export async function rankAgents(run: Reader | Executor, tenantId: string | null, limit: number): Promise<{ rows: RankedAgentRow[]; total: number }> {
  // One statement: the window count is taken over every agent, before the LIMIT.
  const rows = await readerOf(run)<RankedAgentRow & { total: number }>(sql`
    SELECT u.id, u.first_name, u.last_name, oa.name AS operational_area, coalesce(st.farmers, 0) AS farmers_count,
           coalesce(st.farms, 0) AS mapped_farms_count, coalesce(st.farms_area, 0)::float8 AS total_mapped_area,
           (count(*) OVER ())::int AS total
      FROM users u
      LEFT JOIN agent_stats st ON st.tenant_id = u.tenant_id AND st.user_id = u.id
      LEFT JOIN operational_areas oa ON oa.id = u.operational_area_id
     WHERE u.role = 'agent' ${tenantId ? sql`AND u.tenant_id = ${tenantId}` : sql``}
     ORDER BY coalesce(st.farms, 0) DESC, coalesce(st.farms_area, 0) DESC, u.first_name, u.last_name, u.id
     LIMIT ${limit}`);
  return { rows, total: rows[0]?.total ?? 0 };
}

export async function findAgent(tx: Executor, tenantId: string | null, id: string): Promise<AgentRow | null> {
  const rows = await queryRows<AgentRow>(tx, sql`${details} WHERE u.id = ${id} AND u.role = 'agent' ${tenantId ? sql`AND u.tenant_id = ${tenantId}` : sql``}`);
  return rows[0] ?? null;
}

/** The operational areas of the tenant among the given ids. */
export async function tenantAreaIds(tx: Executor, tenantId: string, candidates: readonly string[]): Promise<Set<string>> {
  // Only well-formed ids reach the database (a malformed one is no area of anyone's).
  const ids = candidates.filter((i) => UUID_RE.test(i));
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(ids)})`);
  return new Set(rows.map((r) => r.id));
}

/** Emails (lower case) already used by any user of any tenant: sign-in emails are unique platform-wide. Run in the system scope. */
export async function takenEmails(tx: Executor, emails: readonly string[], exceptUserId: string | null = null): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await queryRows<{ email: string }>(
    tx,
    sql`SELECT lower(email) AS email FROM users
         WHERE lower(email) = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(emails.map((e) => e.toLowerCase()))}::jsonb)))
           ${exceptUserId ? sql`AND id <> ${exceptUserId}` : sql``}`,
  );
  return new Set(rows.map((r) => r.email));
}

export type AgentValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  gender: string | null;
  operationalAreaId: string | null;
  imageFileId: string | null;
};

/** Inserts agents (no password: each sets one through the onboarding mail); returns their ids in order. */
export async function insertAgents(tx: Executor, tenantId: string, values: readonly AgentValues[]): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await queryRows<{ id: string; email: string }>(
    tx,
    sql`INSERT INTO users (tenant_id, role, email, first_name, last_name, phone_number, gender, operational_area_id, image_file_id)
        SELECT ${tenantId}, 'agent', x.email, x.first_name, x.last_name, x.phone_number, x.gender, x.operational_area_id, x.image_file_id
          FROM jsonb_to_recordset(${JSON.stringify(
            values.map((v, ord) => ({
              ord,
              email: v.email,
              first_name: v.firstName,
              last_name: v.lastName,
              phone_number: v.phoneNumber,
              gender: v.gender,
              operational_area_id: v.operationalAreaId,
              image_file_id: v.imageFileId,
            })),
          )}::jsonb) AS x(ord int, email text, first_name text, last_name text, phone_number text, gender text, operational_area_id uuid, image_file_id uuid)
         ORDER BY x.ord
        RETURNING id, email`,
  );
  const byEmail = new Map(rows.map((r) => [r.email, r.id]));
  return values.map((v) => byEmail.get(v.email)!);
}

export type AgentPatch = Partial<AgentValues>;

const columns: Record<keyof AgentPatch, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phoneNumber: 'phone_number',
  gender: 'gender',
  operationalAreaId: 'operational_area_id',
  imageFileId: 'image_file_id',
};

export async function updateAgent(tx: Executor, tenantId: string, id: string, patch: AgentPatch): Promise<void> {
  const sets = (Object.keys(patch) as Array<keyof AgentPatch>)
    .filter((k) => patch[k] !== undefined)
    .map((k) => sql`${sql.identifier(columns[k])} = ${patch[k]}`);
  sets.push(sql`updated_at = now()`);
  await tx.execute(sql`UPDATE users SET ${sql.join(sets, sql`, `)} WHERE tenant_id = ${tenantId} AND id = ${id} AND role = 'agent'`);
}

export async function setSuspended(tx: Executor, tenantId: string, id: string, suspended: boolean): Promise<void> {
  await tx.execute(sql`UPDATE users SET is_suspended = ${suspended}, updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id} AND role = 'agent'`);
}

/** The agent goes with its sessions, tokens and challenges (cascade); farmers and farms it recorded stay, unattributed. */
export async function deleteAgent(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM users WHERE tenant_id = ${tenantId} AND id = ${id} AND role = 'agent'`);
}

export type CaptureRow = {
  farm_id: string;
  farm_name: string;
  farmer_id: string;
  farmer_name: string;
  area_sqm: number;
  operational_area: string | null;
  is_overlapping: boolean;
  mapped_at: Date | string;
};

/** The latest farms the agent mapped (newest capture first). */
export async function recentCaptures(tx: Executor, tenantId: string, agentId: string, limit: number): Promise<CaptureRow[]> {
  return queryRows<CaptureRow>(
    tx,
    sql`SELECT f.id AS farm_id, f.name AS farm_name, fr.id AS farmer_id, fr.first_name || ' ' || fr.last_name AS farmer_name, f.area_sqm,
               oa.name AS operational_area, f.is_overlapping, f.created_at AS mapped_at
          FROM farms f
          JOIN farmers fr ON fr.id = f.farmer_id
          LEFT JOIN operational_areas oa ON oa.id = f.operational_area_id
         WHERE f.tenant_id = ${tenantId} AND f.mapped_by = ${agentId}
         ORDER BY f.created_at DESC, f.id DESC
         LIMIT ${limit}`,
  );
}
