// Farmers: the list (GET /farmers/), one farmer, delete; POST /farmers/ and PUT /farmers/{id}/ through the capture API
// (multipart with an optional "image", or JSON); POST /farmers/bulk-upload/ and the farmers-template download; and a
// farmer's farms: GET /farmers/{id}/farms/ and /farmers/{id}/farms/{farmId}/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkUploadResult,
  createFarmerBody,
  envelope,
  farm,
  farmer,
  farmersQuery,
  idParam,
  listOf,
  messageOnly,
  pageQuery,
  updateFarmerBody,
  uuid,
} from '@farmland/contracts';
import { parseWith, readForm } from '../../lib/form.js';
import { gate } from '../../lib/policy.js';
import * as farms from '../farms/farms.service.js';
import { idempotent } from '../idempotency/idempotency.js';
import { bulkMessage, readUploadFile } from '../bulk-upload/bulk-upload.js';
import { bulkUploadFarmers, FARMERS_TEMPLATE_CSV } from './farmers.bulk.js';
import { farmersPolicy } from './farmers.policy.js';
import * as farmers from './farmers.service.js';

const tags = ['farmers'];
const readers = gate(farmersPolicy, 'read');
const writers = gate(farmersPolicy, 'write');
const admins = gate(farmersPolicy, 'manage');
const doc =
  'multipart/form-data (an optional photo in "image": PNG, JPEG, WebP or GIF, checked by content) or JSON. A session, or the SDK license key in X-License-Key.';

export const farmersRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const form = (req: Parameters<typeof readForm>[0]) => readForm(req, { fileFields: ['image'], maxFiles: 1, fileSize: deps.config.imageLimit });

  app.get('/farmers/template.csv', {
    config: { access: 'public' },
    schema: { tags, summary: 'The bulk-upload template (farmers-template.csv): the farmer columns, then farm_name, operational_area_id, farm_coordinates' },
    handler: async (_req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="farmers-template.csv"')
        .send(FARMERS_TEMPLATE_CSV),
  });

  app.get('/farmers/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: "The tenant's farmers (provider staff: every tenant's) with number_of_farm, total_farm_size and is_mapped",
      querystring: farmersQuery,
      response: { 200: envelope(listOf(farmer)) },
    },
    handler: async (req) => ({ data: await farmers.listFarmers(deps, req.ctx, req.query, req.url) }),
  });

  app.post('/farmers/bulk-upload/', {
    config: admins,
    schema: {
      tags,
      summary:
        'Create farmers (and their farms) from a file (multipart "file": .csv, .xls or .xlsx, by content); every refused row comes back in failed_rows with every error per cell',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(bulkUploadResult) },
    },
    handler: async (req) => {
      const file = await readUploadFile(req, deps.config.uploadLimit);
      const data = await bulkUploadFarmers(deps, req.ctx, file);
      return { data, message: bulkMessage(data, data.created_count === 1 ? 'farmer' : 'farmers') };
    },
  });

  app.get('/farmers/:id/', {
    config: readers,
    schema: { tags, summary: 'One farmer', params: idParam, response: { 200: envelope(farmer) } },
    handler: async (req) => ({ data: await farmers.getFarmer(deps, req.ctx, req.params.id) }),
  });

  app.delete('/farmers/:id/', {
    config: admins,
    schema: {
      tags,
      summary: 'Delete a farmer; one with farms is refused (409 farmer_has_farms) unless delete_farms=true, which deletes the farms too',
      params: idParam,
      querystring: z.object({
        delete_farms: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false', '1', '0'], 'delete_farms must be true or false').optional()),
      }),
      response: { 200: messageOnly },
    },
    handler: async (req) => {
      const { farmsDeleted } = await farmers.deleteFarmer(deps, req.ctx, req.params.id, req.query.delete_farms === 'true' || req.query.delete_farms === '1');
      return {
        message: farmsDeleted > 0 ? `Farmer and ${farmsDeleted} farm${farmsDeleted === 1 ? '' : 's'} deleted successfully` : 'Farmer deleted successfully',
      };
    },
  });

  app.post('/farmers/', {
    config: writers,
    schema: {
      tags,
      summary: 'Create a farmer',
      description: `${doc} Optional Idempotency-Key header: see POST /farms/.`,
      consumes: ['multipart/form-data', 'application/json'],
      response: { 201: envelope(farmer) },
    },
    handler: async (req, reply) => {
      const input = await form(req);
      return idempotent(deps, req, reply, input, async () => ({
        status: 201,
        body: {
          data: await farmers.createFarmer(deps, req.ctx, parseWith(createFarmerBody, input.fields), input.files),
          message: 'Farmer created successfully',
        },
      }));
    },
  });

  app.put('/farmers/:id/', {
    config: writers,
    schema: {
      tags,
      summary: 'Edit a farmer (only the fields sent change)',
      description: doc,
      consumes: ['multipart/form-data', 'application/json'],
      params: idParam,
      response: { 200: envelope(farmer) },
    },
    handler: async (req) => {
      const { fields, files } = await form(req);
      return {
        data: await farmers.updateFarmer(deps, req.ctx, req.params.id, parseWith(updateFarmerBody, fields), files),
        message: 'Farmer edited successfully',
      };
    },
  });

  app.get('/farmers/:id/farms/', {
    config: readers,
    schema: {
      tags,
      summary: "A farmer's farms",
      params: idParam,
      querystring: pageQuery.pick({ page: true, page_size: true }),
      response: { 200: envelope(listOf(farm)) },
    },
    handler: async (req) => ({ data: await farms.listFarms(deps, req.ctx, req.query, req.url, req.params.id) }),
  });

  app.get('/farmers/:id/farms/:farmId/', {
    config: readers,
    schema: { tags, summary: 'One farm of a farmer', params: z.object({ id: uuid, farmId: uuid }), response: { 200: envelope(farm) } },
    handler: async (req) => ({ data: await farms.getFarm(deps, req.ctx, req.params.farmId, req.params.id) }),
  });
};
