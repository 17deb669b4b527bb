// Body-less calls to action routes (issue 33, item 12): a route that takes no input (its body schema accepts `{}`:
// suspend, revoke, reset…) accepts a call with no body at all, with an empty body under a JSON content type, and with
// `{}`, and they mean the same. Done once here, for every route, instead of per route:
// - the JSON parser reads an empty (or blank) body as no body instead of refusing it (fastify's
//   FST_ERR_CTP_EMPTY_JSON_BODY); any other body is parsed by fastify's own parser (prototype poisoning refused);
// - routes whose body schema accepts `{}` are found as they are registered (onRoute), and a missing body reaches their
//   validation as `{}`. A route whose body is required still refuses a missing one: 400 "body: A JSON body is required".
import type { FastifyInstance, FastifyRequest } from 'fastify';

type ZodLike = { safeParse(v: unknown): { success: boolean } };
const isZod = (s: unknown): s is ZodLike => typeof (s as ZodLike | undefined)?.safeParse === 'function';

/**
 * Write routes registered so far ("METHOD url") that can be called without a body: 'optional', their body schema
 * accepts `{}`; 'none', they have no body schema (actions such as retain, and uploads that read multipart themselves).
 * For the tests, which call each one without a body.
 */
export const bodylessRoutes = new Map<string, 'optional' | 'none'>();
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function registerEmptyBody(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    void json(req, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  app.addHook('onRoute', (route) => {
    const body = route.schema?.body;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => WRITES.has(m));
    if (body === undefined) for (const m of methods) bodylessRoutes.set(`${m} ${route.url}`, 'none');
    if (!isZod(body) || !body.safeParse({}).success) return;
    for (const m of methods) bodylessRoutes.set(`${m} ${route.url}`, 'optional');
    route.config = { ...(route.config ?? {}), acceptsEmptyBody: true };
  });

  app.addHook('preValidation', async (req: FastifyRequest) => {
    const noBody = req.body === undefined || req.body === null || (typeof req.body === 'string' && req.body.trim() === '');
    if (noBody && req.routeOptions.config?.acceptsEmptyBody && !req.isMultipart()) req.body = {};
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by plugins/empty-body.ts: the route's body schema accepts `{}`, so a missing body is read as `{}`. */
    acceptsEmptyBody?: boolean;
  }
}
