// Type helpers over the shared zod contract (@farmland/contracts): request bodies are the schemas' input types,
// responses their output types, wrapped in the API's envelope. Only types: no zod code reaches the bundle from here.
import type { z } from 'zod';

export type Out<T extends z.ZodType> = z.output<T>;
export type In<T extends z.ZodType> = z.input<T>;

/** The success envelope of docs/design-rules.md: { data, message? }. */
export type Envelope<T> = { data: T; message?: string };

/** A message-only success answer. */
export type MessageEnvelope = { data?: null; message: string };

/** A list page: { count, next, previous, results }. */
export type ListPage<T> = { count: number; count_estimated?: true; next: string | null; previous: string | null; results: T[] };
