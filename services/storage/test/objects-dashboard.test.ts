import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMPTY_FOLDER_PLACEHOLDER, ErrorReply, ServiceMessages, StorageApiMessages, storageRoutes, type OrgRole, type StorageItem } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { as, contractValidator, setupProject, type Project } from './helpers';
import { createBucket, hasBytes, objectRows, storedFiles } from './object-fixtures';

/*
 * The dashboard's object routes: a member's permission decides (owner and developer write, read-only
 * reads), the work runs as the service role, and every reply matches the contract.
 */

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await createBucket(p, 'files');
  await createBucket(p, 'site', { public: true });
});

afterAll(async () => {
  await p.close();
});

type Headers = Record<string, string>;
const url = (bucket: string, rest: string) => `/default/buckets/${encodeURIComponent(bucket)}/objects${rest}`;
const post = (bucket: string, rest: string, payload: object, headers: Headers = as('owner')) => p.app.inject({ method: 'POST', url: url(bucket, rest), headers, payload });
const upload = (bucket: string, name: string, body: string | Buffer, options: { headers?: Headers; upsert?: boolean; contentType?: string } = {}) =>
  p.app.inject({
    method: 'POST',
    url: url(bucket, `/upload?path=${encodeURIComponent(name)}${options.upsert ? '&upsert=true' : ''}`),
    headers: { ...(options.headers ?? as('owner')), 'content-type': options.contentType ?? 'text/plain', 'cache-control': '3600' },
    payload: body,
  });
const list = (bucket: string, pathName: string, options: object = {}, headers?: Headers) => post(bucket, '/list', { path: pathName, options }, headers);
const remove = (bucket: string, paths: string[], headers: Headers = as('owner')) => p.app.inject({ method: 'DELETE', url: url(bucket, ''), headers, payload: { paths } });
const names = (items: StorageItem[]) => items.map((item) => item.name);

describe('upload and list', () => {
  it('uploads the raw body as the file, as owner and developer', async () => {
    const res = await upload('files', 'docs/config.json', '{"not": "parsed"}', { contentType: 'application/json' });
    expect(res.statusCode).toBe(200);
    const row = (await objectRows(p, 'files')).find((r) => r.name === 'docs/config.json')!;
    expect(res.json()).toEqual({ id: row.id, path: 'docs/config.json', fullPath: 'files/docs/config.json' });
    expect(check(storageRoutes.uploadObject.response, res.json())).toBeNull();
    expect(row.metadata).toMatchObject({ size: 17, mimetype: 'application/json', cacheControl: 'max-age=3600' });

    expect((await upload('files', 'docs/dev.txt', 'by a developer', { headers: as('developer') })).statusCode).toBe(200);
    const again = await upload('files', 'docs/dev.txt', 'again');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(StorageApiMessages.alreadyExists);
    expect((await upload('files', 'docs/dev.txt', 'replaced', { upsert: true })).statusCode).toBe(200);
    const download = await post('files', '/download', { path: 'docs/dev.txt' });
    expect(download.body).toBe('replaced');
  });

  it('refuses read-only members (403), non-members (404) and bad input (400)', async () => {
    const readOnly = await upload('files', 'docs/ro.txt', 'x', { headers: as('read_only') });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().message).toBe(ServiceMessages.forbidden);
    expect(check(ErrorReply, readOnly.json())).toBeNull();
    const stranger = await upload('files', 'docs/x.txt', 'x', { headers: userHeaders({ other: 'owner' }) });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe(ServiceMessages.projectNotFound);
    const traversal = await upload('files', '../escape.txt', 'x');
    expect(traversal.statusCode).toBe(400);
    expect(traversal.json().message).toBe('The object name must not contain "." or ".." segments');
    const noPath = await p.app.inject({ method: 'POST', url: url('files', '/upload'), headers: { ...as('owner'), 'content-type': 'text/plain' }, payload: 'x' });
    expect(noPath.statusCode).toBe(400);
    expect(noPath.json().message).toContain('path');
    expect((await upload('missing', 'a.txt', 'x')).json()).toMatchObject({ statusCode: 404, message: StorageApiMessages.bucketNotFound });
    expect(await objectRows(p, 'files')).toHaveLength(2);
  });

  it('enforces the upload limit and the bucket types (413, 415)', async () => {
    p.settings.fileSizeLimit = 10;
    try {
      const big = await upload('files', 'docs/big.txt', 'x'.repeat(11));
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe(StorageApiMessages.tooLarge);
    } finally {
      p.settings.fileSizeLimit = 50 * 1024 * 1024;
    }
    await createBucket(p, 'pictures', { allowedMimeTypes: ['image/*'] });
    const wrong = await upload('pictures', 'a.txt', 'x');
    expect(wrong.statusCode).toBe(415);
    expect(wrong.json().message).toBe(StorageApiMessages.mimeNotAllowed('text/plain'));
  });

  it('lists a folder for every member, as the contract says', async () => {
    for (const role of ['owner', 'developer', 'read_only'] as OrgRole[]) {
      const res = await list('files', 'docs', { limit: 200, sortBy: { column: 'name', order: 'asc' } }, as(role));
      expect(res.statusCode).toBe(200);
      expect(names(res.json())).toEqual(['config.json', 'dev.txt']);
      expect(check(storageRoutes.listObjects.response, res.json())).toBeNull();
    }
    expect(names((await list('files', '')).json())).toEqual(['docs']);
    const bad = await list('files', 'docs', { limit: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('limit');
    expect((await list('files', 'a\\b')).json().message).toBe('The object name must not contain a backslash');
    expect((await list('files', 'docs', {}, userHeaders({ other: 'owner' }))).statusCode).toBe(404);
  });

  it('lists rows written with SQL whose metadata lacks fields, filling them in', async () => {
    await createBucket(p, 'by-sql');
    await p.sql(`insert into storage.objects (bucket_id, name, metadata) values
      ('by-sql', 'a/partial.txt', '{"size": 12, "mimetype": "text/plain"}'),
      ('by-sql', 'a/sizeless.txt', '{"mimetype": "text/plain"}'),
      ('by-sql', 'a/not-an-object.txt', '[1, 2]')`);
    const res = await list('by-sql', 'a', { sortBy: { column: 'name', order: 'asc' } });
    expect(res.statusCode).toBe(200);
    expect(check(storageRoutes.listObjects.response, res.json())).toBeNull();
    const byName = Object.fromEntries((res.json() as StorageItem[]).map((item) => [item.name, item.metadata]));
    expect(byName['partial.txt']).toMatchObject({ size: 12, mimetype: 'text/plain', contentLength: 12, eTag: '', httpStatusCode: 200 });
    expect(Date.parse(byName['partial.txt']!.lastModified)).not.toBeNaN();
    // Without a size there is nothing to show: the explorer treats it as an unfinished upload.
    expect(byName['sizeless.txt']).toBeNull();
    expect(byName['not-an-object.txt']).toBeNull();
  });
});

describe('links and downloads', () => {
  beforeAll(async () => {
    await upload('site', 'img/logo one.svg', '<svg/>', { contentType: 'image/svg+xml' });
    await upload('files', 'private/secret.txt', 'secret');
  });

  it('gives public URLs of public buckets through the gateway origin', async () => {
    const headers = { ...as('read_only'), 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.com' };
    const res = await post('site', '/public-url', { path: 'img/logo one.svg' }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publicUrl: 'https://dash.example.com/p/default/storage/v1/object/public/site/img/logo%20one.svg' });
    expect(check(storageRoutes.publicUrl.response, res.json())).toBeNull();
    const served = await p.app.inject({ method: 'GET', url: '/default/v1/object/public/site/img/logo%20one.svg' });
    expect(served.body).toBe('<svg/>');
    const hostOnly = await post('site', '/public-url', { path: 'img/logo one.svg' }, { ...as('owner'), host: 'localhost:3000' });
    expect(hostOnly.json().publicUrl).toBe('http://localhost:3000/p/default/storage/v1/object/public/site/img/logo%20one.svg');
    const privateBucket = await post('files', '/public-url', { path: 'private/secret.txt' });
    expect(privateBucket.statusCode).toBe(400);
    expect(privateBucket.json().message).toBe(StorageApiMessages.notPublic('files'));
  });

  it('signs URLs that the storage API serves', async () => {
    const res = await post('files', '/sign', { path: 'private/secret.txt', expiresIn: 604_800 }, { ...as('read_only'), host: 'dash.test' });
    expect(res.statusCode).toBe(200);
    expect(check(storageRoutes.signUrl.response, res.json())).toBeNull();
    const signed = new URL(res.json().signedUrl);
    expect(signed.origin + signed.pathname).toBe('http://dash.test/p/default/storage/v1/object/sign/files/private/secret.txt');
    const served = await p.app.inject({ method: 'GET', url: `/default/v1${signed.pathname.slice('/p/default/storage/v1'.length)}${signed.search}` });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('secret');
    const missing = await post('files', '/sign', { path: 'private/none.txt', expiresIn: 60 });
    expect(missing.statusCode).toBe(404);
    expect((await post('files', '/sign', { path: 'private/secret.txt', expiresIn: 0 })).statusCode).toBe(400);
  });

  it('downloads a file for every member', async () => {
    const res = await post('files', '/download', { path: 'private/secret.txt' }, as('read_only'));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('secret');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="secret.txt"; filename*=UTF-8''secret.txt`);
    expect((await post('files', '/download', { path: 'private/none.txt' })).statusCode).toBe(404);
  });

  it('zips files and folders, named relative to the root, skipping placeholders', async () => {
    await upload('files', 'zip/a.txt', 'A');
    await upload('files', 'zip/sub/b.txt', 'B');
    await upload('files', `zip/empty/${EMPTY_FOLDER_PLACEHOLDER}`, '');
    await upload('files', 'zip/outside.txt', 'not asked for');
    const res = await post('files', '/zip', { paths: ['zip/a.txt', 'zip/sub/', 'zip/empty/'], root: 'zip', name: 'zip.zip' }, as('read_only'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('filename="zip.zip"');
    const dir = mkdtempSync(path.join(tmpdir(), 'dash-zip-test-'));
    try {
      const file = path.join(dir, 'out.zip');
      writeFileSync(file, res.rawPayload);
      const script = 'import json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: z.read(n).decode() for n in z.namelist()}))';
      expect(JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }))).toEqual({ 'a.txt': 'A', 'sub/b.txt': 'B' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const outside = await post('files', '/zip', { paths: ['private/secret.txt'], root: 'zip', name: 'x.zip' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(StorageApiMessages.zipOutsideRoot('private/secret.txt', 'zip/'));
    expect((await post('files', '/zip', { paths: ['nothing/'], name: 'x.zip' })).statusCode).toBe(404);
    expect((await post('files', '/zip', { paths: ['zip/a.txt'], name: 'x.tar' })).statusCode).toBe(400);
  });
});

describe('move', () => {
  beforeAll(async () => {
    for (const name of ['m/one.txt', 'm/two.txt', 'm/dir/x.txt', 'm/dir/deep/y.txt', 'm/other/x.txt']) await upload('files', name, name);
  });
  const move = (moves: Array<{ from: string; to: string }>, headers: Headers = as('owner')) => post('files', '/move', { moves }, headers);

  it('moves files and folders in one transaction', async () => {
    const before = (await objectRows(p, 'files')).find((row) => row.name === 'm/dir/deep/y.txt')!;
    const res = await move([
      { from: 'm/one.txt', to: 'm/renamed.txt' },
      { from: 'm/dir/', to: 'm/moved/dir/' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ moved: 3 });
    expect(check(storageRoutes.moveObjects.response, res.json())).toBeNull();
    const rows = (await objectRows(p, 'files')).filter((row) => row.name.startsWith('m/'));
    expect(rows.map((row) => row.name)).toEqual(['m/moved/dir/deep/y.txt', 'm/moved/dir/x.txt', 'm/other/x.txt', 'm/renamed.txt', 'm/two.txt']);
    const after = rows.find((row) => row.name === 'm/moved/dir/deep/y.txt')!;
    expect(after).toMatchObject({ id: before.id, version: before.version });
    expect(hasBytes(p, 'files', after.id, after.version)).toBe(true);
    expect((await move([{ from: 'm/two.txt', to: 'm/two.txt' }])).json()).toEqual({ moved: 0 });
  });

  it('moves nothing when any destination is taken (409) or a source is missing (404)', async () => {
    const clash = await move([
      { from: 'm/renamed.txt', to: 'm/first.txt' },
      { from: 'm/moved/dir/', to: 'm/other/' },
    ]);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(StorageApiMessages.alreadyExists);
    const missing = await move([
      { from: 'm/renamed.txt', to: 'm/first.txt' },
      { from: 'm/none.txt', to: 'm/some.txt' },
    ]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(`${StorageApiMessages.objectNotFound}: m/none.txt`);
    expect((await objectRows(p, 'files')).map((row) => row.name)).toContain('m/renamed.txt');
  });

  it('refuses bad moves (400) and read-only members (403)', async () => {
    const into = await move([{ from: 'm/moved/', to: 'm/moved/inside/' }]);
    expect(into.statusCode).toBe(400);
    expect(into.json().message).toBe(StorageApiMessages.moveIntoItself('m/moved/'));
    const kinds = await move([{ from: 'm/moved/', to: 'm/file.txt' }]);
    expect(kinds.json().message).toBe(StorageApiMessages.moveKindMismatch('m/moved/', 'm/file.txt'));
    expect((await move([{ from: 'm/two.txt', to: '../two.txt' }])).statusCode).toBe(400);
    expect((await move([])).statusCode).toBe(400);
    expect((await move([{ from: 'm/two.txt', to: 'm/three.txt' }], as('read_only'))).statusCode).toBe(403);
  });
});

describe('remove', () => {
  beforeAll(async () => {
    for (const name of ['r/keep/only.txt', 'r/gone/a.txt', 'r/gone/b/c.txt', 'r/top.txt']) await upload('files', name, name);
  });

  it('removes files and folders, keeping a folder left empty with its placeholder', async () => {
    const rows = (await objectRows(p, 'files')).filter((row) => row.name.startsWith('r/'));
    const res = await remove('files', ['r/keep/only.txt', 'r/gone/', 'r/none.txt']);
    expect(res.statusCode).toBe(200);
    expect(res.json().removed.sort()).toEqual(['r/gone/a.txt', 'r/gone/b/c.txt', 'r/keep/only.txt']);
    expect(check(storageRoutes.removeObjects.response, res.json())).toBeNull();
    const left = (await objectRows(p, 'files')).filter((row) => row.name.startsWith('r/'));
    expect(left.map((row) => row.name)).toEqual([`r/keep/${EMPTY_FOLDER_PLACEHOLDER}`, 'r/top.txt']);
    expect(left[0]!.metadata).toMatchObject({ size: 0 });
    expect(hasBytes(p, 'files', left[0]!.id, left[0]!.version)).toBe(true);
    for (const row of rows.filter((r) => r.name !== 'r/top.txt')) expect(hasBytes(p, 'files', row.id, row.version)).toBe(false);
    // The emptied folder still lists, and lists nothing.
    expect(names((await list('files', 'r')).json())).toEqual(['keep', 'top.txt']);
    expect((await list('files', 'r/keep')).json()).toEqual([]);
    // A folder that still holds something gets no placeholder.
    expect((await remove('files', ['r/top.txt'])).json()).toEqual({ removed: ['r/top.txt'] });
    expect(names((await list('files', 'r')).json())).toEqual(['keep']);
  });

  it('refuses read-only members (403) and bad paths (400)', async () => {
    expect((await remove('files', ['r/keep/'], as('read_only'))).statusCode).toBe(403);
    expect((await remove('files', ['r/../x'])).statusCode).toBe(400);
    expect((await remove('files', [])).statusCode).toBe(400);
  });

  it('keeps exactly the bytes of the rows that remain', async () => {
    const rows = await objectRows(p, 'files');
    expect(storedFiles(p, 'files').map((file) => file.split('/').slice(-2).join('/')).sort()).toEqual(rows.map((row) => `${row.id}/${row.version}`).sort());
  });
});
