// The farm registry: GET /farms/ (page or ?all=true GeoJSON), statistics, one farm and its overlap group; captures
// (POST and PUT /farms/, agent session or SDK license key; JSON or multipart with snapshots), delete, and retain (intersect).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  captureFarmBody,
  envelope,
  farm,
  farmOverlap,
  farmFeatureCollection,
  farmsOverview,
  farmsPerCountry,
  farmsPerState,
  farmsQuery,
  idParam,
  listOf,
  messageOnly,
  pageQuery,
  regionalQuery,
  tenantScopedQuery,
  updateFarmBody,
} from '@farmland/contracts';
import { parseWith, readForm } from '../../lib/form.js';
import { gate } from '../../lib/policy.js';
import { farmsPolicy } from './farms.policy.js';
import { idempotent } from '../idempotency/idempotency.js';
import * as farms from './farms.service.js';

const tags = ['farms'];
const readers = gate(farmsPolicy, 'read');
const capture = gate(farmsPolicy, 'capture');
const admins = gate(farmsPolicy, 'manage');
const captureDoc =
  'JSON, or multipart/form-data with the same fields (coordinates as JSON text) and up to 10 image files in "snapshots" (PNG, JPEG, WebP or GIF, checked by content). ' +
  "Send a field agent's bearer token, or the tenant's SDK license key in X-License-Key.";
const idempotencyDoc =
  ' Optional Idempotency-Key header (1–255 visible ASCII characters): for 24 hours, the same key with the same body answers the first result again ' +
  '(with Idempotent-Replayed: true); with another body, 409 idempotency_key_reused; while the first is still running, 409 idempotency_key_in_progress.';

export const farmsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const form = (req: Parameters<typeof readForm>[0]) =>
    readForm(req, { fileFields: ['snapshots', 'snapshot'], maxFiles: farms.MAX_SNAPSHOTS + 1, fileSize: deps.config.imageLimit });

  app.get('/farms/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: "The tenant's farms (provider staff: every tenant's), newest first; with all=true a GeoJSON FeatureCollection (optional bbox)",
      querystring: farmsQuery,
      response: { 200: envelope(z.union([listOf(farm), farmFeatureCollection])) },
    },
    handler: async (req, reply) => {
      if (req.query.all) {
        // Built as JSON text in SQL: a string body skips serialization, so thousands of features are not re-validated.
        const fc = await farms.farmsGeoJson(deps, req.ctx, req.query);
        return reply.type('application/json; charset=utf-8').send(`{"data":${fc}}` as unknown as { data: z.infer<typeof farmFeatureCollection> });
      }
      return { data: await farms.listFarms(deps, req.ctx, req.query, req.url) };
    },
  });

  app.get('/farms/overview', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: 'Totals: within / outside operational areas, overlapping, unrecognized (flagged by retain or below the minimum)',
      querystring: tenantScopedQuery,
      response: { 200: envelope(farmsOverview) },
    },
    handler: async (req) => ({ data: await farms.overview(deps, req.ctx, req.query.tenant_id) }),
  });

  app.get('/farms/global', {
    config: readers,
    schema: {
      tags,
      summary: 'Farmers and farms per country (code = ISO 3166-1 alpha-2)',
      querystring: tenantScopedQuery,
      response: { 200: envelope(farmsPerCountry) },
    },
    handler: async (req) => ({ data: await farms.perCountry(deps, req.ctx, req.query.tenant_id) }),
  });

  app.get('/farms/regional', {
    config: readers,
    schema: {
      tags,
      summary: 'Farms per state of a country (name = country name or ISO code)',
      querystring: regionalQuery,
      response: { 200: envelope(farmsPerState) },
    },
    handler: async (req) => ({ data: await farms.regional(deps, req.ctx, req.query.name, req.query.tenant_id) }),
  });

  app.get('/farms/categorized-by-state', {
    config: readers,
    schema: { tags, summary: 'Farms per state, states with farms only', querystring: tenantScopedQuery, response: { 200: envelope(farmsPerState) } },
    handler: async (req) => ({ data: await farms.perState(deps, req.ctx, req.query.tenant_id) }),
  });

  app.get('/farms/:id/', {
    config: readers,
    schema: { tags, summary: 'One farm with its mapping record and snapshots', params: idParam, response: { 200: envelope(farm) } },
    handler: async (req) => ({ data: await farms.getFarm(deps, req.ctx, req.params.id) }),
  });

  app.get('/farms/:id/overlapping/', {
    config: readers,
    schema: {
      tags,
      summary: "The farms of this farm's overlap group (itself included); empty when it overlaps nothing",
      params: idParam,
      querystring: pageQuery.pick({ page: true, page_size: true }),
      response: { 200: envelope(listOf(farm)) },
    },
    handler: async (req) => ({ data: await farms.overlappingFarms(deps, req.ctx, req.params.id, req.query, req.url) }),
  });

  app.get('/farms/:id/overlaps/', {
    config: readers,
    schema: {
      tags,
      summary:
        "This farm's overlaps with the other farms of its tenant, each measured: area (m², geodesic), share of each farm, intersection over union; " +
        'sliver = under the overlap tolerance ("touching or sliver": listed, not grouped). Grouped first, then by area; at most 100',
      params: idParam,
      response: { 200: envelope(z.array(farmOverlap)) },
    },
    handler: async (req) => ({ data: await farms.farmOverlaps(deps, req.ctx, req.params.id) }),
  });

  app.post('/farms/', {
    config: capture,
    schema: {
      tags,
      summary: 'Capture a farm with its mapping record',
      description: captureDoc + idempotencyDoc,
      consumes: ['application/json', 'multipart/form-data'],
      response: { 201: envelope(farm) },
    },
    handler: async (req, reply) => {
      const input = await form(req);
      return idempotent(deps, req, reply, input, async () => ({
        status: 201,
        body: { data: await farms.captureFarm(deps, req.ctx, parseWith(captureFarmBody, input.fields), input.files), message: 'Farm captured successfully' },
      }));
    },
  });

  app.put('/farms/:id/', {
    config: capture,
    schema: {
      tags,
      summary: 'Re-map a farm (new boundary; the old one is kept as history) or correct its details; snapshots are added',
      description: captureDoc,
      consumes: ['application/json', 'multipart/form-data'],
      params: idParam,
      response: { 200: envelope(farm) },
    },
    handler: async (req) => {
      const { fields, files } = await form(req);
      return { data: await farms.updateFarm(deps, req.ctx, req.params.id, parseWith(updateFarmBody, fields), files), message: 'Farm updated successfully' };
    },
  });

  app.delete('/farms/:id/', {
    config: admins,
    schema: { tags, summary: 'Delete a farm; its overlap group is recomputed', params: idParam, response: { 200: messageOnly } },
    handler: async (req) => {
      await farms.deleteFarm(deps, req.ctx, req.params.id);
      return { message: 'Farm deleted successfully' };
    },
  });

  app.post('/farms/:id/intersect', {
    config: admins,
    schema: {
      tags,
      summary: 'Retain: keep this farm; cut it out of the overlapping farms of its group; returns the farms of the group that still overlap',
      params: idParam,
      response: { 200: envelope(z.array(farm)) },
    },
    handler: async (req) => ({ data: await farms.retainFarm(deps, req.ctx, req.params.id), message: 'Farm coordinates retained successfully' }),
  });
};
