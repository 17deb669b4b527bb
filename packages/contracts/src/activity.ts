// The activity log: who did what, from which platform and country.
import { z } from 'zod';
import { emptyToUndefined, isoDate, pageQuery, roleName, uuid } from './common.js';

export const activityAction = z.enum(['Create', 'Update', 'Delete', 'Login', 'Logout', 'Export']);
export type ActivityAction = z.infer<typeof activityAction>;

export const activityQuery = pageQuery.extend({
  action: z.preprocess(emptyToUndefined, activityAction.optional()),
  date_after: z.preprocess(emptyToUndefined, isoDate.optional()),
  date_before: z.preprocess(emptyToUndefined, isoDate.optional()),
});

export const activityEntry = z.object({
  id: uuid,
  user: z.string(),
  user_id: uuid.nullable(),
  role: roleName.nullable(),
  action: activityAction,
  description: z.string(),
  platform: z.string(),
  country: z.string().nullable(),
  tenant: z.string().nullable(),
  timestamp: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;
