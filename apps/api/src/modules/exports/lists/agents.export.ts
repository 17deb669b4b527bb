// The Agents table as an export (POST /base/export/agents/): the screen's columns (agent_name expands to first and last
// name), with the totals and progress as the list shows them; the list's search, region and operational-area filters,
// and for provider staff tenant_id (one tenant's agents: the provider's agents drawer). A tenant admin naming another
// tenant gets an empty file, never its agents.
import { agentsQuery } from '@farmland/contracts';
import { scopeOf } from '../../../context.js';
import { withScope } from '../../../db/client.js';
import { listAgents, type AgentRow } from '../../agents/agents.queries.js';
import { progressOf } from '../../agents/agents.presenter.js';
import { defineExport, NAME_ALIASES } from '../exports.define.js';

const BATCH = 500;
const iso = (d: Date | string) => new Date(d).toISOString();

export const agentsExport = defineExport<
  AgentRow,
  { search?: string | undefined; region?: string | undefined; operational_area?: string | undefined; tenant_id?: string | undefined }
>({
  name: 'agents',
  subject: 'the agents',
  action: 'agents',
  columns: {
    id: { label: 'Id', value: (r) => r.id },
    first_name: { label: 'First name', value: (r) => r.first_name },
    last_name: { label: 'Last name', value: (r) => r.last_name },
    phone_number: { label: 'Phone', value: (r) => r.phone_number ?? '' },
    email: { label: 'Email', value: (r) => r.email },
    gender: { label: 'Gender', value: (r) => r.gender ?? '' },
    farmers: { label: 'Farmers', value: (r) => r.farmers_count },
    mapped_farmlands: { label: 'Mapped farmlands', value: (r) => r.mapped_farms_count },
    progress: { label: 'Progress (%)', value: (r) => progressOf(r.mapped_farms_count, r.farmers_count) },
    operational_area: { label: 'Operational area', value: (r) => r.operational_area ?? '' },
    region: { label: 'Region', value: (r) => r.region ?? '' },
    status: { label: 'Status', value: (r) => (r.is_suspended ? 'Suspended' : 'Active') },
    total_area_mapped: { label: 'Total area mapped (sqm)', value: (r) => Math.round(Number(r.total_mapped_area) * 10_000) / 10_000 },
    created_at: { label: 'Created at', value: (r) => iso(r.created_at) },
  },
  aliases: {
    agent_name: NAME_ALIASES.agent_name,
    farmers_count: ['farmers'],
    mapped_farms_count: ['mapped_farmlands'],
    total_mapped_area: ['total_area_mapped'],
  },
  filters: agentsQuery.pick({ search: true, region: true, operational_area: true, tenant_id: true }).strict(),
  batches: async function* (deps, actor, f) {
    if (actor.role !== 'super_admin' && f.tenant_id && f.tenant_id !== actor.tenantId) return;
    const tenantId = actor.role === 'super_admin' ? (f.tenant_id ?? null) : actor.tenantId;
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await withScope(deps.db, scopeOf(actor), (tx) =>
        listAgents(tx, tenantId, { search: f.search, region: f.region, operationalAreaId: f.operational_area }, BATCH, offset),
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < BATCH) return;
    }
  },
});
