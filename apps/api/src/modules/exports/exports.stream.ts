// Streams an export's text to the client as it is read (issue 28): a Readable pulled by the socket, so the next chunk of
// rows is read only when what was written has drained below HIGH_WATER_MARK (a slow client never makes the server
// buffer the file), and memory stays at about one chunk whatever the size. When the client goes away, Fastify destroys
// the stream; the generator is then returned at its next step (the read in flight completes, its short transaction
// ends) and no further read starts. streamStats counts the reads, for the log and the disconnect test.
import { Readable } from 'node:stream';
import type { Deps } from '../../context.js';

/** Bytes buffered ahead of the socket before the stream stops pulling rows. */
export const HIGH_WATER_MARK = 64 * 1024;

/** Exports being streamed now, and row chunks read by them since the process started. */
export const streamStats = { active: 0, chunks: 0 };

/** One chunk of rows read by an export (counted in streamStats). */
export function countChunk(): void {
  streamStats.chunks++;
}

/**
 * The text of `parts` as a byte stream with backpressure. `what` names the export in the log: an export that ends
 * before its last chunk (the client went away) is logged at info, a failing read at error (the response is then cut).
 */
export function textStream(deps: Pick<Deps, 'log'>, parts: AsyncGenerator<string>, what: Record<string, unknown>): Readable {
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
