import type { FileHandle } from 'node:fs/promises';
import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1024 * 1024;
/** Buffers a download to a response cycles through: enough to keep the disk and the socket busy at once. */
const SENDING_BUFFERS = 4;

/**
 * A file's bytes from `start` up to (not including) `end`, as a stream that owns `handle` and closes it.
 *
 * Piped to an HTTP response (a download), it reads into a few buffers it reuses, each once the socket
 * has taken its bytes (the write's callback). A stream that allocates a Buffer per read, as
 * `createReadStream` does, makes V8 count each as external memory and run a full garbage collection
 * every few dozen MB: most of a download's CPU time. Read any other way (zips, image renders, which may
 * keep the chunks), it gives a new Buffer per read.
 */
export class FileBody extends Readable {
  private position: number;
  /** Wakes a download waiting for a buffer to come back (or for the stream's end). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
    this.position = start;
  }

  override _read(): void {
    const length = Math.min(CHUNK_BYTES, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    this.handle.read(Buffer.allocUnsafeSlow(length), 0, length, this.position).then(({ buffer, bytesRead }) => {
      this.position += bytesRead;
      // A file shorter than announced ends where it ends, as `createReadStream` does.
      this.push(bytesRead === 0 ? null : buffer.subarray(0, bytesRead));
    }, (error: Error) => this.destroy(error));
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (!(destination instanceof ServerResponse) || options?.end === false) return super.pipe(destination, options);
    this.sendTo(destination).catch((error: Error) => this.destroy(error));
    return destination;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.wakeUp();
    // FileHandle.close waits for a read in flight.
    this.handle.close().then(() => callback(error), (closeError: Error) => callback(error ?? closeError));
  }

  /** Writes the bytes to `response` through SENDING_BUFFERS reused buffers, then ends it and this stream. */
  private async sendTo(response: ServerResponse): Promise<void> {
    const free: Buffer[] = [];
    let allocated = 0;
    const stopped = () => this.destroyed || response.destroyed;
    while (this.position < this.end && !stopped()) {
      if (free.length === 0 && allocated < SENDING_BUFFERS) {
        free.push(Buffer.allocUnsafeSlow(Math.min(CHUNK_BYTES, this.end - this.position)));
        allocated++;
      }
      const buffer = free.pop();
      if (!buffer) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const length = Math.min(buffer.length, this.end - this.position);
      const { bytesRead } = await this.handle.read(buffer, 0, length, this.position);
      if (bytesRead === 0 || stopped()) break;
      this.position += bytesRead;
      // Once written, the bytes are the kernel's: the buffer can take the next ones.
      response.write(buffer.subarray(0, bytesRead), () => {
        free.push(buffer);
        this.wakeUp();
      });
    }
    // A response that went away destroys this stream (Fastify does), which closes the file.
    if (stopped()) return;
    response.end();
    // Ends this stream as a pipe would have (Fastify waits for its end), which also closes the file.
    this.push(null);
    this.resume();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
