// Operational areas: GET and POST /operational-areas/, GET, PUT and DELETE /operational-areas/{id}/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, idParam, listOf, messageOnly, operationalArea, operationalAreaBody, operationalAreaQuery } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { areasPolicy } from './operational-areas.policy.js';
import * as areas from './operational-areas.service.js';

const tags = ['operational-areas'];
const readers = gate(areasPolicy, 'read');
const admins = gate(areasPolicy, 'write');

export const operationalAreasRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/operational-areas/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: "The tenant's operational areas (provider staff: every tenant's), newest first",
      querystring: operationalAreaQuery,
      response: { 200: envelope(listOf(operationalArea)) },
    },
    handler: async (req) => ({ data: await areas.listAreas(deps, req.ctx, req.query, req.url) }),
  });

  app.post('/operational-areas/', {
    config: admins,
    schema: {
      tags,
      summary: 'Create an operational area; farms it covers are assigned to it',
      body: operationalAreaBody,
      response: { 201: envelope(operationalArea) },
    },
    handler: async (req, reply) =>
      reply.status(201).send({ data: await areas.createArea(deps, req.ctx, req.body), message: 'Operational Area created successfully' }),
  });

  app.get('/operational-areas/:id/', {
    config: readers,
    schema: { tags, summary: 'One operational area', params: idParam, response: { 200: envelope(operationalArea) } },
    handler: async (req) => ({ data: await areas.getArea(deps, req.ctx, req.params.id) }),
  });

  app.put('/operational-areas/:id/', {
    config: admins,
    schema: {
      tags,
      summary: 'Edit an operational area; farm assignments follow the new boundary',
      params: idParam,
      body: operationalAreaBody,
      response: { 200: envelope(operationalArea) },
    },
    handler: async (req) => ({ data: await areas.updateArea(deps, req.ctx, req.params.id, req.body), message: 'Operational area edited successfully' }),
  });

  app.delete('/operational-areas/:id/', {
    config: admins,
    schema: {
      tags,
      summary: 'Delete an operational area; its farms move to another covering area or to none',
      params: idParam,
      response: { 200: messageOnly },
    },
    handler: async (req) => {
      await areas.deleteArea(deps, req.ctx, req.params.id);
      return { message: 'Operational area deleted successfully' };
    },
  });
};
