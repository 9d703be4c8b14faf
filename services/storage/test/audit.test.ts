import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_UPLOAD_LIMIT_BYTES, type AuditRecordInput } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { setupTestProject, TEST_SECRET, userHeaders, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { DiskBackend } from '../src/backend/disk';
import { TEST_JWT_SECRET } from './helpers';

// Bucket changes reach the platform's audit log: recorded after they commit, with who made them; a
// failure to record never fails the change.

type Options = { audit: (event: AuditRecordInput) => Promise<void> };
const events: AuditRecordInput[] = [];
let project: TestProject<Options>;
let backendDir: string;

const MEMBER = { id: '6f1c1f9e-2a51-4d5e-9c55-0b8e0c6b1f11', email: 'member@example.com' };
const member = userHeaders({ default: 'developer' }, MEMBER.id, MEMBER.email);

beforeAll(async () => {
  backendDir = mkdtempSync(path.join(tmpdir(), 'dash-storage-audit-'));
  project = await setupTestProject<Options>('storageaudit', (pools, options) =>
    buildApp({
      secret: TEST_SECRET,
      pools,
      backend: new DiskBackend(backendDir),
      settings: async () => ({ jwtSecret: TEST_JWT_SECRET, fileSizeLimit: DEFAULT_UPLOAD_LIMIT_BYTES }),
      audit: options?.audit ?? (async (event) => void events.push(event)),
    }),
  );
});
afterAll(async () => {
  await project.close();
  rmSync(backendDir, { recursive: true, force: true });
});
beforeEach(() => {
  events.length = 0;
});

describe('bucket audit events', () => {
  it('records create, update, empty and delete from the dashboard with the member as actor', async () => {
    const inject = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      project.app.inject({ method, url, headers: member, ...(payload ? { payload } : {}) });
    expect((await inject('POST', '/default/buckets', { id: 'avatars', public: false })).statusCode).toBe(201);
    expect((await inject('PATCH', '/default/buckets/avatars', { public: true, file_size_limit: 1024 })).statusCode).toBe(200);
    await project.sql(`insert into storage.objects (bucket_id, name) values ('avatars', 'a.png'), ('avatars', 'b.png')`);
    expect((await inject('POST', '/default/buckets/avatars/empty')).statusCode).toBe(200);
    expect((await inject('DELETE', '/default/buckets/avatars')).statusCode).toBe(200);
    // A refused change records nothing.
    expect((await inject('DELETE', '/default/buckets/avatars')).statusCode).toBe(404);

    expect(events).toEqual([
      { action: 'bucket.created', actor: MEMBER, project_ref: 'default', target: 'avatars', details: { public: false, file_size_limit: null, allowed_mime_types: null } },
      { action: 'bucket.updated', actor: MEMBER, project_ref: 'default', target: 'avatars', details: { public: true, file_size_limit: 1024, allowed_mime_types: null } },
      { action: 'bucket.emptied', actor: MEMBER, project_ref: 'default', target: 'avatars', details: { objects_deleted: 2 } },
      { action: 'bucket.deleted', actor: MEMBER, project_ref: 'default', target: 'avatars', details: { deleted_policies: [] } },
    ]);
  });

  it('records storage API changes with the key that made them', async () => {
    const serviceKey = signJwt(TEST_JWT_SECRET, { role: 'service_role', iss: 'dash' });
    const res = await project.app.inject({
      method: 'POST',
      url: '/default/v1/bucket',
      headers: { authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
      payload: { name: 'api-made', public: true },
    });
    expect(res.statusCode).toBe(200);
    expect(events).toEqual([
      {
        action: 'bucket.created',
        actor: null,
        project_ref: 'default',
        target: 'api-made',
        details: { public: true, file_size_limit: null, allowed_mime_types: null, via: 'storage_api', role: 'service_role' },
      },
    ]);
  });

  it('answers the change even when the audit log cannot be reached', async () => {
    const failing = await project.extraApp({ audit: async () => Promise.reject(new Error('platform down')) });
    const res = await failing.inject({ method: 'POST', url: '/default/buckets', headers: member, payload: { id: 'still-made', public: false } });
    expect(res.statusCode).toBe(201);
    const { rows } = await project.sql(`select id from storage.buckets where id = 'still-made'`);
    expect(rows).toHaveLength(1);
  });
});
