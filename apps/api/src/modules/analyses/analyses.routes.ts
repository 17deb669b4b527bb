// Custom analysis: POST /custom-analysis/ (multipart file or JSON locations), GET list and one, DELETE, the five result
// lists behind the analysis's URLs, and the sample template. The job queue starts with the app and stops with it.
import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  analysisDetail,
  analysisFarmPage,
  analysisFarmsQuery,
  analysisListKind,
  analysisExportQuery,
  analysisMap,
  analysisMapQuery,
  analysisReferenceLayerIds,
  ANALYSIS_MAP_LIMIT,
  analysisSummary,
  createAnalysisBody,
  envelope,
  idParam,
  listOf,
  messageOnly,
  pageQuery,
  text,
  type AnalysisListKind,
} from '@farmland/contracts';
import { analysisJobs } from './analyses.job.js';
import type { Deps } from '../../context.js';
import { multipartParts, partToFile } from '../../lib/form.js';
import { gate } from '../../lib/policy.js';
import { Problem, problems } from '../../lib/problems.js';
import { analysesPolicy } from './analyses.policy.js';
import * as analyses from './analyses.service.js';
import { exportCategory } from './analyses.export.js';
import { TEMPLATE_CSV, TEMPLATE_GEOJSON } from './analyses.template.js';
import { prewarmParseWorker } from './analyses.parse-client.js';
import { ACCEPTED } from '../../ingest/limits.js';

const tags = ['custom-analysis'];
const admins = gate(analysesPolicy, 'manage');

const multipartFields = z.object({
  name: text().trim().max(200).optional(),
  description: text({ multiline: true }).max(2000).optional(),
  operational_areas: z.array(z.uuid('Each operational area must be an id')).min(1, 'Choose at least one operational area').max(1000),
  minimum_farm_size: z.coerce.number().min(0).max(1e12).optional(),
  require_farm_recognition: z
    .enum(['true', 'false', '1', '0', 'on', 'off'])
    .transform((v) => v === 'true' || v === '1' || v === 'on')
    .optional(),
  /** GIS files: the feature property that names each farm (default farm_name, name, or the first text property). */
  name_field: text().trim().max(200).optional(),
  /** A follow-up: the analysis it re-analyses (same tenant). */
  parent_analysis_id: z.uuid('parent_analysis_id must be an analysis id').optional(),
  /** Issue 29: reference layers to screen the rows against (repeated, or a JSON / comma list). */
  reference_layer_ids: analysisReferenceLayerIds.optional(),
});

/** The upload limit's 413, naming the file field. */
const fileTooLarge = (limit: number) => () =>
  new Problem(413, 'payload_too_large', `file: The file is larger than the limit of ${limit} bytes`, [
    { field: 'file', message: `The file is larger than the limit of ${limit} bytes` },
  ]);

/** Room for the form's other parts (names, areas, part headers) next to the file, in a declared Content-Length. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** JSON bodies (locations) are parsed whole: at most this, whatever UPLOAD_LIMIT_BYTES allows a file. */
export const JSON_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * The multipart form: text fields (operational_areas repeated, or as a JSON list / comma list) and one file, written to
 * this machine's disk as it arrives (counted: past the limit, 413 at once). temp collects the file's path for removal.
 */
async function readMultipart(req: FastifyRequest, deps: Deps, temp: string[]): Promise<analyses.CreateInput> {
  const limit = deps.config.uploadLimit;
  const fields: Record<string, string> = {};
  const areas: string[] = [];
  const layers: string[] = [];
  let file: analyses.FileSource | null = null;
  for await (const part of multipartParts(req)) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw problems.field(part.fieldname, 'Send one file, in the field "file"');
      }
      const at = await analyses.uploadPath(deps);
      temp.push(at);
      const { size, sha256 } = await partToFile(part, at, limit, fileTooLarge(limit));
      file = { kind: 'file', path: at, size, sha256, filename: part.filename || 'upload' };
    } else {
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      const key = part.fieldname.replace(/\[\]$/, '');
      if (key === 'operational_areas' || key === 'reference_layer_ids') {
        const into = key === 'operational_areas' ? areas : layers;
        const text = value.trim();
        if (text.startsWith('[')) {
          try {
            const list: unknown = JSON.parse(text);
            if (Array.isArray(list)) into.push(...list.map(String));
          } catch {
            into.push(text);
          }
        } else
          into.push(
            ...text
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          );
      } else if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype') fields[key] = value;
    }
  }
  if (!file) throw problems.field('file', `Choose a file: ${ACCEPTED}`);
  const parsed = multipartFields.safeParse({
    name: fields['name'],
    description: fields['description'],
    operational_areas: areas,
    minimum_farm_size: fields['minimum_farm_size'] === '' ? undefined : fields['minimum_farm_size']?.replace(/,/g, ''),
    require_farm_recognition: fields['require_farm_recognition'] || undefined,
    name_field: fields['name_field'] || undefined,
    parent_analysis_id: fields['parent_analysis_id'] || undefined,
    reference_layer_ids: layers.length > 0 ? layers : undefined,
  });
  if (!parsed.success) throw problems.validation(analyses.fieldErrors(parsed.error.issues));
  return {
    name: parsed.data.name,
    description: parsed.data.description,
    operationalAreas: parsed.data.operational_areas,
    minimumFarmSize: parsed.data.minimum_farm_size,
    requireRecognition: parsed.data.require_farm_recognition,
    parentAnalysisId: parsed.data.parent_analysis_id,
    referenceLayerIds: parsed.data.reference_layer_ids,
    source: { ...file, nameField: parsed.data.name_field },
  };
}

const listPaths: Record<AnalysisListKind, string> = {
  within: 'within',
  outside: 'outside',
  overlapping: 'overlapping',
  unrecognized: 'unrecognized',
  errors: 'errors',
};

export const analysesRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const jobs = analysisJobs(deps);
  app.addHook('onReady', async () => {
    await analyses.sweepUploads(deps);
    await jobs.start();
  });
  app.addHook('onClose', async () => jobs.stop());

  app.get('/custom-analysis/template.csv', {
    config: { access: 'public' },
    schema: { tags, summary: 'The sample upload template (csv): farm_name, farm_coordinates as JSON, optional operational_area_id, own columns' },
    handler: async (_req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="farm-analysis-template.csv"')
        .send(TEMPLATE_CSV),
  });

  app.get('/custom-analysis/template.geojson', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'The sample upload template (GeoJSON FeatureCollection): a Polygon, a MultiPolygon and a Point farm, with farm_name and own properties',
    },
    handler: async (_req, reply) =>
      reply
        .header('content-type', 'application/geo+json; charset=utf-8')
        .header('content-disposition', 'attachment; filename="farm-analysis-template.geojson"')
        .send(TEMPLATE_GEOJSON),
  });

  app.post('/custom-analysis/', {
    // Rows report their own bad characters (row errors, not a refused upload): the input guard leaves their text alone.
    config: { ...admins, inputGuard: { ownText: ['locations'] } },
    // JSON bodies only: a multipart body is read by the multipart parser, its file written to disk as it arrives.
    bodyLimit: Math.min(deps.config.uploadLimit, JSON_BODY_LIMIT_BYTES),
    // A file upload starts the parse threads while its body is still arriving (after sign-in and access checks, which
    // are the global onRequest hooks); between uploads none runs. A declared length beyond the limit is refused before
    // any of the body is read, and the connection closed (the rest of the body is not read either).
    onRequest: (req, reply, done) => {
      if (!req.headers['content-type']?.startsWith('multipart/')) return done();
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > deps.config.uploadLimit + FORM_OVERHEAD_BYTES) {
        reply.header('connection', 'close');
        return done(fileTooLarge(deps.config.uploadLimit)());
      }
      prewarmParseWorker();
      done();
    },
    schema: {
      tags,
      summary:
        'Start a custom analysis: multipart (file: csv, xls, xlsx, GeoJSON, KML, KMZ or a zipped Shapefile; name, description, repeated operational_areas, name_field, parent_analysis_id, repeated reference_layer_ids) or JSON (name, description, operational_areas, locations, minimum_farm_size, require_farm_recognition, parent_analysis_id, reference_layer_ids)',
      consumes: ['application/json', 'multipart/form-data'],
      response: { 201: envelope(analysisDetail) },
    },
    handler: async (req, reply) => {
      let input: analyses.CreateInput;
      let data: Awaited<ReturnType<typeof analyses.createAnalysis>>;
      const temp: string[] = [];
      try {
        if (req.isMultipart()) input = await readMultipart(req, deps, temp);
        else {
          const parsed = createAnalysisBody.safeParse(req.body ?? {});
          if (!parsed.success) throw problems.validation(analyses.fieldErrors(parsed.error.issues));
          const b = parsed.data;
          input = {
            name: b.name,
            description: b.description,
            operationalAreas: b.operational_areas,
            minimumFarmSize: b.minimum_farm_size,
            requireRecognition: b.require_farm_recognition,
            parentAnalysisId: b.parent_analysis_id,
            referenceLayerIds: b.reference_layer_ids,
            source: { kind: 'json', locations: b.locations },
          };
        }
        data = await analyses.createAnalysis(deps, req.ctx, jobs.enqueue, input);
      } finally {
        for (const at of temp) await fs.promises.rm(at, { force: true }).catch(() => undefined);
      }
      return reply.status(201).send({ data, message: 'Upload successful' });
    },
  });

  app.get('/custom-analysis/', {
    config: { ...admins, sessionWithRead: true },
    schema: {
      tags,
      summary: "The tenant's analyses, newest first (search by name or description)",
      querystring: pageQuery,
      response: { 200: envelope(listOf(analysisSummary)) },
    },
    handler: async (req) => ({ data: await analyses.listAnalyses(deps, req.ctx, req.query, req.url) }),
  });

  app.get('/custom-analysis/:id/', {
    config: admins,
    schema: {
      tags,
      summary: 'An analysis: status and progress, totals, the four categories as {count, url}, and the failed rows',
      params: idParam,
      response: { 200: envelope(analysisDetail) },
    },
    handler: async (req) => ({ data: await analyses.getAnalysis(deps, req.ctx, req.params.id) }),
  });

  app.delete('/custom-analysis/:id/', {
    config: admins,
    schema: { tags, summary: 'Delete an analysis with its rows and source file', params: idParam, response: { 200: messageOnly } },
    handler: async (req) => {
      await analyses.deleteAnalysis(deps, req.ctx, req.params.id);
      return { message: 'Analysis deleted successfully' };
    },
  });

  app.get('/custom-analysis/:id/export/', {
    config: admins,
    schema: {
      tags,
      summary: 'One category of the results as a file, streamed: CSV (geometry as GeoJSON text, own columns as JSON) or a GeoJSON FeatureCollection',
      params: idParam,
      querystring: analysisExportQuery,
      produces: ['text/csv', 'application/geo+json'],
    },
    handler: async (req, reply) => {
      const file = await exportCategory(deps, req.ctx, req.params.id, req.query);
      return reply
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('access-control-expose-headers', 'Content-Disposition')
        .header('cache-control', 'no-store')
        .type(file.mime)
        .send(file.stream);
    },
  });

  app.get('/custom-analysis/:id/map/', {
    config: admins,
    schema: {
      tags,
      summary: `The result map: every analysed row with a polygon (row_number, name, category, overlap and recognition flags, rings), at most ${ANALYSIS_MAP_LIMIT}; bbox narrows it`,
      params: idParam,
      querystring: analysisMapQuery,
      response: { 200: envelope(analysisMap) },
    },
    // Built as JSON text in SQL (like GET /farms/?all=true): a string body skips serialization, so 20,000 features are
    // not re-validated; the API tests check the answer against analysisMap.
    handler: async (req, reply) => {
      const map = await analyses.analysisMapJson(deps, req.ctx, req.params.id, req.query.bbox);
      return reply.type('application/json; charset=utf-8').send(`{"data":${map}}` as unknown as { data: z.infer<typeof analysisMap> });
    },
  });

  for (const kind of analysisListKind.options) {
    app.get(`/custom-analysis/:id/${listPaths[kind]}/`, {
      config: admins,
      schema: {
        tags,
        summary: `The ${kind} farms of an analysis (page_size default 100)${kind === 'overlapping' ? ', grouped by overlapping_id' : ''}; by page (the first 10,000 rows) or by cursor with after=<row_number> (any depth; next carries the cursor)`,
        params: idParam,
        querystring: analysisFarmsQuery,
        response: { 200: envelope(analysisFarmPage) },
      },
      handler: async (req) => ({ data: await analyses.listFarms(deps, req.ctx, req.params.id, kind, req.query, req.url) }),
    });
  }
};
