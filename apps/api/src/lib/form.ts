// Reads a write that may come as JSON or as multipart/form-data (fields plus image files), and validates it with its zod
// contract, so that routes accepting uploads still have one schema as the source of validation.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { z } from 'zod';
import type { FieldError } from '@farmland/contracts';
import { Problem, problems } from './problems.js';

// ---------- multipart: the one reader every multipart route uses ----------
// The parser (busboy, under @fastify/multipart) throws plain Errors for a body it cannot read: no boundary in the
// content type ("Boundary not found"), a boundary longer than it can search for, a body that ends mid-part ("Unexpected
// end of multipart data"). Read through multipartParts and partBuffer, each of them is a 400 with a stable code.

type PartLimits = { files?: number; fileSize?: number };

/** Why a multipart body could not be read, as a Problem; Problems pass through, a too-large file is the caller's own. */
export function multipartProblem(err: unknown, fileTooLarge?: () => Problem): Problem {
  if (err instanceof Problem) return err;
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return fileTooLarge ? fileTooLarge() : new Problem(413, 'payload_too_large', 'A file is larger than the upload limit.');
  if (code === 'FST_FILES_LIMIT') return problems.badRequest('multipart_too_many_parts', 'The form has more files than this request accepts.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return problems.badRequest('multipart_too_many_parts', 'The form has more parts than this request accepts.');
  if (code === 'FST_PROTO_VIOLATION') return problems.badRequest('invalid_multipart', 'A form field name is not allowed (__proto__ or constructor).');
  if (/boundary/i.test(message) || /needle/i.test(message)) {
    return problems.badRequest(
      'invalid_multipart',
      'The multipart body has no usable boundary: send Content-Type multipart/form-data; boundary=… (at most 70 characters) and a body that uses it.',
    );
  }
  if (/unexpected end|terminated early|premature|closed before/i.test(message) || code === 'FST_MP_PREMATURE_CLOSE') {
    return problems.badRequest('invalid_multipart', 'The multipart body ends before its last part is complete: send the whole form again.');
  }
  return problems.badRequest('invalid_multipart', 'The multipart body could not be read: send a well-formed multipart/form-data body.');
}

/** The parts of a multipart request; any error of the parser is a 400 (see multipartProblem). */
export async function* multipartParts(req: FastifyRequest, limits?: PartLimits): AsyncGenerator<Multipart> {
  let it: AsyncIterator<Multipart>;
  try {
    it = req.parts(limits ? { limits } : undefined)[Symbol.asyncIterator]();
  } catch (err) {
    throw multipartProblem(err);
  }
  for (;;) {
    let r: IteratorResult<Multipart>;
    try {
      r = await it.next();
    } catch (err) {
      throw multipartProblem(err);
    }
    if (r.done) return;
    yield r.value;
  }
}

/** A file part's bytes; a truncated body is a 400, a file over the limit is the caller's own Problem. */
export async function partBuffer(part: MultipartFile, fileTooLarge?: () => Problem): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (err) {
    throw multipartProblem(err, fileTooLarge);
  }
}

/**
 * Writes a file part to a file on disk as it arrives, counting its bytes: past `limit` the part is dropped and the
 * caller's 413 thrown at once, so a file over the limit is never read whole (nor stored). Returns the size and the
 * SHA-256 (hex) of the bytes; on any failure the file is removed.
 */
export async function partToFile(part: MultipartFile, file: string, limit: number, fileTooLarge: () => Problem): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(fileTooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, count, fs.createWriteStream(file, { flags: 'wx' }));
    // The parser stops a file at its own limit (the same number) and marks it truncated.
    if (part.file.truncated) throw fileTooLarge();
  } catch (err) {
    await fs.promises.rm(file, { force: true }).catch(() => undefined);
    throw multipartProblem(err, fileTooLarge);
  }
  return { size, sha256: hash.digest('hex') };
}

/** The first file of a multipart request (the other parts are drained), or null; parser errors are 400s. */
export async function firstFile(
  req: FastifyRequest,
  limits: PartLimits,
  fileTooLarge: () => Problem,
): Promise<{ field: string; filename: string; data: Buffer } | null> {
  let found: { field: string; filename: string; data: Buffer } | null = null;
  for await (const part of multipartParts(req, limits)) {
    if (part.type !== 'file') continue;
    const data = await partBuffer(part, fileTooLarge);
    found ??= { field: part.fieldname, filename: part.filename, data };
  }
  return found;
}

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
  const fileField = opts.fileFields[0] ?? 'file';
  const tooLarge = () => problems.field(fileField, `A file is larger than ${Math.round(opts.fileSize / 1024)} KB`);
  try {
    for await (const part of multipartParts(req, { files: opts.maxFiles, fileSize: opts.fileSize })) {
      if (part.type === 'file') {
        if (!opts.fileFields.includes(part.fieldname)) {
          await part.toBuffer().catch(() => undefined);
          throw problems.field(part.fieldname, `Unexpected file field; files go in ${opts.fileFields.join(' or ')}`);
        }
        const data = await partBuffer(part, tooLarge);
        if (data.length > 0) files.push({ field: part.fieldname, filename: part.filename.slice(0, 200), data });
      } else if (typeof part.value === 'string') {
        // A field name like coordinates or gender is reserved; "__proto__" and friends are ignored.
        if (part.fieldname === '__proto__' || part.fieldname === 'constructor' || part.fieldname === 'prototype') continue;
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'multipart_too_many_parts' && /files/.test((err as Error).message)) {
      throw problems.field(fileField, `At most ${opts.maxFiles} files are accepted`);
    }
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
