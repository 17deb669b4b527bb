// Profile routes: GET/PATCH /accounts/users/{id}/, PUT /accounts/users/upload-image/, PUT /accounts/users/{id}/reset.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParam, messageOnly, updateUserBody, userProfile } from '@farmland/contracts';
import { problems } from '../../lib/problems.js';
import { firstFile } from '../../lib/form.js';
import { gate } from '../../lib/policy.js';
import { accountsPolicy } from './accounts.policy.js';
import * as accounts from './accounts.service.js';

const tags = ['accounts'];

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.put('/accounts/users/upload-image/', {
    config: gate(accountsPolicy, 'edit-own'),
    schema: {
      tags,
      summary: 'Upload the profile image (multipart field "image"; PNG, JPEG, WebP or GIF checked by content; size capped)',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(userProfile) },
    },
    handler: async (req) => {
      if (!req.isMultipart()) throw problems.unsupportedMediaType('Send the image as multipart/form-data in the field "image".');
      const tooLarge = () => problems.field('image', `The image is larger than ${Math.round(deps.config.imageLimit / 1024)} KB`);
      const part = await firstFile(req, { fileSize: deps.config.imageLimit, files: 1 }, tooLarge);
      if (!part || (part.field !== 'image' && part.field !== 'file')) throw problems.field('image', 'An image file is required');
      const data = part.data;
      if (data.length === 0) throw problems.field('image', 'The image is empty');
      return { data: await accounts.uploadImage(deps, req.ctx, { data, filename: part.filename }), message: 'Profile image updated successfully' };
    },
  });

  app.get('/accounts/users/:id/', {
    config: gate(accountsPolicy, 'see'),
    schema: { tags, summary: 'A user profile (yourself, or a user you administer)', params: idParam, response: { 200: envelope(userProfile) } },
    handler: async (req) => ({ data: await accounts.getUser(deps, req.ctx, req.params.id) }),
  });

  app.patch('/accounts/users/:id/', {
    config: gate(accountsPolicy, 'edit'),
    schema: { tags, summary: 'Edit a user profile', params: idParam, body: updateUserBody, response: { 200: envelope(userProfile) } },
    handler: async (req) => ({ data: await accounts.updateUser(deps, req.ctx, req.params.id, req.body), message: 'Profile updated successfully' }),
  });

  app.put('/accounts/users/:id/reset', {
    config: gate(accountsPolicy, 'reset'),
    schema: {
      tags,
      summary: 'Reset an account: end its sessions, clear password and two-factor, mail a new invitation',
      params: idParam,
      body: z.object({}).optional(),
      response: { 200: messageOnly },
    },
    handler: async (req) => {
      await accounts.resetAccount(deps, req.ctx, req.params.id);
      return { message: 'Account reset successfully' };
    },
  });
};
