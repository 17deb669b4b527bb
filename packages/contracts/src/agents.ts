// Field agents (tenant users with the agent role) as tenant admins manage them: multipart writes with an optional photo,
// the list with mapping totals, and the failed rows of a bulk upload (shared with farmers).
import { z } from 'zod';
import { emptyToUndefined, pageNumber, pageSize, text, uuid } from './common.js';
import { PHONE_RE } from './accounts.js';

const optional = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

export const agentGender = z.enum(['Male', 'Female'], 'Gender must be Male or Female');

export const createAgentBody = z.object({
  first_name: text({ error: 'First name is required' }).trim().min(1, 'First name is required').max(100),
  last_name: text({ error: 'Last name is required' }).trim().min(1, 'Last name is required').max(100),
  /** The agent's sign-in: unique over all users (the onboarding mail goes there). */
  email: text({ error: 'Email is required' }).trim().toLowerCase().min(1, 'Email is required').max(200).pipe(z.email('Enter a valid email address')),
  phone_number: text({ error: 'Phone number is required' }).trim().min(1, 'Phone number is required').regex(PHONE_RE, 'Enter a valid phone number'),
  gender: optional(agentGender),
  /** The operational area the agent works in (step 1 of the wizard, "Assign location"). */
  operational_area_id: optional(uuid),
});
export type CreateAgentBody = z.infer<typeof createAgentBody>;

export const updateAgentBody = createAgentBody.partial();
export type UpdateAgentBody = z.infer<typeof updateAgentBody>;

export const agentsQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  search: z.preprocess(emptyToUndefined, text().trim().max(200).optional()),
  /** A region id or name: the region of the agent's operational area. */
  region: z.preprocess(emptyToUndefined, text().trim().max(120).optional()),
  operational_area: optional(uuid),
  /** Provider staff: one tenant's agents (a tenant user naming another tenant gets a 404). */
  tenant_id: optional(uuid),
});
export type AgentsQuery = z.infer<typeof agentsQuery>;

export const agent = z.object({
  id: uuid,
  first_name: z.string(),
  last_name: z.string(),
  agent_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  gender: z.string().nullable(),
  image: z.string().nullable(),
  operational_area_id: uuid.nullable(),
  operational_area: z.string().nullable(),
  region_id: uuid.nullable(),
  region: z.string().nullable(),
  is_suspended: z.boolean(),
  is_active: z.boolean(),
  farmers_count: z.number().int(),
  mapped_farms_count: z.number().int(),
  /** Square metres, 4 decimals. */
  total_mapped_area: z.number(),
  /** Mapped farms ÷ farmers × 100, one decimal; 0 with no farmers. */
  progress: z.number(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
export type Agent = z.infer<typeof agent>;

/** The agent drawer: the agent and its latest captures (newest first, at most 10). */
export const agentDetail = agent.extend({
  recent_captures: z.array(
    z.object({
      farm_id: uuid,
      farm_name: z.string(),
      farmer_id: uuid,
      farmer_name: z.string(),
      /** Square metres, 2 decimals. */
      area: z.number(),
      operational_area: z.string().nullable(),
      is_overlapping: z.boolean(),
      mapped_at: z.string(),
    }),
  ),
});
export type AgentDetail = z.infer<typeof agentDetail>;

/** One refused row of a bulk upload: its 1-based data row number (the header is row 0), its cells, and every error per cell. */
export const failedRow = z.object({
  row: z.number().int(),
  row_data: z.record(z.string(), z.string()),
  errors: z.record(z.string(), z.array(z.string())),
});
export type FailedRow = z.infer<typeof failedRow>;

export const bulkUploadResult = z.object({
  total_rows: z.number().int(),
  created_count: z.number().int(),
  failed_count: z.number().int(),
  failed_rows: z.array(failedRow),
});
export type BulkUploadResult = z.infer<typeof bulkUploadResult>;
