// Type helpers over the shared zod contract (@farmland/contracts): request bodies are the schemas' input types,
// responses their output types, wrapped in the API's envelope. The envelope and the list page are the contract's own
// schemas (envelope, listOf, messageOnly), inferred here, never written again. Only types: no zod code reaches the bundle.
import type { z } from 'zod';
import type { envelope, listOf, messageOnly } from '@farmland/contracts';

export type Out<T extends z.ZodType> = z.output<T>;
export type In<T extends z.ZodType> = z.input<T>;

/** The success envelope: { data, message? } (the contract's envelope(), with the payload's type). */
export type Envelope<T> = Omit<z.output<ReturnType<typeof envelope<z.ZodUnknown>>>, 'data'> & { data: T };

/** A message-only success answer (the contract's messageOnly). */
export type MessageEnvelope = z.output<typeof messageOnly>;

/** A list page: { count, count_estimated?, next, previous, results } (the contract's listOf(), with the row's type). */
export type ListPage<T> = Omit<z.output<ReturnType<typeof listOf<z.ZodUnknown>>>, 'results'> & { results: T[] };
