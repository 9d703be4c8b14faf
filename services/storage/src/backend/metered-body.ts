import { finished, Transform, type Readable } from 'node:stream';
import { ObjectTooLargeError } from './types';

/** An upload body on its way to a backend, counted and capped. */
export interface MeteredBody {
  /** What the backend reads: the bytes of `body`, failing past the cap or when `body` fails. */
  stream: Transform;
  /** Bytes passed so far. */
  bytes(): number;
  /**
   * Detaches from `body` after a failed put without destroying it: the caller (a route) still owns the
   * request and decides whether to drain it or drop the connection.
   */
  release(): void;
}

/**
 * Pipes `body` through a counter that fails with `ObjectTooLargeError` beyond `maxBytes`, and with the
 * body's own error when it errors or closes before its end (a client that disconnects mid-upload).
 */
export function meterBody(body: Readable, maxBytes: number): MeteredBody {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new ObjectTooLargeError(maxBytes));
      done(null, chunk);
    },
  });
  // The stream can fail before the backend starts reading it; the backend then sees the error when it
  // does (a destroyed stream keeps it), so it must not surface as an unhandled 'error' event meanwhile.
  stream.on('error', () => {});
  const stopWatching = finished(body, { writable: false }, (error) => {
    if (error) stream.destroy(error);
  });
  body.pipe(stream);
  return {
    stream,
    bytes: () => bytes,
    release() {
      stopWatching();
      body.unpipe(stream);
      stream.destroy();
    },
  };
}
