// The field app's download routes (issue 31): GET /field/areas/ and GET /field/bundle/?area_id=… (agents and tenant admins).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, FIELD_BUNDLE_FARMS_CAP, FIELD_BUNDLE_MARGIN_M, fieldArea, fieldBundle, fieldBundleQuery } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { fieldPolicy } from './field.policy.js';
import * as field from './field.service.js';

const tags = ['field'];
const fieldUsers = gate(fieldPolicy, 'download');

export const fieldRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/field/areas/', {
    config: fieldUsers,
    schema: {
      tags,
      summary: "The operational areas the field app may download: the tenant's, the agent's assigned area first (at most 1,000)",
      response: { 200: envelope(z.array(fieldArea)) },
    },
    handler: async (req) => ({ data: await field.listFieldAreas(deps, req.ctx) }),
  });

  app.get('/field/bundle/', {
    config: fieldUsers,
    schema: {
      tags,
      summary: "One area's download for offline capture: its polygon, the registry's farms nearby, the user's farmers and the capture rules",
      description:
        `Farms: the tenant's farms whose bounding box meets the area's bounding box grown by ${FIELD_BUNDLE_MARGIN_M} m, nearest the area's centre first, ` +
        `at most ${FIELD_BUNDLE_FARMS_CAP} (truncated: true when more existed). Farmers: those the signed-in user registered, at most 20,000. ` +
        "Another tenant's area is a 404.",
      querystring: fieldBundleQuery,
      response: { 200: envelope(fieldBundle) },
    },
    handler: async (req, reply) => {
      // JSON text built once (field.service.ts), so thousands of geometries are not re-validated by the serialiser.
      const text = await field.fieldBundle(deps, req.ctx, req.query.area_id);
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(`{"data":${text}}` as unknown as { data: z.infer<typeof fieldBundle> });
    },
  });
};
