// What the console needs to know about the deployment before anything else: the basemap style URL (MAP_STYLE_URL).
import { z } from 'zod';

export const consoleConfig = z.object({
  /** A MapLibre style URL; null means the console's bundled offline style (background + country outlines). */
  map_style_url: z.string().nullable(),
  /** Above this many farms the Farmlands map reads vector tiles (GET /farms/tiles/{z}/{x}/{y}.mvt) instead of GeoJSON. */
  map_tile_threshold: z.number().int(),
});
export type ConsoleConfig = z.infer<typeof consoleConfig>;

/** GET /crypto/key: how request and response bodies are encrypted here (PAYLOAD_ENCRYPTION), and the key to use. */
export const payloadKeyInfo = z.object({
  mode: z.enum(['required', 'optional', 'off']),
  /**
   * null when mode is off. A body is a compact JWE: alg ECDH-ES, enc A256GCM, kid, htm (method), htu (path), iat (epoch
   * seconds, within 300 s of the server's clock), jti (16-64 base64url characters, once), ath (base64url SHA-256 of the
   * bearer token, only with one).
   */
  key: z
    .object({
      kid: z.string(),
      alg: z.literal('ECDH-ES'),
      enc: z.literal('A256GCM'),
      jwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
    })
    .nullable(),
});
export type PayloadKeyInfo = z.infer<typeof payloadKeyInfo>;
