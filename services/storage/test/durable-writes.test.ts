import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { StorageClient } from '@supabase/storage-js';
import { fsyncDisk, type DiskSync } from '../src/backend/disk';
import { objectStorageKey } from '../src/backend/types';
import { setupProject, type Project } from './helpers';
import { clientFor, createBucket, listenApi, objectRows } from './object-fixtures';

/*
 * An acknowledged write survives a crash: every path that writes an object's bytes to the disk backend
 * syncs the file, then the folders that name it, and only then commits the row and answers. The sync
 * functions are wrapped (real syncs still run) to record when they ran and what the database and the
 * folder held at that moment.
 */

type Event =
  | { what: 'file synced'; file: string; size: number; row: string | null }
  | { what: 'folder synced'; folder: string; holds: string[]; row: string | null }
  | { what: 'reply'; status: number; row: string | null };

let p: Project;
let base: string;
let storage: StorageClient;
let events: Event[] = [];
/** The object whose row each event checks for. */
let watched = { bucket: '', name: '' };

const relative = (file: string) => path.relative(p.backendDir, file) || '.';
let lastCheck: Promise<unknown> = Promise.resolve();
/** The version of the watched object's row, or null (one query at a time: folders sync concurrently). */
const rowVersion = (): Promise<string | null> => {
  const check = lastCheck.then(async () => (await objectRows(p, watched.bucket)).find((row) => row.name === watched.name)?.version ?? null);
  lastCheck = check;
  return check;
};

const recordingSync: DiskSync = {
  async syncFile(handle, file) {
    await fsyncDisk.syncFile(handle, file);
    events.push({ what: 'file synced', file: relative(file), size: (await handle.stat()).size, row: await rowVersion() });
  },
  async syncDir(folder) {
    await fsyncDisk.syncDir(folder);
    events.push({ what: 'folder synced', folder: relative(folder), holds: readdirSync(folder), row: await rowVersion() });
  },
};

beforeAll(async () => {
  p = await setupProject({ diskSync: recordingSync });
  base = await listenApi(p);
  storage = clientFor(base, p.keys.service_role);
  await createBucket(p, 'docs');
  await createBucket(p, 'archive');
});

afterAll(async () => {
  await p.close();
});

/** The events of one write of `bucket/name`, ending with its reply's. */
async function eventsOf(bucket: string, name: string, write: () => Promise<{ error: unknown } | Response>): Promise<Event[]> {
  events = [];
  watched = { bucket, name };
  const outcome = await write();
  const status = outcome instanceof Response ? outcome.status : outcome.error ? 400 : 200;
  events.push({ what: 'reply', status, row: await rowVersion() });
  return events;
}

/**
 * Asserts the order: the object's bytes written in full (`size`) and synced, then its tag, then every
 * folder from the new file's up to the root (the new file already in the lowest), all before the row
 * of this version is committed; then the reply, with the row committed.
 */
async function expectSyncedBeforeReply(recorded: Event[], bucket: string, name: string, size: number): Promise<void> {
  const row = (await objectRows(p, bucket)).find((r) => r.name === name)!;
  const key = objectStorageKey('default', bucket, row.id, row.version);
  const chain = (tree: string) => {
    const folders = [];
    for (let folder = path.dirname(path.join(tree, key)); folder !== '.'; folder = path.dirname(folder)) folders.push(folder);
    return folders;
  };
  const [bytes, tag, ...rest] = recorded;
  const folders = rest.slice(0, -1);
  expect(bytes).toMatchObject({ what: 'file synced', file: expect.stringMatching(/^tmp\//), size });
  expect(tag).toMatchObject({ what: 'file synced', file: expect.stringMatching(/^tmp\/.*\.etag$/), size: String(row.metadata!.eTag).length });
  expect(folders.map((f) => f.what === 'folder synced' && f.folder).sort()).toEqual([...chain('objects'), ...chain('etags'), '.'].sort());
  expect(recorded.slice(0, -1).filter((event) => event.row === row.version)).toEqual([]);
  expect(folders.find((f) => f.what === 'folder synced' && f.folder === path.dirname(path.join('objects', key)))).toMatchObject({ holds: [row.version] });
  expect(recorded.at(-1)).toEqual({ what: 'reply', status: 200, row: row.version });
}

describe('an acknowledged write is on the disk', () => {
  it('for a raw upload (POST) and an update (PUT)', async () => {
    const body = Buffer.alloc(300_000, 'r');
    const post = () => fetch(`${base}/object/docs/raw.bin`, { method: 'POST', headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/octet-stream' }, body });
    await expectSyncedBeforeReply(await eventsOf('docs', 'raw.bin', post), 'docs', 'raw.bin', body.length);
    const put = () => fetch(`${base}/object/docs/raw.bin`, { method: 'PUT', headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/octet-stream' }, body: body.subarray(1) });
    await expectSyncedBeforeReply(await eventsOf('docs', 'raw.bin', put), 'docs', 'raw.bin', body.length - 1);
  });

  it('for a multipart form and a signed upload URL', async () => {
    const form = new Blob([Buffer.alloc(70_000, 'm')], { type: 'text/plain' });
    await expectSyncedBeforeReply(await eventsOf('docs', 'form.txt', () => storage.from('docs').upload('form.txt', form)), 'docs', 'form.txt', 70_000);
    const { data } = await storage.from('docs').createSignedUploadUrl('signed.txt');
    const signed = () => storage.from('docs').uploadToSignedUrl('signed.txt', data!.token, Buffer.from('signed upload'));
    await expectSyncedBeforeReply(await eventsOf('docs', 'signed.txt', signed), 'docs', 'signed.txt', 13);
  });

  it('for a copy and a move into another bucket (which copies the bytes)', async () => {
    expect((await storage.from('docs').upload('source.txt', Buffer.alloc(5000, 's'))).error).toBeNull();
    await expectSyncedBeforeReply(await eventsOf('docs', 'copy.txt', () => storage.from('docs').copy('source.txt', 'copy.txt')), 'docs', 'copy.txt', 5000);
    const move = () => storage.from('docs').move('copy.txt', 'moved.txt', { destinationBucket: 'archive' });
    await expectSyncedBeforeReply(await eventsOf('archive', 'moved.txt', move), 'archive', 'moved.txt', 5000);
  });
});
