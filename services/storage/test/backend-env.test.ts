import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backendFromEnv } from '../src/backend';
import { DiskBackend } from '../src/backend/disk';
import { S3Backend } from '../src/backend/s3';
import { bodyOf } from './backend-suite';

// (The S3 backend built from the environment is exercised against s3rver in s3-backend.test.ts.)
describe('backendFromEnv', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(tmpdir(), 'dash-backend-env-'));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('defaults to the disk backend in .data/storage under the working folder', async () => {
    const backend = backendFromEnv({}, cwd);
    expect(backend).toBeInstanceOf(DiskBackend);
    expect((backend as DiskBackend).root).toBe(path.join(cwd, '.data/storage'));
    await backend.put('default/docs/id/v1', bodyOf(Buffer.from('x')), { contentType: 'text/plain', cacheControl: 'no-cache', maxBytes: 10 });
    expect(existsSync(path.join(cwd, '.data/storage/objects/default/docs/id/v1'))).toBe(true);
  });

  it('uses DASH_STORAGE_DIR, relative to the working folder or absolute', () => {
    expect((backendFromEnv({ DASH_STORAGE_BACKEND: 'disk', DASH_STORAGE_DIR: 'files' }, cwd) as DiskBackend).root).toBe(path.join(cwd, 'files'));
    expect((backendFromEnv({ DASH_STORAGE_DIR: '/srv/dash' }, cwd) as DiskBackend).root).toBe('/srv/dash');
  });

  it('builds the S3 backend from its variables', async () => {
    const backend = backendFromEnv({ DASH_STORAGE_BACKEND: 's3', DASH_STORAGE_S3_BUCKET: 'files' }, cwd);
    expect(backend).toBeInstanceOf(S3Backend);
    await backend.close();
  });

  it.each([
    [{ DASH_STORAGE_BACKEND: 'gcs' }, 'DASH_STORAGE_BACKEND must be "disk" or "s3", got "gcs"'],
    [{ DASH_STORAGE_BACKEND: 's3' }, 'DASH_STORAGE_S3_BUCKET is required when DASH_STORAGE_BACKEND is "s3"'],
    [
      { DASH_STORAGE_BACKEND: 's3', DASH_STORAGE_S3_BUCKET: 'b', DASH_STORAGE_S3_ENDPOINT: 'localhost:9000' },
      'DASH_STORAGE_S3_ENDPOINT must be an http:// or https:// URL, got "localhost:9000"',
    ],
    [
      { DASH_STORAGE_BACKEND: 's3', DASH_STORAGE_S3_BUCKET: 'b', DASH_STORAGE_S3_FORCE_PATH_STYLE: 'yes' },
      'DASH_STORAGE_S3_FORCE_PATH_STYLE must be "true" or "false", got "yes"',
    ],
    [
      { DASH_STORAGE_BACKEND: 's3', DASH_STORAGE_S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'key' },
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or both left unset to use the default AWS credential chain)',
    ],
    [
      { DASH_STORAGE_S3_BUCKET: 'b', DASH_STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000' },
      'DASH_STORAGE_S3_BUCKET, DASH_STORAGE_S3_ENDPOINT are set but DASH_STORAGE_BACKEND is "disk"; set DASH_STORAGE_BACKEND=s3 to use S3',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => backendFromEnv(env, cwd)).toThrow(message);
  });
});
