// The shapes every generated operation shares: its arguments (openapi-fetch's init, typed from the document), its data
// (the success body), and unwrap(), which turns an error answer into a thrown FarmlandApiError.
import type { MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, RequiredKeysOf, ResponseObjectMap, SuccessResponse } from 'openapi-typescript-helpers';
import { FarmlandApiError, type ProblemBody } from './errors.js';
import type { paths } from './schema.js';

type Op<P extends keyof paths, M extends HttpMethod> = M extends keyof paths[P] ? paths[P][M] : never;
type Init<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M & keyof paths[P]>;

/** An operation's argument: optional when nothing in it is required. */
export type Args<P extends keyof paths, M extends HttpMethod> = RequiredKeysOf<Init<P, M>> extends never ? [init?: Init<P, M>] : [init: Init<P, M>];

/** The JSON body of an operation's success answer. */
type Responses<P extends keyof paths, M extends HttpMethod> =
  ResponseObjectMap<Op<P, M>> extends infer R ? (R extends Record<string | number, unknown> ? R : never) : never;
export type Data<P extends keyof paths, M extends HttpMethod> = SuccessResponse<Responses<P, M>, `${string}/${string}`>;

/** The data of an openapi-fetch answer, or a FarmlandApiError built from its Problem body. */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  throw FarmlandApiError.from(response, error as ProblemBody | string | undefined);
}
