// Lookups and regions: GET /base/all-countries/, /base/states/{countryId}/, /base/countries/{id}/cities/, GET and POST /base/regions/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cityRef,
  countryRef,
  createRegionBody,
  emptyToUndefined,
  envelope,
  idParam,
  listOf,
  pageQuery,
  region,
  regionsQuery,
  stateRef,
  text,
} from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { basePolicy } from './base.policy.js';
import * as base from './base.service.js';

const tags = ['base'];
const anyone = gate(basePolicy, 'lookups');

export const baseRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/base/all-countries/', {
    config: anyone,
    schema: { tags, summary: 'Country reference list with currency and flag', response: { 200: envelope(z.array(countryRef)) } },
    handler: async () => ({ data: await base.allCountries(deps) }),
  });

  app.get('/base/states/:id/', {
    config: anyone,
    schema: { tags, summary: 'States of a country (id is the country id)', params: idParam, response: { 200: envelope(z.array(stateRef)) } },
    handler: async (req) => ({ data: await base.statesOf(deps, req.params.id) }),
  });

  app.get('/base/countries/:id/cities/', {
    config: anyone,
    schema: {
      tags,
      summary: 'Cities of a country with latitude and longitude (search by name prefix)',
      params: idParam,
      querystring: z.object({ search: z.preprocess(emptyToUndefined, text().trim().max(100).optional()) }),
      response: { 200: envelope(z.array(cityRef)) },
    },
    handler: async (req) => ({ data: await base.citiesOf(deps, req.params.id, req.query.search) }),
  });

  app.get('/base/regions/', {
    config: gate(basePolicy, 'read-regions'),
    schema: {
      tags,
      summary: "The tenant's regions (provider staff: every tenant's)",
      querystring: pageQuery.pick({ page: true, page_size: true }).extend(regionsQuery.shape),
      response: { 200: envelope(listOf(region)) },
    },
    handler: async (req) => ({ data: await base.listRegions(deps, req.ctx, req.query, req.url) }),
  });

  app.post('/base/regions/', {
    config: gate(basePolicy, 'create-region'),
    schema: { tags, summary: 'Create a region of the tenant', body: createRegionBody, response: { 201: envelope(region) } },
    handler: async (req, reply) => reply.status(201).send({ data: await base.createRegion(deps, req.ctx, req.body), message: 'Region created successfully' }),
  });
};
