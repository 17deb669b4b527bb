// Streams an export's text to the client as it is read (issue 28): a Readable pulled by the socket, so the next chunk of
// rows is read only when what was written has drained below HIGH_WATER_MARK (a slow client never makes the server
// buffer the file), and memory stays at about one chunk whatever the size. When the client goes away, Fastify destroys
// the stream; the generator is then returned at its next step (the read in flight completes, its short transaction
// ends) and no further read starts. streamStats counts the reads, for the log and the disconnect test.
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';

/** Bytes buffered ahead of the socket before the stream stops pulling rows. */
export const HIGH_WATER_MARK = 64 * 1024;

/** Exports being streamed now, and the row chunks and rows read by them since the process started. */
export const streamStats = { active: 0, chunks: 0, rows: 0 };

/** Bounds of a chunk (rows per statement), the wall time one chunk's statement aims at, and its most change a chunk. */
export type ChunkBounds = { first: number; min: number; max: number; targetMs: number; step: number };

/** On PostgreSQL (a connection per request: an export's chunks delay no other request's statements). */
export const CHUNK: ChunkBounds = { first: 500, min: 100, max: 5_000, targetMs: 40, step: 4 };

/**
 * On the embedded engine (one connection, statements in arrival order): a request waits behind at most one chunk per
 * statement it sends, so the chunks are shorter, and grow or shrink at most 2x a chunk (a 4x step could overshoot the
 * target 4x when rows get heavier). At 40 ms / 4x, a list request alongside a 1M-row export waited up to 209 ms once.
 */
export const CHUNK_EMBEDDED: ChunkBounds = { first: 250, min: 50, max: 5_000, targetMs: 20, step: 2 };

/** A chunk sizer with the engine's bounds. */
export function chunkSizer(deps: { database: { kind: string } }): ChunkSizer {
  return new ChunkSizer(deps.database.kind === 'pglite' ? CHUNK_EMBEDDED : CHUNK);
}

/**
 * Rows per statement, sized by time: each chunk's statement aims at CHUNK.targetMs, so a request that arrives during an
 * export waits for at most about that long on the embedded engine's one connection, whatever the rows weigh or the
 * machine's load. The size grows or shrinks by at most `step` times a chunk (chunkSizer: the engine's bounds).
 */
export class ChunkSizer {
  size: number = CHUNK.first;

  constructor(private readonly bounds: ChunkBounds = CHUNK) {
    this.size = bounds.first;
  }

  /** Reads one chunk with `read(limit)` and adapts the next size to its time. */
  async read<T>(read: (limit: number) => Promise<T[]>): Promise<{ rows: T[]; limit: number }> {
    const limit = this.size;
    const t0 = performance.now();
    const rows = await read(limit);
    streamStats.chunks++;
    streamStats.rows += rows.length;
    const ms = Math.max(1, performance.now() - t0);
    if (rows.length === limit)
      this.size = Math.max(
        this.bounds.min,
        Math.min(this.bounds.max, Math.round(limit * Math.min(this.bounds.step, Math.max(1 / this.bounds.step, this.bounds.targetMs / ms)))),
      );
    return { rows, limit };
  }
}

/**
 * On the embedded engine (one connection, statements served in arrival order) a short pause after each chunk lets a
 * request's statements in first: a request then waits behind one chunk's statement, not one per statement it sends.
 */
export async function letOthersIn(deps: { database: { kind: string } }): Promise<void> {
  if (deps.database.kind === 'pglite') await new Promise((r) => setTimeout(r, 2));
}

/**
 * The text of `parts` as a byte stream with backpressure. `what` names the export in the log: an export that ends
 * before its last chunk (the client went away) is logged at info, a failing read at error (the response is then cut).
 */
export function textStream(deps: { log: Pick<FastifyBaseLogger, 'info' | 'error'> }, parts: AsyncGenerator<string>, what: Record<string, unknown>): Readable {
  let done = false;
  async function* counted(): AsyncGenerator<string> {
    streamStats.active++;
    try {
      yield* parts;
      done = true;
    } finally {
      streamStats.active--;
      if (!done) deps.log.info(what, 'export stopped before its end (the client went away)');
    }
  }
  const stream = Readable.from(counted(), { objectMode: false, highWaterMark: HIGH_WATER_MARK });
  stream.on('error', (err) => deps.log.error({ err, ...what }, 'export stream failed'));
  return stream;
}
