import { ErrorReply, Messages, storageRoutes, type Bucket } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { as, contractValidator, setupProject, type Project } from './helpers';

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
});

afterAll(async () => {
  await p.close();
});

const list = (headers = as('owner')) => p.app.inject({ method: 'GET', url: '/default/buckets', headers });
const create = (payload: object, headers = as('owner')) => p.app.inject({ method: 'POST', url: '/default/buckets', headers, payload });

describe('buckets', () => {
  it('lists no buckets in a new project', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(check(storageRoutes.listBuckets.response, res.json())).toBeNull();
  });

  it('creates a bucket and lists it', async () => {
    const res = await create({ id: 'avatars', public: true, file_size_limit: 1048576, allowed_mime_types: ['image/*', 'image/png'] });
    expect(res.statusCode).toBe(201);
    const bucket = res.json() as Bucket;
    expect(bucket).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      owner: null,
      public: true,
      file_size_limit: 1048576,
      allowed_mime_types: ['image/*', 'image/png'],
    });
    expect(new Date(bucket.created_at).toISOString()).toBe(bucket.created_at);
    expect(check(storageRoutes.createBucket.response, bucket)).toBeNull();

    const { rows } = await p.sql(`select id, name, public, file_size_limit from storage.buckets`);
    expect(rows).toEqual([{ id: 'avatars', name: 'avatars', public: true, file_size_limit: 1048576 }]);

    await create({ id: 'zeta docs', public: false });
    await create({ id: 'beta', public: false, file_size_limit: null, allowed_mime_types: [] });
    const listed = await list();
    expect(listed.statusCode).toBe(200);
    const buckets = listed.json() as Bucket[];
    expect(buckets.map((b) => b.name)).toEqual(['avatars', 'beta', 'zeta docs']);
    expect(buckets[2]).toMatchObject({ file_size_limit: null });
    expect(buckets[1]).toMatchObject({ public: false, file_size_limit: null, allowed_mime_types: null });
    expect(check(storageRoutes.listBuckets.response, buckets)).toBeNull();
  });

  it('keeps a null size limit as no limit and a zero limit as zero', async () => {
    const unlimited = await create({ id: 'unlimited', public: false, file_size_limit: null, allowed_mime_types: null });
    expect(unlimited.json()).toMatchObject({ file_size_limit: null, allowed_mime_types: null });
    const zero = await create({ id: 'zero', public: false, file_size_limit: 0 });
    expect(zero.json()).toMatchObject({ file_size_limit: 0 });
    const { rows } = await p.sql(`select id, file_size_limit from storage.buckets where id in ('unlimited', 'zero') order by id`);
    expect(rows).toEqual([
      { id: 'unlimited', file_size_limit: null },
      { id: 'zero', file_size_limit: 0 },
    ]);
  });

  it('answers 409 for a duplicate name', async () => {
    await create({ id: 'dupe', public: false });
    const res = await create({ id: 'dupe', public: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The resource already exists: bucket "dupe"');
    expect(check(ErrorReply, res.json())).toBeNull();
  });

  it('rejects names the spec forbids with its messages', async () => {
    const cases: Array<[object, string]> = [
      [{ id: 'public', public: true }, Messages.bucketNameReserved],
      [{ id: 'trailing ', public: true }, Messages.bucketNameTrailingWhitespace],
      [{ id: '   ', public: true }, Messages.bucketNameRequired],
      [{ id: '', public: true }, Messages.bucketNameRequired],
      [{ public: true }, Messages.bucketNameRequired],
      [{ id: 'sized', public: true, file_size_limit: -1 }, Messages.bucketSizeLimitMin],
    ];
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect({ payload, status: res.statusCode, message: res.json().message }).toEqual({ payload, status: 400, message });
      expect(check(ErrorReply, res.json())).toBeNull();
    }
    const names = ((await list()).json() as Bucket[]).map((b) => b.name);
    expect(names).not.toContain('public');
    expect(names).not.toContain('sized');
  });

  it('rejects other invalid bodies with a 400', async () => {
    const slash = await create({ id: 'a/b', public: true });
    expect(slash.statusCode).toBe(400);
    const noPublic = await create({ id: 'nopublic' });
    expect(noPublic.statusCode).toBe(400);
    expect(noPublic.json().message).toMatch(/public/);
  });

  it('lets a read_only member list but not create', async () => {
    expect((await list(as('read_only'))).statusCode).toBe(200);
    const res = await create({ id: 'nope', public: false }, as('read_only'));
    expect(res.statusCode).toBe(403);
    expect(check(ErrorReply, res.json())).toBeNull();
    const { rows } = await p.sql(`select count(*)::int as n from storage.buckets where id = 'nope'`);
    expect(rows[0].n).toBe(0);
  });

  it('answers 404 to a non-member and 401 without identity', async () => {
    const outsider = await list(userHeaders({ other: 'owner' }));
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe('Project not found');
    expect((await create({ id: 'x', public: false }, userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    const anonymous = await p.app.inject({ method: 'GET', url: '/default/buckets' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 404 for a project the resolver does not know', async () => {
    const res = await p.app.inject({ method: 'GET', url: '/ghost/buckets', headers: as('owner', 'ghost') });
    expect(res.statusCode).toBe(404);
  });
});
