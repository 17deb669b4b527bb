// Reads a write that may come as JSON or as multipart/form-data (fields plus image files), and validates it with its zod
// contract, so that routes accepting uploads still have one schema as the source of validation.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { FieldError } from '@farmland/contracts';
import { problems } from './problems.js';

export type UploadedFile = { field: string; filename: string; data: Buffer };
export type FormInput = { fields: Record<string, unknown>; files: UploadedFile[] };

/** JSON bodies pass through; multipart fields become strings (the last value wins) and files are buffered within the limits. */
export async function readForm(req: FastifyRequest, opts: { fileFields: readonly string[]; maxFiles: number; fileSize: number }): Promise<FormInput> {
  if (!req.isMultipart()) {
    const body = req.body;
    if (body === undefined || body === null) return { fields: {}, files: [] };
    if (typeof body !== 'object' || Array.isArray(body)) throw problems.field('body', 'Send a JSON object or multipart/form-data');
    return { fields: body as Record<string, unknown>, files: [] };
  }
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts({ limits: { files: opts.maxFiles, fileSize: opts.fileSize } })) {
      if (part.type === 'file') {
        if (!opts.fileFields.includes(part.fieldname)) {
          await part.toBuffer();
          throw problems.field(part.fieldname, `Unexpected file field; files go in ${opts.fileFields.join(' or ')}`);
        }
        const data = await part.toBuffer();
        if (data.length > 0) files.push({ field: part.fieldname, filename: part.filename.slice(0, 200), data });
      } else if (typeof part.value === 'string') {
        // A field name like coordinates or gender is reserved; "__proto__" and friends are ignored.
        if (part.fieldname === '__proto__' || part.fieldname === 'constructor' || part.fieldname === 'prototype') continue;
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw problems.field(opts.fileFields[0] ?? 'file', `A file is larger than ${Math.round(opts.fileSize / 1024)} KB`);
    if (code === 'FST_FILES_LIMIT') throw problems.field(opts.fileFields[0] ?? 'file', `At most ${opts.maxFiles} files are accepted`);
    throw err;
  }
  return { fields, files };
}

/** Parses input with a contract schema; failures become a 400 naming each field (as the error plugin does for route schemas). */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const errors: FieldError[] = r.error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message }));
  throw problems.validation(errors);
}
