import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { DEFAULT_UPLOAD_LIMIT_BYTES, IDENTITY_HEADER } from '@dash/contracts';
import { signJwt, verifyIdentity } from '@dash/service-kit';
import { setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { DiskBackend } from '../src/backend/disk';
import { platformSettingsResolver } from '../src/project-settings';

// Rotating a project's JWT secret (the platform's `rotateJwtSecret`) must lock out the keys signed with
// the old one promptly: the storage service reads the secret through the platform's internal settings
// route, as in production, and its cache must not keep the old secret for long.

const FIRST_SECRET = 'the-first-jwt-secret-of-the-project-0123';
const SECOND_SECRET = 'the-rotated-jwt-secret-of-the-project-45';

let project: TestProject;
let backendDir: string;
const platform = Fastify();
let currentSecret = FIRST_SECRET;
let settingsReads = 0;

beforeAll(async () => {
  // The platform's internal route, as the storage service calls it (a signed service identity).
  platform.get('/internal/projects/:ref/storage-settings', async (request, reply) => {
    const identity = verifyIdentity(TEST_SECRET, request.headers[IDENTITY_HEADER] as string | undefined);
    if (identity?.kind !== 'service' || identity.sub !== 'storage') return reply.status(401).send({ message: 'no' });
    settingsReads += 1;
    return { jwtSecret: currentSecret, fileSizeLimit: DEFAULT_UPLOAD_LIMIT_BYTES };
  });
  await platform.listen({ port: 0, host: '127.0.0.1' });
  const platformUrl = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
  backendDir = mkdtempSync(path.join(tmpdir(), 'dash-storage-rotation-'));
  project = await setupTestProject('storagejwt', (pools) =>
    buildApp({ secret: TEST_SECRET, pools, backend: new DiskBackend(backendDir), settings: platformSettingsResolver(platformUrl, TEST_SECRET) }),
  );
});

afterAll(async () => {
  await project.close();
  await platform.close();
  rmSync(backendDir, { recursive: true, force: true });
});

const listBuckets = (key: string) =>
  project.app.inject({ method: 'GET', url: '/default/v1/bucket', headers: { apikey: key, authorization: `Bearer ${key}` } });

it('refuses keys signed with the old secret within about a second of the rotation, and accepts the new ones', async () => {
  const oldAnon = signJwt(FIRST_SECRET, { iss: 'dash', ref: 'default', role: 'anon' });
  const oldService = signJwt(FIRST_SECRET, { iss: 'dash', ref: 'default', role: 'service_role' });
  expect((await listBuckets(oldAnon)).statusCode).toBe(200);
  expect((await listBuckets(oldService)).statusCode).toBe(200);

  currentSecret = SECOND_SECRET;
  const rotatedAt = Date.now();
  let refusedAfterMs: number | undefined;
  while (refusedAfterMs === undefined && Date.now() - rotatedAt < 5_000) {
    const response = await listBuckets(oldAnon);
    if (response.statusCode === 400) refusedAfterMs = Date.now() - rotatedAt;
    else {
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  expect(refusedAfterMs).toBeDefined();
  expect(refusedAfterMs!).toBeLessThan(1_500);

  const refused = await listBuckets(oldService);
  // Refused as Supabase Storage refuses a token: HTTP 400, the body naming 403.
  expect(refused.statusCode).toBe(400);
  expect(JSON.parse(refused.body)).toMatchObject({ statusCode: '403', code: 'AccessDenied', message: 'Invalid JWT: signature verification failed' });
  const newAnon = signJwt(SECOND_SECRET, { iss: 'dash', ref: 'default', role: 'anon' });
  expect((await listBuckets(newAnon)).statusCode).toBe(200);
  // The secret is read from the platform again, not on every request.
  expect(settingsReads).toBeGreaterThanOrEqual(2);
  expect(settingsReads).toBeLessThan(10);
});
