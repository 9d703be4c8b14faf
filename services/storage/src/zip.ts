import type { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { objectNameError } from './object-keys';

/** One file of an archive: its path inside the archive, and its bytes, opened only when its turn comes. */
export interface ZipEntry {
  name: string;
  size: number;
  mtime: Date;
  open: () => Promise<Readable>;
}

export interface ZipOptions {
  /**
   * Deflate the entries. Off by default: most bucket files (images, video, archives) are compressed
   * already, and stored entries keep the service's CPU free.
   */
  compress?: boolean;
}

/**
 * A zip archive of `entries`, written as it is read: entries are pulled one at a time and each file is
 * opened only after the previous one is fully written, so memory stays flat and at most one file stream
 * is open. yazl switches to zip64 for entries and offsets past 4 GiB. A bad name, a file that fails to
 * open or errors, or a size that does not match destroys the archive stream with that error. Destroying
 * the archive stream (a client that goes away) stops reading entries and closes the open file.
 */
export function zipObjects(entries: AsyncIterable<ZipEntry>, options: ZipOptions = {}): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  let current: Readable | undefined;
  /** Settles the wait for the entry in progress, so a stop never leaves the entry loop hanging. */
  let finishEntry: (() => void) | undefined;
  let stopped = false;
  const stop = (error?: Error) => {
    if (stopped) return;
    stopped = true;
    current?.destroy();
    finishEntry?.();
    if (error) output.destroy(error);
  };
  zip.on('error', stop);
  output.on('close', () => stop());

  const addAll = async () => {
    for await (const entry of entries) {
      const problem = objectNameError(entry.name);
      if (problem) throw new Error(`Refusing the zip entry "${entry.name}": ${problem}`);
      await addEntry(entry);
      if (stopped) return; // leaving the loop closes the entries' source (a database cursor, say)
    }
    if (!stopped) zip.end();
  };

  /** Resolves once yazl has read the whole file, so the next one is opened only after it. */
  const addEntry = (entry: ZipEntry) =>
    new Promise<void>((resolve, reject) => {
      finishEntry = resolve;
      zip.addReadStreamLazy(entry.name, { size: entry.size, mtime: entry.mtime, compress: options.compress ?? false }, (callback) => {
        entry.open().then(
          (stream) => {
            if (stopped) return stream.destroy();
            current = stream;
            stream.once('end', resolve);
            stream.once('error', (error) => reject(new Error(`Could not read "${entry.name}" for the zip: ${error.message}`, { cause: error })));
            callback(null, stream);
          },
          (error: unknown) => reject(new Error(`Could not open "${entry.name}" for the zip: ${errorText(error)}`, { cause: error })),
        );
      });
    });

  addAll().catch((error: unknown) => stop(error instanceof Error ? error : new Error(String(error))));
  return output;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
