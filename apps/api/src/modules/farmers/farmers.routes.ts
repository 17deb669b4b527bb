// Farmers through the capture API: POST /farmers/ and PUT /farmers/{id}/ (multipart with an optional "image", or JSON),
// and a farmer's farms: GET /farmers/{id}/farms/ and /farmers/{id}/farms/{farmId}/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createFarmerBody, envelope, farm, farmer, idParam, listOf, pageQuery, updateFarmerBody, uuid } from '@farmland/contracts';
import { parseWith, readForm } from '../../lib/form.js';
import * as farms from '../farms/farms.service.js';
import * as farmers from './farmers.service.js';

const tags = ['farmers'];
const writers = { access: ['tenant_admin', 'agent', 'sdk_license'] } as const;
const doc = 'multipart/form-data (an optional photo in "image": PNG, JPEG, WebP or GIF, checked by content) or JSON. A session, or the SDK license key in X-License-Key.';

export const farmersRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const form = (req: Parameters<typeof readForm>[0]) => readForm(req, { fileFields: ['image'], maxFiles: 1, fileSize: deps.config.imageLimit });

  app.post('/farmers/', {
    config: writers,
    schema: { tags, summary: 'Create a farmer', description: doc, consumes: ['multipart/form-data', 'application/json'], response: { 201: envelope(farmer) } },
    handler: async (req, reply) => {
      const { fields, files } = await form(req);
      const data = await farmers.createFarmer(deps, req.ctx, parseWith(createFarmerBody, fields), files);
      return reply.status(201).send({ data, message: 'Farmer created successfully' });
    },
  });

  app.put('/farmers/:id/', {
    config: writers,
    schema: { tags, summary: 'Edit a farmer (only the fields sent change)', description: doc, consumes: ['multipart/form-data', 'application/json'], params: idParam, response: { 200: envelope(farmer) } },
    handler: async (req) => {
      const { fields, files } = await form(req);
      return { data: await farmers.updateFarmer(deps, req.ctx, req.params.id, parseWith(updateFarmerBody, fields), files), message: 'Farmer edited successfully' };
    },
  });

  app.get('/farmers/:id/farms/', {
    config: { access: 'authenticated' },
    schema: { tags, summary: "A farmer's farms", params: idParam, querystring: pageQuery.pick({ page: true, page_size: true }), response: { 200: envelope(listOf(farm)) } },
    handler: async (req) => ({ data: await farms.listFarms(deps, req.ctx, req.query, req.url, req.params.id) }),
  });

  app.get('/farmers/:id/farms/:farmId/', {
    config: { access: 'authenticated' },
    schema: { tags, summary: 'One farm of a farmer', params: z.object({ id: uuid, farmId: uuid }), response: { 200: envelope(farm) } },
    handler: async (req) => ({ data: await farms.getFarm(deps, req.ctx, req.params.farmId, req.params.id) }),
  });
};
