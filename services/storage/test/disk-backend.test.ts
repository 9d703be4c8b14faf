import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DiskBackend, fsyncDisk, type DiskSync } from '../src/backend/disk';
import { BytesNotFoundError, objectStorageKey } from '../src/backend/types';
import { bodyOf, failingBody, objectBackendSuite, readAll } from './backend-suite';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'dash-disk-backend-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every file under `folder`, relative to it ([] when the folder does not exist). */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.isDirectory()).map((e) => path.relative(folder, path.join(e.parentPath, e.name)));
}

describe('DiskBackend', () => {
  objectBackendSuite({
    open: async () => new DiskBackend(root),
    leftovers: () => filesUnder(path.join(root, 'tmp')),
  });

  describe('on disk', () => {
    const options = { contentType: 'text/plain', cacheControl: 'no-cache', maxBytes: 1 << 30 };
    const key = (bucket = 'docs') => objectStorageKey('default', bucket, randomUUID(), randomUUID());

    it('keeps bytes under objects/ and the entity tag under etags/, as plain files', async () => {
      const backend = new DiskBackend(root);
      const k = key('my bucket');
      const { eTag } = await backend.put(k, bodyOf(Buffer.from('plain')), options);
      expect(await readFile(path.join(root, 'objects', k), 'utf8')).toBe('plain');
      expect(await readFile(path.join(root, 'etags', k), 'utf8')).toBe(eTag);
      expect(k).toContain('my%20bucket');
    });

    it('removes emptied folders on delete and keeps folders that still hold objects', async () => {
      const backend = new DiskBackend(root);
      const objectId = randomUUID();
      const first = objectStorageKey('default', 'docs', objectId, 'v1');
      const second = objectStorageKey('default', 'docs', objectId, 'v2');
      const other = key('other');
      for (const k of [first, second, other]) await backend.put(k, bodyOf(Buffer.from(k)), options);
      await backend.delete([first]);
      expect((await filesUnder(path.join(root, 'objects'))).sort()).toEqual([second, other].sort());
      await backend.delete([second, other]);
      expect(await readdir(path.join(root, 'objects'))).toEqual([]);
      expect(await readdir(path.join(root, 'etags'))).toEqual([]);
      // The folders come back for the next put.
      await backend.put(first, bodyOf(Buffer.from('again')), options);
      expect((await readAll((await backend.get(first)).body)).toString()).toBe('again');
    });

    it('has the disk write a large file while it arrives, and syncs it whole before the put resolves', async () => {
      const synced: number[] = [];
      const recording: DiskSync = {
        async syncFile(handle, file) {
          // The size when the sync starts: writes go on meanwhile.
          synced.push((await handle.stat()).size);
          await fsyncDisk.syncFile(handle, file);
        },
        syncDir: fsyncDisk.syncDir,
      };
      const backend = new DiskBackend(root, recording);
      const size = 200 * 1024 * 1024;
      await backend.put(key(), bodyOf(Buffer.alloc(size, 'l'), 1024 * 1024), options);
      // Flushes while the body arrives, then the bytes and the tag once it is whole.
      const [tag, whole, ...early] = synced.reverse();
      expect(tag).toBeLessThan(100);
      expect(whole).toBe(size);
      expect(early.length).toBeGreaterThanOrEqual(1);
      for (const bytes of early) expect(bytes).toBeLessThan(size);
    });

    it('leaves no temporary file after failed puts, early or late', async () => {
      const backend = new DiskBackend(root);
      const attempts = Array.from({ length: 20 }, (_, i) =>
        backend.put(key(), failingBody(i * 20_000, new Error(`failure ${i}`)), options).catch((e: Error) => e.message),
      );
      expect(await Promise.all(attempts)).toEqual(Array.from({ length: 20 }, (_, i) => `failure ${i}`));
      expect(await filesUnder(path.join(root, 'tmp'))).toEqual([]);
      expect(await filesUnder(path.join(root, 'objects'))).toEqual([]);
    });

    it('streams the bytes it opened even when the key is replaced or deleted meanwhile', async () => {
      const backend = new DiskBackend(root);
      const k = key();
      const original = Buffer.alloc(3 << 20, 'a');
      await backend.put(k, bodyOf(original), options);
      const reading = await backend.get(k);
      await backend.put(k, bodyOf(Buffer.from('replacement')), options);
      await backend.delete([k]);
      expect((await readAll(reading.body)).equals(original)).toBe(true);
    });

    it('refuses keys that would leave its folders', async () => {
      const backend = new DiskBackend(root);
      for (const bad of ['default/../../etc/passwd', '/absolute/key', 'default//double', 'default/a\\b', 'default/./x']) {
        await expect(backend.head(bad)).rejects.toThrow(`Bad storage key ${bad}`);
        await expect(backend.put(bad, bodyOf(Buffer.from('x')), options)).rejects.toThrow('Bad storage key');
      }
      expect(await filesUnder(root)).toEqual([]);
    });

    it('does not take a folder for an object', async () => {
      const backend = new DiskBackend(root);
      const objectId = randomUUID();
      await backend.put(objectStorageKey('default', 'docs', objectId, 'v1'), bodyOf(Buffer.from('x')), options);
      const folderKey = `default/docs/${objectId}`;
      expect(await backend.head(folderKey)).toBeNull();
      await expect(backend.get(folderKey)).rejects.toBeInstanceOf(BytesNotFoundError);
    });
  });
});
