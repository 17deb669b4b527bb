// Agent row → API shape (explicit whitelist: no password hash, no two-factor state), with the mapping totals and progress.
import type { Agent, AgentDetail } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { fileUrl } from '../files/files.service.js';
import type { AgentRow, CaptureRow } from './agents.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Mapped farms ÷ farmers × 100, to one decimal; 0 with no farmers (docs/requirements.md §9). */
export function progressOf(mappedFarms: number, farmers: number): number {
  return farmers > 0 ? Math.round((mappedFarms / farmers) * 1000) / 10 : 0;
}

export function presentAgent(deps: Deps, r: AgentRow): Agent {
  return {
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    agent_name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    phone_number: r.phone_number,
    gender: r.gender,
    image: fileUrl(deps, r.image_file_id),
    operational_area_id: r.operational_area_id,
    operational_area: r.operational_area,
    region_id: r.region_id,
    region: r.region,
    is_suspended: r.is_suspended,
    is_active: r.is_active,
    farmers_count: r.farmers_count,
    mapped_farms_count: r.mapped_farms_count,
    total_mapped_area: Math.round(Number(r.total_mapped_area) * 10_000) / 10_000,
    progress: progressOf(r.mapped_farms_count, r.farmers_count),
    last_login_at: r.last_login_at ? iso(r.last_login_at) : null,
    created_at: iso(r.created_at),
  };
}

export function presentAgentDetail(deps: Deps, r: AgentRow, captures: CaptureRow[]): AgentDetail {
  return {
    ...presentAgent(deps, r),
    recent_captures: captures.map((c) => ({
      farm_id: c.farm_id,
      farm_name: c.farm_name,
      farmer_id: c.farmer_id,
      farmer_name: c.farmer_name,
      area: Math.round(Number(c.area_sqm) * 100) / 100,
      operational_area: c.operational_area,
      is_overlapping: c.is_overlapping,
      mapped_at: iso(c.mapped_at),
    })),
  };
}
