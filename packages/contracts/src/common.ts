// Shared building blocks of the API contract: envelopes, pagination, ids and the error body.
import { z } from 'zod';

export const uuid = z.uuid();

/** A query value that the console may send empty: empty strings are ignored (DESIGN: "empty query values are ignored"). */
export const emptyToUndefined = (v: unknown): unknown => (v === '' || v === null ? undefined : v);

export const pageQuery = z.object({
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(1)),
  page_size: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).optional()),
  search: z.preprocess(emptyToUndefined, z.string().trim().max(200).optional()),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export const envelope = <T extends z.ZodType>(payload: T) =>
  z.object({ data: payload, message: z.string().optional() });

export const messageOnly = z.object({ data: z.null().optional(), message: z.string() });

export const fieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldError>;

export const problemBody = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.union([z.array(fieldError), z.string()]).optional(),
  request_id: z.string().optional(),
});
export type ProblemBody = z.infer<typeof problemBody>;

export const roleName = z.enum(['super_admin', 'tenant_admin', 'agent']);
export type RoleName = z.infer<typeof roleName>;

export const platformName = z.enum(['web', 'mobile', 'sdk', 'api']);
export type PlatformName = z.infer<typeof platformName>;

/** YYYY-MM-DD, as DESIGN fixes for date-only inputs. */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD');

export const idParam = z.object({ id: uuid });
