// The input guard: before any route's schema or handler sees a request, every query value, path parameter and JSON value
// is walked once, iteratively (no recursion, so no stack to exhaust), and the request is refused with a 400 naming the
// field when a value is something no route can store or walk safely:
// - U+0000 or a lone UTF-16 surrogate in any string or key (PostgreSQL refuses the first; the second is not text);
// - JSON nested deeper than MAX_JSON_DEPTH levels.
// The size of a JSON body is bounded before this by the body limit (413). Text schemas (contracts' text()) refuse the
// other control characters field by field; this guard is what makes a route that forgets one safe anyway.
// A route may name JSON paths whose strings it checks itself (config.inputGuard.ownText): custom analysis rows, whose
// bad characters are row errors, not a refused upload. Depth is still bounded there.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unstorableText } from '@farmland/contracts';
import { Problem, problems } from '../lib/problems.js';

/** Deeper than any payload of the contract (a polygon's coordinates are 4 levels; an analysis row's value gets 16 more). */
export const MAX_JSON_DEPTH = 32;

export type InputGuardConfig = { ownText?: readonly string[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    inputGuard?: InputGuardConfig;
  }
}

const fieldOf = (path: readonly (string | number)[], part: string): string => (path.length === 0 ? part : path.join('.'));

function characterProblem(path: readonly (string | number)[], part: string, value: string): Problem {
  const message = value.includes('\u0000')
    ? 'Remove the NUL character (U+0000): text cannot contain it'
    : 'Remove the broken character (a lone UTF-16 surrogate): text must be valid Unicode';
  return problems.field(fieldOf(path, part), message);
}

function tooDeep(path: readonly (string | number)[], part: string): Problem {
  const message = `This value is nested more than ${MAX_JSON_DEPTH} levels deep`;
  return new Problem(400, 'json_too_deep', `${fieldOf(path, part)}: ${message}`, [{ field: fieldOf(path, part), message }]);
}

type Frame = { node: Record<string, unknown> | unknown[]; keys: string[] | null; i: number; key: string | number; own: boolean };

/**
 * Walks one value depth-first with an explicit stack of frames (memory grows with the depth, not the size), and returns
 * the first problem, or null. Strings under the top-level keys in ownText are left to the route.
 */
export function inspectInput(root: unknown, part: string, ownText: readonly string[] = []): Problem | null {
  if (typeof root === 'string') return unstorableText(root) ? characterProblem([], part, root) : null;
  if (root === null || typeof root !== 'object' || Buffer.isBuffer(root)) return null;
  const frames: Frame[] = [{ node: root as Frame['node'], keys: Array.isArray(root) ? null : Object.keys(root), i: 0, key: '', own: false }];
  const pathTo = (key: string | number) => [...frames.slice(1).map((f) => f.key), key];
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    if (f.i >= (f.keys ? f.keys.length : (f.node as unknown[]).length)) {
      frames.pop();
      continue;
    }
    const key: string | number = f.keys ? f.keys[f.i]! : f.i;
    f.i++;
    if (typeof key === 'string' && !f.own && unstorableText(key)) return characterProblem(pathTo(key), part, key);
    const child = (f.node as Record<string | number, unknown>)[key];
    const own = f.own || (frames.length === 1 && typeof key === 'string' && ownText.includes(key));
    if (typeof child === 'string') {
      if (!own && unstorableText(child)) return characterProblem(pathTo(key), part, child);
      continue;
    }
    if (child === null || typeof child !== 'object') continue;
    if (frames.length >= MAX_JSON_DEPTH) return tooDeep(pathTo(key), part);
    frames.push({ node: child as Frame['node'], keys: Array.isArray(child) ? null : Object.keys(child), i: 0, key, own });
  }
  return null;
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const own = req.routeOptions.config?.inputGuard?.ownText ?? [];
    const problem = inspectInput(req.query, 'query') ?? inspectInput(req.params, 'params') ?? inspectInput(req.body, 'body', own);
    if (problem) throw problem;
  });
}
