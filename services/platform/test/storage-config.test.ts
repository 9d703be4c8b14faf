import {
  DEFAULT_UPLOAD_LIMIT_BYTES,
  FREE_PLAN_UPLOAD_LIMIT_BYTES,
  MAX_UPLOAD_LIMIT_BYTES,
  platformRoutes,
  ServiceMessages,
  type OrgRole,
  type ProjectApiKeys,
  type StorageConfig,
} from '@dash/contracts';
import { verifyJwt } from '@dash/service-kit';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { FREE_PLAN_LIMIT_FIXED } from '../src/routes/storage-config';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
type Member = { id: string; email: string };
let owner: Member;
let admin: Member;
let developer: Member;
let viewer: Member;
let stranger: Member;
let orgA: number;

const REFS = ['free-one', 'pro-one', 'keys-one'];

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'owner@example.com');
  admin = await createUser(platform.ctx, 'admin@example.com');
  developer = await createUser(platform.ctx, 'dev@example.com');
  viewer = await createUser(platform.ctx, 'viewer@example.com');
  stranger = await createUser(platform.ctx, 'stranger@example.com');
  orgA = await createOrg(platform.ctx, 'org-a', [
    [owner.id, 'owner'],
    [admin.id, 'administrator'],
    [developer.id, 'developer'],
    [viewer.id, 'read_only'],
  ]);
  const orgB = await createOrg(platform.ctx, 'org-b', [[stranger.id, 'owner']]);
  for (const ref of REFS) await insertProjectRow(platform.ctx, ref, orgA);
  await insertProjectRow(platform.ctx, 'other', orgB);
  await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where ref = 'pro-one'");
});
afterAll(() => platform.close());

const as = (user: Member, role: OrgRole, refs = REFS) => userHeaders(Object.fromEntries(refs.map((ref) => [ref, role])), user.id, user.email);

const readConfig = (ref: string, headers: Record<string, string>) =>
  platform.app.inject({ method: 'GET', url: `/projects/${ref}/config/storage`, headers });
const writeConfig = (ref: string, headers: Record<string, string>, payload: unknown) =>
  platform.app.inject({ method: 'PATCH', url: `/projects/${ref}/config/storage`, headers, payload: payload as object });
const apiKeys = (ref: string, headers: Record<string, string>) => platform.app.inject({ method: 'GET', url: `/projects/${ref}/api-keys`, headers });
const settings = (ref: string) =>
  platform.app.inject({ method: 'GET', url: `/internal/projects/${ref}/storage-settings`, headers: serviceHeaders() });
const internalSettings = async (ref: string) =>
  expectContract<{ jwtSecret: string; fileSizeLimit: number }>(platformRoutes.projectStorageSettings, await settings(ref));

describe('project storage configuration', () => {
  it('starts at the default upload limit, and tells the free plan apart, for every member', async () => {
    for (const [user, role] of [
      [owner, 'owner'],
      [developer, 'developer'],
      [viewer, 'read_only'],
    ] as const) {
      expect(expectContract<StorageConfig>(platformRoutes.getStorageConfig, await readConfig('free-one', as(user, role)))).toEqual({
        fileSizeLimit: DEFAULT_UPLOAD_LIMIT_BYTES,
        isFreeTier: true,
      });
      expect(expectContract<StorageConfig>(platformRoutes.getStorageConfig, await readConfig('pro-one', as(user, role)))).toEqual({
        fileSizeLimit: DEFAULT_UPLOAD_LIMIT_BYTES,
        isFreeTier: false,
      });
    }
    expect((await internalSettings('free-one')).fileSizeLimit).toBe(DEFAULT_UPLOAD_LIMIT_BYTES);
  });

  it('lets owners, administrators and developers change a Pro project\'s limit, up to 5 GB', async () => {
    const changes: Array<[Member, OrgRole, number]> = [
      [owner, 'owner', 1024 * 1024 * 1024],
      [admin, 'administrator', MAX_UPLOAD_LIMIT_BYTES],
      [developer, 'developer', 1],
    ];
    for (const [user, role, limit] of changes) {
      const body = expectContract<StorageConfig>(platformRoutes.updateStorageConfig, await writeConfig('pro-one', as(user, role), { fileSizeLimit: limit }));
      expect(body).toEqual({ fileSizeLimit: limit, isFreeTier: false });
      expect(expectContract<StorageConfig>(platformRoutes.getStorageConfig, await readConfig('pro-one', as(viewer, 'read_only')))).toEqual(body);
      // The storage service reads the same limit.
      expect((await internalSettings('pro-one')).fileSizeLimit).toBe(limit);
    }
    const tooBig = await writeConfig('pro-one', as(owner, 'owner'), { fileSizeLimit: MAX_UPLOAD_LIMIT_BYTES + 1 });
    expectError(platformRoutes.updateStorageConfig, tooBig, 400, new RegExp(String(MAX_UPLOAD_LIMIT_BYTES)));
    expect((await internalSettings('pro-one')).fileSizeLimit).toBe(1);
  });

  it('keeps the free plan at its fixed limit', async () => {
    for (const limit of [FREE_PLAN_UPLOAD_LIMIT_BYTES - 1, FREE_PLAN_UPLOAD_LIMIT_BYTES + 1, MAX_UPLOAD_LIMIT_BYTES]) {
      const res = await writeConfig('free-one', as(owner, 'owner'), { fileSizeLimit: limit });
      expectError(platformRoutes.updateStorageConfig, res, 400, FREE_PLAN_LIMIT_FIXED);
    }
    expect(FREE_PLAN_LIMIT_FIXED).toContain('50 MB');
    const same = await writeConfig('free-one', as(owner, 'owner'), { fileSizeLimit: FREE_PLAN_UPLOAD_LIMIT_BYTES });
    expect(expectContract<StorageConfig>(platformRoutes.updateStorageConfig, same)).toEqual({
      fileSizeLimit: FREE_PLAN_UPLOAD_LIMIT_BYTES,
      isFreeTier: true,
    });
  });

  it('refuses read-only members a change (403) but lets them read', async () => {
    const before = expectContract<StorageConfig>(platformRoutes.getStorageConfig, await readConfig('pro-one', as(viewer, 'read_only')));
    expectError(platformRoutes.updateStorageConfig, await writeConfig('pro-one', as(viewer, 'read_only'), { fileSizeLimit: 2048 }), 403, ServiceMessages.forbidden);
    // The role comes from the database: a read-only member claiming to be an owner is still refused.
    expectError(platformRoutes.updateStorageConfig, await writeConfig('pro-one', as(viewer, 'owner'), { fileSizeLimit: 2048 }), 403, ServiceMessages.forbidden);
    expect(expectContract<StorageConfig>(platformRoutes.getStorageConfig, await readConfig('pro-one', as(owner, 'owner')))).toEqual(before);
  });

  it('answers 404 to non-members, even with a forged claim', async () => {
    const forged = as(stranger, 'owner');
    expectError(platformRoutes.getStorageConfig, await readConfig('pro-one', forged), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.updateStorageConfig, await writeConfig('pro-one', forged, { fileSizeLimit: 2048 }), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.projectApiKeys, await apiKeys('pro-one', forged), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.getStorageConfig, await readConfig('pro-one', as(stranger, 'owner', ['other'])), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.projectStorageSettings, await settings('nope'), 404, ServiceMessages.projectNotFound);
  });

  it('validates the change', async () => {
    const owners = as(owner, 'owner');
    for (const payload of [{}, { fileSizeLimit: 'big' }, { fileSizeLimit: 0 }, { fileSizeLimit: -1 }, { fileSizeLimit: 1.5 }, { fileSizeLimit: 2048, other: 1 }]) {
      expectError(platformRoutes.updateStorageConfig, await writeConfig('pro-one', owners, payload), 400);
    }
  });

  it('keeps the internal settings for services only', async () => {
    const res = await platform.app.inject({ method: 'GET', url: '/internal/projects/pro-one/storage-settings', headers: as(owner, 'owner') });
    expectError(platformRoutes.projectStorageSettings, res, 403, ServiceMessages.internalOnly);
  });

  it('is deleted with its project', async () => {
    const { id } = await insertProjectRow(platform.ctx, 'gone', orgA);
    await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where id = $1", [id]);
    expectContract(platformRoutes.updateStorageConfig, await writeConfig('gone', as(owner, 'owner', ['gone']), { fileSizeLimit: 4096 }));
    expect(await query(platform.databaseUrl, 'select file_size_limit::int as bytes from platform.project_storage_config where project_id = $1', [id])).toEqual([
      { bytes: 4096 },
    ]);
    await query(platform.databaseUrl, 'delete from platform.projects where id = $1', [id]);
    expect(await query(platform.databaseUrl, 'select 1 from platform.project_storage_config where project_id = $1', [id])).toEqual([]);
  });
});

describe('project JWT secret and API keys', () => {
  it('generates the secret once, even for concurrent first reads, and keeps it encrypted', async () => {
    const [stored] = await query<{ jwt_secret_encrypted: string | null }>(platform.databaseUrl, "select jwt_secret_encrypted from platform.projects where ref = 'keys-one'");
    expect(stored!.jwt_secret_encrypted).toBeNull();

    const first = await Promise.all([1, 2, 3, 4, 5].map(() => internalSettings('keys-one')));
    const secret = first[0]!.jwtSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.map((s) => s.jwtSecret)).toEqual(first.map(() => secret));
    expect((await internalSettings('keys-one')).jwtSecret).toBe(secret);

    const [row] = await query<{ jwt_secret_encrypted: string }>(platform.databaseUrl, "select jwt_secret_encrypted from platform.projects where ref = 'keys-one'");
    expect(row!.jwt_secret_encrypted).toMatch(/^v1:/);
    expect(row!.jwt_secret_encrypted).not.toContain(secret);
    expect(row!.jwt_secret_encrypted).not.toContain(Buffer.from(secret, 'hex').toString('base64url'));
    // Bound to its purpose: it does not decrypt as the project's connection string.
    expect(() => platform.ctx.cipher.decrypt(row!.jwt_secret_encrypted, 'project:keys-one')).toThrow();

    // Every project has its own.
    expect((await internalSettings('free-one')).jwtSecret).not.toBe(secret);
  });

  it('signs anon and service_role keys with the secret the storage service gets', async () => {
    const res = await apiKeys('keys-one', as(developer, 'developer'));
    const keys = expectContract<ProjectApiKeys>(platformRoutes.projectApiKeys, res);
    const { jwtSecret } = await internalSettings('keys-one');
    for (const role of ['anon', 'service_role'] as const) {
      const verified = verifyJwt(jwtSecret, keys[role]);
      if (!('claims' in verified)) throw new Error(verified.error);
      expect(verified.claims).toEqual({ iss: 'dash', ref: 'keys-one', role, iat: expect.any(Number) });
      expect(verified.claims.exp).toBeUndefined();
      expect(verifyJwt('0'.repeat(64), keys[role])).toEqual({ error: 'Invalid JWT: signature verification failed' });
    }
    // The same keys on every read.
    const again = expectContract<ProjectApiKeys>(platformRoutes.projectApiKeys, await apiKeys('keys-one', as(owner, 'owner')));
    expect({ anon: again.anon, service_role: again.service_role }).toEqual({ anon: keys.anon, service_role: keys.service_role });
    expect(keys.storageUrl).toBe('http://localhost:80/p/keys-one/storage/v1');
  });

  it('gives the storage URL on the origin the browser called', async () => {
    const headers = { ...as(owner, 'owner'), 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'dash.example.com:8443' };
    const keys = expectContract<ProjectApiKeys>(platformRoutes.projectApiKeys, await apiKeys('keys-one', headers));
    expect(keys.storageUrl).toBe('https://dash.example.com:8443/p/keys-one/storage/v1');
    const direct = expectContract<ProjectApiKeys>(platformRoutes.projectApiKeys, await apiKeys('keys-one', { ...as(owner, 'owner'), host: '127.0.0.1:3000' }));
    expect(direct.storageUrl).toBe('http://127.0.0.1:3000/p/keys-one/storage/v1');
  });

  it('shows the keys only to members who may write (read-only: 403)', async () => {
    expectError(platformRoutes.projectApiKeys, await apiKeys('keys-one', as(viewer, 'read_only')), 403, ServiceMessages.forbidden);
    expectError(platformRoutes.projectApiKeys, await apiKeys('keys-one', as(viewer, 'owner')), 403, ServiceMessages.forbidden);
  });
});
