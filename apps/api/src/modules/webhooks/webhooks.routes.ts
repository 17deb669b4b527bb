// Tenant webhooks (issue 32, part 3): /webhooks/ endpoints (list, create with the secret shown once, read, update,
// delete, rotate the secret, send a test event) and an endpoint's delivery log with redelivery. Tenant admins only
// (webhooks.policy.ts). The delivery job starts with the app and stops with it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createWebhookBody,
  envelope,
  idParam,
  messageOnly,
  updateWebhookBody,
  webhookDelivery,
  webhookDeliveryList,
  webhookDeliveryListQuery,
  webhookDeliveryParams,
  webhookEndpoint,
  webhookEndpointWithSecret,
} from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { webhookJobs } from './webhooks.job.js';
import { webhooksPolicy } from './webhooks.policy.js';
import * as webhooks from './webhooks.service.js';

const tags = ['webhooks'];

export const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const jobs = webhookJobs(deps, { log: app.log });
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());
  const access = gate(webhooksPolicy, 'manage');

  app.get('/webhooks/', {
    config: access,
    schema: { tags, summary: "The tenant's webhook endpoints, newest first", response: { 200: envelope(z.array(webhookEndpoint)) } },
    handler: async (req) => ({ data: await webhooks.listEndpoints(deps, req.ctx) }),
  });

  app.post('/webhooks/', {
    config: access,
    schema: {
      tags,
      summary:
        'Register an endpoint: url (https; a private address only when the operator allow-lists it), events, description; the answer holds the signing secret, shown this once',
      body: createWebhookBody,
      response: { 201: envelope(webhookEndpointWithSecret) },
    },
    handler: async (req, reply) =>
      reply.status(201).send({
        data: await webhooks.createEndpoint(deps, req.ctx, req.body),
        message: 'Webhook endpoint registered. Copy the secret now: it is not shown again.',
      }),
  });

  app.get('/webhooks/:id/', {
    config: access,
    schema: { tags, summary: 'One webhook endpoint', params: idParam, response: { 200: envelope(webhookEndpoint) } },
    handler: async (req) => ({ data: await webhooks.getEndpoint(deps, req.ctx, req.params.id) }),
  });

  app.patch('/webhooks/:id/', {
    config: access,
    schema: {
      tags,
      summary: "Change an endpoint's url, events, description or enabled",
      params: idParam,
      body: updateWebhookBody,
      response: { 200: envelope(webhookEndpoint) },
    },
    handler: async (req) => ({ data: await webhooks.updateEndpoint(deps, req.ctx, req.params.id, req.body), message: 'Webhook endpoint updated' }),
  });

  app.delete('/webhooks/:id/', {
    config: access,
    schema: { tags, summary: 'Delete an endpoint and its delivery log', params: idParam, response: { 200: messageOnly } },
    handler: async (req) => {
      await webhooks.deleteEndpoint(deps, req.ctx, req.params.id);
      return { message: 'Webhook endpoint deleted' };
    },
  });

  app.post('/webhooks/:id/rotate-secret/', {
    config: access,
    schema: {
      tags,
      summary: "Replace an endpoint's signing secret; the new secret is in the answer, shown this once",
      params: idParam,
      response: { 200: envelope(webhookEndpointWithSecret) },
    },
    handler: async (req) => ({
      data: await webhooks.rotateSecret(deps, req.ctx, req.params.id),
      message: 'Secret rotated. Copy it now: it is not shown again.',
    }),
  });

  app.post('/webhooks/:id/test/', {
    config: access,
    schema: {
      tags,
      summary: 'Send a webhook.test event to this endpoint (it shows in its delivery log)',
      params: idParam,
      response: { 202: envelope(z.object({ event_id: z.uuid() })) },
    },
    handler: async (req, reply) => reply.status(202).send({ data: await webhooks.sendTest(deps, req.ctx, req.params.id), message: 'Test event queued' }),
  });

  app.get('/webhooks/:id/deliveries/', {
    config: access,
    schema: {
      tags,
      summary: "An endpoint's delivery log, newest first: status, answer code, duration, attempts (with each attempt), next attempt",
      params: idParam,
      querystring: webhookDeliveryListQuery,
      response: { 200: envelope(webhookDeliveryList) },
    },
    handler: async (req) => ({ data: await webhooks.listDeliveries(deps, req.ctx, req.params.id, req.query, req.url) }),
  });

  app.post('/webhooks/:id/deliveries/:deliveryId/redeliver/', {
    config: access,
    schema: {
      tags,
      summary: 'Send a delivery again now (a new attempt, with the same webhook-id)',
      params: webhookDeliveryParams,
      response: { 202: envelope(webhookDelivery) },
    },
    handler: async (req, reply) =>
      reply.status(202).send({ data: await webhooks.redeliver(deps, req.ctx, req.params.id, req.params.deliveryId), message: 'Redelivery queued' }),
  });
};
