import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { finished, type Readable } from 'node:stream';
import { EntityTagger } from './entity-tag';
import { FileBody } from './file-body';
import { BytesNotFoundError, ObjectTooLargeError, type ByteRange, type ObjectBackend, type PutOptions, type StoredBytes } from './types';

/**
 * An upload stops reading its body while this much waits for the disk; what arrives during a write goes
 * to the disk in one `writev` after it, so the disk and the network overlap.
 */
const WRITE_BACKLOG_BYTES = 1024 * 1024;
/**
 * An upload starts the disk writing its file every this many bytes, while more arrive. Left to the
 * kernel, a large file's pages stay in memory until the sync that acknowledges it (on a machine with
 * a few GB free): that sync would then wait for the whole file to reach the disk.
 */
const EARLY_FLUSH_BYTES = 64 * 1024 * 1024;

/**
 * How the disk backend makes what it wrote durable. A seam so that tests can watch when it happens;
 * `fsyncDisk` is the real one.
 */
export interface DiskSync {
  /** Flushes the bytes of a file just written (at `file`, still open as `handle`) to the disk. */
  syncFile(handle: FileHandle, file: string): Promise<void>;
  /** Flushes a folder's entries (a file renamed into it, a folder made in it) to the disk. */
  syncDir(folder: string): Promise<void>;
}

/**
 * fdatasync and fsync, on libuv's threads (a sync of a large file can take seconds: never on the event
 * loop). fdatasync skips timestamps but flushes the size, which is all a new file needs.
 */
export const fsyncDisk: DiskSync = {
  syncFile: (handle) => handle.datasync(),
  async syncDir(folder) {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

/**
 * Bytes as files under `root` (by default `.data/storage`): `objects/<key>` holds the bytes and
 * `etags/<key>` the entity tag (`EntityTagger`: an MD5 below S3's part size), in a tree of its own so no
 * key can collide with a tag file. A put or copy writes to `tmp/` and renames into place, so a reader
 * never sees a partial file. Files are never changed in place, which lets `get` stream from the file it
 * opened even when the key is replaced or deleted meanwhile.
 *
 * A put or copy resolves only once its bytes, its tag and the folders that name them are on the disk
 * (`DiskSync`): the caller then commits the object's row and acknowledges the write, which a crash or a
 * power cut must not undo.
 */
export class DiskBackend implements ObjectBackend {
  constructor(
    readonly root: string,
    private readonly sync: DiskSync = fsyncDisk,
  ) {}

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredBytes> {
    const target = this.paths(key);
    const tagger = new EntityTagger();
    const temp = this.tempFile();
    try {
      await mkdir(path.dirname(temp), { recursive: true });
      const file = await open(temp, 'wx');
      let size: number;
      try {
        size = await writeBody(body, file, options.maxBytes, (chunk) => tagger.update(chunk), () => this.sync.syncFile(file, temp));
        await this.sync.syncFile(file, temp);
      } finally {
        // Waits for a write still in flight when the body failed.
        await file.close();
      }
      const eTag = tagger.tag();
      await this.moveIntoPlace(temp, target, eTag);
      return { size, eTag };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number }> {
    const file = this.paths(key).bytes;
    const handle = await open(file, 'r').catch((error: unknown) => {
      throw isMissing(error) ? new BytesNotFoundError(key) : error;
    });
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new BytesNotFoundError(key);
      // The stream owns the handle from here and closes it when it ends or is destroyed.
      const end = range?.end === undefined ? info.size : Math.min(range.end + 1, info.size);
      return { body: new FileBody(handle, range?.start ?? 0, end), size: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<StoredBytes | null> {
    const { bytes, eTag } = this.paths(key);
    const info = await stat(bytes).catch(unlessMissing(null));
    if (!info?.isFile()) return null;
    // A tag can only be missing after a crash between the two renames or for files copied in by hand.
    const fallback = `"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
    const tag = await readFile(eTag, 'utf8').catch(unlessMissing(fallback));
    return { size: info.size, eTag: tag };
  }

  async copy(fromKey: string, toKey: string): Promise<StoredBytes> {
    const source = await this.head(fromKey);
    if (!source) throw new BytesNotFoundError(fromKey);
    const from = this.paths(fromKey);
    const target = this.paths(toKey);
    const temp = this.tempFile();
    try {
      await mkdir(path.dirname(temp), { recursive: true });
      // A copy-on-write clone where the filesystem has them, a plain copy elsewhere.
      await copyFile(from.bytes, temp, constants.COPYFILE_FICLONE).catch((error: unknown) => {
        throw isMissing(error) ? new BytesNotFoundError(fromKey) : error;
      });
      await this.syncWritten(temp);
      await this.moveIntoPlace(temp, target, source.eTag);
      return source;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const { bytes, eTag } = this.paths(key);
        await Promise.all([rm(bytes, { force: true }), rm(eTag, { force: true })]);
        await Promise.all([this.pruneEmptyFolders(bytes, 'objects'), this.pruneEmptyFolders(eTag, 'etags')]);
      }),
    );
  }

  async close(): Promise<void> {}

  private paths(key: string): { bytes: string; eTag: string } {
    // Keys are built by objectStorageKey from ids and URI-encoded bucket names; refuse anything else.
    if (key.split('/').some((s) => s === '' || s === '.' || s === '..') || key.includes('\\') || key.includes('\0')) {
      throw new Error(`Bad storage key ${key}`);
    }
    return { bytes: path.join(this.root, 'objects', key), eTag: path.join(this.root, 'etags', key) };
  }

  private tempFile(): string {
    return path.join(this.root, 'tmp', randomUUID());
  }

  /** Flushes a file written by someone else (`copyFile`) to the disk. */
  private async syncWritten(file: string): Promise<void> {
    const handle = await open(file, 'r+');
    try {
      await this.sync.syncFile(handle, file);
    } finally {
      await handle.close();
    }
  }

  /**
   * Renames finished (and synced) bytes at `temp` to `target`, the tag first: until the bytes arrive, a
   * head of a new key still finds nothing. Then syncs every folder from the targets' up to the root:
   * the renames changed the lowest, and any of the others may be new (made here or by a concurrent put
   * that has not synced it yet).
   */
  private async moveIntoPlace(temp: string, target: { bytes: string; eTag: string }, eTag: string): Promise<void> {
    const tagTemp = `${temp}.etag`;
    try {
      const tagFile = await open(tagTemp, 'wx');
      try {
        await tagFile.writeFile(eTag);
        await this.sync.syncFile(tagFile, tagTemp);
      } finally {
        await tagFile.close();
      }
      await renameMakingFolders(tagTemp, target.eTag);
      await renameMakingFolders(temp, target.bytes);
    } finally {
      await rm(tagTemp, { force: true });
    }
    const folders = new Set([...this.foldersAbove(target.eTag), ...this.foldersAbove(target.bytes)]);
    await Promise.all([...folders].map((folder) => this.sync.syncDir(folder)));
  }

  /** The folders from the one holding `file` up to the root, the root included. */
  private foldersAbove(file: string): string[] {
    const folders: string[] = [];
    for (let folder = path.dirname(file); folder.startsWith(this.root + path.sep); folder = path.dirname(folder)) folders.push(folder);
    return [...folders, this.root];
  }

  /** Removes the folders above a deleted file that are now empty, so deleted objects leave no trace. */
  private async pruneEmptyFolders(file: string, tree: 'objects' | 'etags'): Promise<void> {
    const top = path.join(this.root, tree);
    for (let folder = path.dirname(file); folder.startsWith(top + path.sep); folder = path.dirname(folder)) {
      // rmdir refuses folders that still hold something; a concurrent delete may have removed it already.
      if (!(await rmdir(folder).then(() => true, () => false))) return;
    }
  }
}

/**
 * Writes `body` to `file` as it arrives and resolves with its size: chunks go straight from the request
 * to `writev` (no stream in between: each would cost a call per 64 KiB chunk), and `onChunk` sees each.
 * Every EARLY_FLUSH_BYTES it calls `flushEarly` (one at a time) and goes on writing meanwhile. Rejects with `ObjectTooLargeError` past `maxBytes`, and with the body's error when it fails or closes
 * before its end (a client that went away); it then stops reading `body` without destroying it (the
 * route decides whether to drain it or drop the connection).
 */
function writeBody(body: Readable, file: FileHandle, maxBytes: number, onChunk: (chunk: Buffer) => void, flushEarly: () => Promise<void>): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let waiting: Buffer[] = [];
    let waitingBytes = 0;
    let writing = false;
    let ended = false;
    let done = false;
    let unflushed = 0;
    let flushing = false;
    const stop = () => {
      done = true;
      body.off('data', take);
      stopWatching();
      body.pause();
    };
    const fail = (error: unknown) => {
      if (done) return;
      stop();
      reject(error);
    };
    const flush = () => {
      if (writing || done) return;
      if (waiting.length === 0) {
        if (ended) {
          stop();
          resolve(bytes);
        }
        return;
      }
      const batch = waiting;
      const batchBytes = waitingBytes;
      waiting = [];
      waitingBytes = 0;
      writing = true;
      if (!ended) body.resume();
      file.writev(batch).then(() => {
        writing = false;
        unflushed += batchBytes;
        if (unflushed >= EARLY_FLUSH_BYTES && !flushing && !ended) {
          unflushed = 0;
          flushing = true;
          flushEarly().then(() => (flushing = false), fail);
        }
        flush();
      }, fail);
    };
    const take = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) return fail(new ObjectTooLargeError(maxBytes));
      onChunk(chunk);
      waiting.push(chunk);
      waitingBytes += chunk.length;
      if (waitingBytes >= WRITE_BACKLOG_BYTES) body.pause();
      flush();
    };
    const end = () => {
      ended = true;
      flush();
    };
    // One watcher for the body's end and its failure (an error, or a close before the end).
    const stopWatching = finished(body, { writable: false }, (error) => (error ? fail(error) : end()));
    body.on('data', take);
  });
}

/** Renames `from` to `to`, creating `to`'s folders; retried because a concurrent delete may prune them. */
async function renameMakingFolders(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await mkdir(path.dirname(to), { recursive: true });
    try {
      await rename(from, to);
      return;
    } catch (error) {
      if (!isMissing(error) || attempt === 3) throw error;
    }
  }
}

/** A catch handler: `value` when the file is missing, the error otherwise. */
function unlessMissing<T>(value: T): (error: unknown) => T {
  return (error) => {
    if (isMissing(error)) return value;
    throw error;
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
