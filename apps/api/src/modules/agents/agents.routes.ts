// Agents (docs/requirements.md §7 "Agents and users"): GET and POST /accounts/agents/, GET, PUT and DELETE /accounts/agents/{id}/,
// PUT /accounts/agents/{id}/suspend (toggles), POST /accounts/agents/bulk-upload/ and the agents-template download.
// Account reset is PUT /accounts/users/{id}/reset (accounts module).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agent,
  agentDetail,
  agentsQuery,
  bulkUploadResult,
  createAgentBody,
  envelope,
  idParam,
  listOf,
  messageOnly,
  updateAgentBody,
} from '@farmland/contracts';
import { parseWith, readForm } from '../../lib/form.js';
import { gate } from '../../lib/policy.js';
import { bulkMessage, readUploadFile } from '../bulk-upload/bulk-upload.js';
import { AGENTS_TEMPLATE_CSV, bulkUploadAgents } from './agents.bulk.js';
import { agentsPolicy } from './agents.policy.js';
import * as agents from './agents.service.js';

const tags = ['agents'];
const readers = gate(agentsPolicy, 'read');
const admins = gate(agentsPolicy, 'manage');
const doc = 'multipart/form-data (an optional photo in "image": PNG, JPEG, WebP or GIF, checked by content) or JSON.';

export const agentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const form = (req: Parameters<typeof readForm>[0]) => readForm(req, { fileFields: ['image'], maxFiles: 1, fileSize: deps.config.imageLimit });

  app.get('/accounts/agents/template.csv', {
    config: { access: 'public' },
    schema: { tags, summary: 'The bulk-upload template (agents-template.csv): first_name, last_name, email, phone_number, gender, operational_area_id' },
    handler: async (_req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="agents-template.csv"')
        .send(AGENTS_TEMPLATE_CSV),
  });

  app.get('/accounts/agents/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: "The tenant's agents with farmers, mapped farms, area mapped and progress",
      querystring: agentsQuery,
      response: { 200: envelope(listOf(agent)) },
    },
    handler: async (req) => ({ data: await agents.listAgents(deps, req.ctx, req.query, req.url) }),
  });

  app.post('/accounts/agents/', {
    config: admins,
    schema: {
      tags,
      summary: 'Create an agent (an onboarding mail lets them set a password)',
      description: doc,
      consumes: ['multipart/form-data', 'application/json'],
      response: { 201: envelope(agent) },
    },
    handler: async (req, reply) => {
      const { fields, files } = await form(req);
      const data = await agents.createAgent(deps, req.ctx, parseWith(createAgentBody, fields), files);
      return reply.status(201).send({ data, message: 'Agent created successfully' });
    },
  });

  app.post('/accounts/agents/bulk-upload/', {
    config: admins,
    schema: {
      tags,
      summary:
        'Create agents from a file (multipart "file": .csv, .xls or .xlsx, by content); every refused row comes back in failed_rows with every error per cell',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(bulkUploadResult) },
    },
    handler: async (req) => {
      const file = await readUploadFile(req, deps.config.uploadLimit);
      const data = await bulkUploadAgents(deps, req.ctx, file);
      return { data, message: bulkMessage(data, data.created_count === 1 ? 'agent' : 'agents') };
    },
  });

  app.get('/accounts/agents/:id/', {
    config: readers,
    schema: { tags, summary: 'One agent, with its ten latest captures (the agent drawer)', params: idParam, response: { 200: envelope(agentDetail) } },
    handler: async (req) => ({ data: await agents.getAgent(deps, req.ctx, req.params.id) }),
  });

  app.put('/accounts/agents/:id/', {
    config: admins,
    schema: {
      tags,
      summary: 'Edit an agent (only the fields sent change)',
      description: doc,
      consumes: ['multipart/form-data', 'application/json'],
      params: idParam,
      response: { 200: envelope(agent) },
    },
    handler: async (req) => {
      const { fields, files } = await form(req);
      return { data: await agents.updateAgent(deps, req.ctx, req.params.id, parseWith(updateAgentBody, fields), files), message: 'Agent edited successfully' };
    },
  });

  app.delete('/accounts/agents/:id/', {
    config: admins,
    schema: { tags, summary: 'Delete an agent: its sessions end; the farmers and farms it recorded stay', params: idParam, response: { 200: messageOnly } },
    handler: async (req) => {
      await agents.deleteAgent(deps, req.ctx, req.params.id);
      return { message: 'Agent deleted successfully' };
    },
  });

  app.put('/accounts/agents/:id/suspend', {
    config: admins,
    schema: {
      tags,
      summary: 'Suspend an active agent or unsuspend a suspended one (one call toggles); suspending ends its sessions at once',
      params: idParam,
      body: z.object({}).optional(),
      response: { 200: envelope(agent) },
    },
    handler: async (req) => {
      const { agent: data, suspended } = await agents.toggleSuspension(deps, req.ctx, req.params.id);
      return { data, message: suspended ? 'Agent suspended successfully' : 'Agent unsuspended successfully' };
    },
  });
};
