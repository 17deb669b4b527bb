// Reference layers (issue 29). Two route sets over one service (docs/decisions/reference-layer-routes.md):
// - provider staff: /base/reference-layers/ (the provider's layers, shared with every tenant), as /base/ holds the
//   provider-wide resources;
// - tenant admins: /reference-layers/ (the tenant's own layers, and the provider's to read), like /operational-areas/.
// Each: GET list, POST upload (multipart: file + details), GET one, GET its progress, POST replace, DELETE.
// Also the tenant's plot-risk thresholds (/reference-layers/risk-settings/), a farm's screening (/farms/{id}/screening/)
// and the layer features that meet it, for a map (/farms/{id}/screening/evidence/).
// The load queue starts with the app and stops with it.
import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  createReferenceLayerFields,
  envelope,
  farmScreening,
  idParam,
  messageOnly,
  plotRiskSettings,
  referenceLayer,
  referenceLayerListQuery,
  referenceLayerProgress,
  replaceReferenceLayerFields,
  screeningEvidence,
  updatePlotRiskSettingsBody,
} from '@farmland/contracts';
import { z as zod } from 'zod';
import type { Deps } from '../../context.js';
import { gate } from '../../lib/policy.js';
import { layerJobs } from './reference-layers.job.js';
import { referenceLayersPolicy } from './reference-layers.policy.js';
import { multipartParts, partToFile, parseWith } from '../../lib/form.js';
import { Problem, problems } from '../../lib/problems.js';
import { uploadPath } from '../../ingest/uploads.js';
import * as layers from './reference-layers.service.js';

const tags = ['reference-layers'];

const fileTooLarge = (limit: number) => () =>
  new Problem(413, 'payload_too_large', `file: The file is larger than the limit of ${limit} bytes`, [
    { field: 'file', message: `The file is larger than the limit of ${limit} bytes` },
  ]);

/** The multipart form: text fields and one file (field "file"), written to disk as it arrives; temp collects its path. */
async function readUpload<S extends z.ZodType>(
  req: FastifyRequest,
  deps: Deps,
  schema: S,
  temp: string[],
): Promise<{ fields: z.output<S>; file: layers.LayerFile }> {
  if (!req.isMultipart()) throw problems.field('file', 'Send multipart/form-data with the layer file in the field "file"');
  const limit = deps.config.uploadLimit;
  const fields: Record<string, string> = {};
  let file: layers.LayerFile | null = null;
  for await (const part of multipartParts(req)) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw problems.field(part.fieldname, 'Send one file, in the field "file"');
      }
      const at = await uploadPath(deps);
      temp.push(at);
      const { size } = await partToFile(part, at, limit, fileTooLarge(limit));
      file = { path: at, size, filename: part.filename || 'upload' };
    } else if (part.fieldname !== '__proto__' && part.fieldname !== 'constructor' && part.fieldname !== 'prototype') {
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      if (value !== '') fields[part.fieldname] = value;
    }
  }
  const parsed = parseWith(schema, fields);
  if (!file) throw problems.field('file', 'Choose a GeoJSON, KML, KMZ or zipped Shapefile (.zip) file');
  return { fields: parsed, file };
}

async function withUpload<T>(fn: (temp: string[]) => Promise<T>): Promise<T> {
  const temp: string[] = [];
  try {
    return await fn(temp);
  } finally {
    for (const t of temp) await fs.promises.rm(t, { force: true }).catch(() => undefined);
  }
}

export const referenceLayersRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const jobs = layerJobs(deps);
  // Started at boot, after the analysis queue (whose onReady installs pg-boss's schema first): creating the queues uses
  // the owner's connection, which a production server allows only while it boots (db/client.ts), so this start is
  // awaited here, never left to run after the server is up.
  app.addHook('onReady', async () => {
    await jobs.start();
  });
  app.addHook('onClose', async () => jobs.stop());

  const routeSet = (prefix: string, access: ReturnType<typeof gate>, who: string) => {
    app.get(`${prefix}/`, {
      config: access,
      schema: {
        tags,
        summary: `${who}: reference layers, newest first`,
        querystring: referenceLayerListQuery,
        response: { 200: envelope(zod.array(referenceLayer)) },
      },
      handler: async (req) => ({ data: await layers.listLayers(deps, req.ctx, req.query) }),
    });

    app.post(`${prefix}/`, {
      config: access,
      schema: {
        tags,
        summary: `${who}: upload a layer (multipart: file = GeoJSON, KML, KMZ or zipped Shapefile; name, kind, reference_date, source, licence, name_field); it loads in the background`,
        response: { 202: envelope(referenceLayer) },
      },
      handler: async (req, reply) =>
        withUpload(async (temp) => {
          const { fields, file } = await readUpload(req, deps, createReferenceLayerFields, temp);
          const data = await layers.createLayer(deps, req.ctx, jobs.enqueue, fields, file);
          return reply.status(202).send({ data, message: 'Layer uploaded; it is loading' });
        }),
    });

    app.get(`${prefix}/:id/`, {
      config: access,
      schema: { tags, summary: `${who}: one reference layer`, params: idParam, response: { 200: envelope(referenceLayer) } },
      handler: async (req) => ({ data: await layers.getLayer(deps, req.ctx, req.params.id) }),
    });

    app.get(`${prefix}/:id/progress/`, {
      config: access,
      schema: { tags, summary: `${who}: a layer's load and screening progress`, params: idParam, response: { 200: envelope(referenceLayerProgress) } },
      handler: async (req) => ({ data: await layers.layerProgress(deps, req.ctx, req.params.id) }),
    });

    app.post(`${prefix}/:id/replace/`, {
      config: access,
      schema: {
        tags,
        summary: `${who}: replace a layer's features with a new file (and optionally its details); the new version is put in use at once when complete`,
        params: idParam,
        response: { 202: envelope(referenceLayer) },
      },
      handler: async (req, reply) =>
        withUpload(async (temp) => {
          const { fields, file } = await readUpload(req, deps, replaceReferenceLayerFields, temp);
          const data = await layers.replaceLayer(deps, req.ctx, jobs.enqueue, req.params.id, fields, file);
          return reply.status(202).send({ data, message: 'Replacement uploaded; it is loading' });
        }),
    });

    app.delete(`${prefix}/:id/`, {
      config: access,
      schema: { tags, summary: `${who}: delete a layer, its features and the farms' figures against it`, params: idParam, response: { 200: messageOnly } },
      handler: async (req) => {
        await layers.deleteLayer(deps, req.ctx, req.params.id);
        return { message: 'Reference layer deleted successfully' };
      },
    });
  };

  // Static paths before the set's /:id/ (find-my-way prefers them anyway).
  app.get('/reference-layers/risk-settings/', {
    config: gate(referenceLayersPolicy, 'risk'),
    schema: { tags, summary: "The tenant's plot-risk thresholds (docs/decisions/0072-eudr-plot-risk.md)", response: { 200: envelope(plotRiskSettings) } },
    handler: async (req) => ({ data: await layers.getRiskSettings(deps, req.ctx) }),
  });
  app.put('/reference-layers/risk-settings/', {
    config: gate(referenceLayersPolicy, 'risk'),
    schema: { tags, summary: "Change the tenant's plot-risk thresholds", body: updatePlotRiskSettingsBody, response: { 200: envelope(plotRiskSettings) } },
    handler: async (req) => ({ data: await layers.updateRiskSettings(deps, req.ctx, req.body), message: 'Plot-risk thresholds updated' }),
  });
  app.get('/farms/:id/screening/', {
    config: gate(referenceLayersPolicy, 'risk'),
    schema: {
      tags,
      summary: "A farm's overlap with each reference layer in use (m², share) and its plot-risk verdict with the reasons",
      params: idParam,
      response: { 200: envelope(farmScreening) },
    },
    handler: async (req) => ({ data: await layers.farmScreening(deps, req.ctx, req.params.id) }),
  });
  app.get('/farms/:id/screening/evidence/', {
    config: gate(referenceLayersPolicy, 'risk'),
    schema: {
      tags,
      summary:
        "The reference-layer features that meet a farm (layers in use: the provider's and the tenant's own), clipped to the farm's widened bounding box, as GeoJSON for a map",
      params: idParam,
      response: { 200: envelope(screeningEvidence) },
    },
    handler: async (req) => ({ data: await layers.farmScreeningEvidence(deps, req.ctx, req.params.id) }),
  });

  routeSet('/base/reference-layers', gate(referenceLayersPolicy, 'provider'), 'Provider');
  routeSet('/reference-layers', gate(referenceLayersPolicy, 'tenant'), 'Tenant');
};
