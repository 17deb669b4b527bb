// Table exports: POST /base/export/{name}/ with the columns to include (and the list's own filters); answers {name}.csv.
import { z } from 'zod';
import { text } from './common.js';

export const exportName = text()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[a-z0-9-]+$/, 'Use a list name such as activity-logs');

/** column_list may be sent as a list or as comma-separated text; agent_name and farmer_name expand to first and last name. */
export const exportBody = z
  .object({
    column_list: z.preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      z.array(text().trim().min(1).max(60)).min(1, 'Choose at least one column').max(50),
    ),
    /** The same filters as the list's own query (for the activity log: search, action, date_after, date_before). */
    filters: z.record(text().max(60), text().max(200)).optional(),
  })
  .strict();
export type ExportBody = z.infer<typeof exportBody>;
