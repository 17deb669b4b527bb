// GET /farms/export/eudr: EUDR-ready geolocation of the registry (GeoJSON, CSV or KML; parts of at most 25 MB).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eudrExportQuery } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { eudrExportPolicy } from './eudr-export.policy.js';
import { exportEudr } from './eudr-export.service.js';

export const eudrExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/farms/export/eudr', {
    config: gate(eudrExportPolicy, 'export'),
    schema: {
      tags: ['farms'],
      summary:
        'EUDR geolocation export: a GeoJSON FeatureCollection (EPSG:4326, 6 decimals, RFC 7946 winding), CSV or KML; farms under 4 ha optionally as points; ' +
        'files over 25 MB come in numbered parts (X-Export-Parts header; ask for each with part=N). Each plot carries its geolocation warnings and plot-risk verdict, ' +
        'as extra properties or (verdicts=companion) in a companion CSV downloaded with file=companion',
      querystring: eudrExportQuery,
      produces: ['application/geo+json', 'text/csv', 'application/vnd.google-earth.kml+xml'],
    },
    handler: async (req, reply) => {
      const file = await exportEudr(app.deps, req.ctx, req.query);
      return reply
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-export-parts', String(file.parts))
        .header('x-export-part', String(file.part))
        .header('access-control-expose-headers', 'X-Export-Parts, X-Export-Part, Content-Disposition')
        .type(file.mime)
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  });
};
