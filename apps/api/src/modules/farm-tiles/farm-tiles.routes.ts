// GET /farms/tiles/{z}/{x}/{y}.mvt: the farm registry as Mapbox vector tiles (layer "farm_clusters" up to zoom 14,
// layers "farms" and "farm_points" from zoom 15), with an ETag and revalidation; 304 when the client's copy is current.
// Anyone signed in reads their own tenant's farms.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantScopedQuery, tileParams } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { farmsPolicy } from '../farms/farms.policy.js';
import { farmTile } from './farm-tiles.service.js';

export const farmTilesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/farms/tiles/:z/:x/:y.mvt', {
    config: gate(farmsPolicy, 'read'),
    schema: {
      tags: ['farms'],
      summary:
        'A vector tile of the farms (MVT). Up to zoom 14, layer "farm_clusters": a point per grid cell (32 × 32 a tile) with count, overlap, unrecognized, within, outside and the dominant category, and for a cluster of one farm its id, name, area, farmer and verdict. From zoom 15, layers "farms" (polygons) and "farm_points", each feature with id, name, category, area, farmer and verdict (the farm\'s stored EUDR verdict: low, review or high; absent while it has none). Provider staff may pass tenant_id',
      params: tileParams,
      querystring: tenantScopedQuery,
      produces: ['application/vnd.mapbox-vector-tile'],
    },
    handler: async (req, reply) => {
      const tile = await farmTile(app.deps, req.ctx, req.params.z, req.params.x, req.params.y, req.query.tenant_id);
      reply.header('etag', tile.etag).header('cache-control', 'private, no-cache').header('vary', 'Authorization');
      const match = req.headers['if-none-match'];
      if (match && match.split(',').some((t) => t.trim() === tile.etag)) return reply.status(304).send();
      return reply.type('application/vnd.mapbox-vector-tile').send(tile.body);
    },
  });
};
