// GET /api/config: public deployment settings the console reads at start (the map's basemap style URL). Nothing secret.
// GET /api/crypto/key: the body-encryption mode and the server's current public key (plugins/payload-encryption.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { consoleConfig, envelope, payloadKeyInfo } from '@farmland/contracts';
import { PAYLOAD_ALG, PAYLOAD_ENC } from '../../lib/payload-crypto.js';

export const consoleConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/config', {
    config: { access: 'public' },
    schema: {
      tags: ['operations'],
      summary: "The console's deployment settings: the basemap style URL (MAP_STYLE_URL) and the map's tile threshold",
      security: [],
      response: { 200: envelope(consoleConfig) },
    },
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return { data: { map_style_url: app.deps.config.mapStyleUrl, map_tile_threshold: app.deps.config.mapTileThreshold } };
    },
  });
  app.get('/crypto/key', {
    config: { access: 'public' },
    schema: {
      tags: ['operations'],
      summary:
        'How bodies are encrypted (PAYLOAD_ENCRYPTION) and the public key to encrypt them to: a compact JWE, ECDH-ES with A256GCM, with kid, htm, htu, iat, jti and (with a bearer token) ath in its protected header',
      security: [],
      response: { 200: envelope(payloadKeyInfo) },
    },
    handler: async (_req, reply) => {
      // Short caching: a rotation (PAYLOAD_KEY_VERSION) reaches consoles within minutes; the previous key still decrypts.
      reply.header('cache-control', 'public, max-age=300');
      const { mode } = app.deps.config.payload;
      const key = app.deps.keys.payload.current;
      return { data: { mode, key: mode === 'off' ? null : { kid: key.kid, alg: PAYLOAD_ALG, enc: PAYLOAD_ENC, jwk: key.publicJwk } } };
    },
  });
};
