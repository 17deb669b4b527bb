// GET /activity-logs/: the activity log, filtered by search, action and date range.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityEntry, activityQuery, envelope, listOf } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { activityPolicy } from './activity.policy.js';
import { listActivity } from './activity.service.js';

export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/activity-logs/', {
    config: { ...gate(activityPolicy, 'list'), sessionWithRead: true },
    schema: { tags: ['activity'], summary: 'List activity-log entries', querystring: activityQuery, response: { 200: envelope(listOf(activityEntry)) } },
    handler: async (req) => ({ data: await listActivity(app.deps, req.ctx, req.query, req.url) }),
  });
};
