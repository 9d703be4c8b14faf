import path from 'node:path';
import { DiskBackend } from './disk';
import type { S3BackendOptions } from './s3';
import type { ObjectBackend } from './types';

/**
 * The backend the environment asks for:
 * - `DASH_STORAGE_BACKEND`: `disk` (default) or `s3`.
 * - disk: `DASH_STORAGE_DIR`, default `.data/storage`, relative to `cwd`.
 * - s3: `DASH_STORAGE_S3_BUCKET` (required), `DASH_STORAGE_S3_ENDPOINT` (an S3-compatible service; AWS
 *   when unset), `DASH_STORAGE_S3_REGION` (default `us-east-1`), `DASH_STORAGE_S3_FORCE_PATH_STYLE`
 *   (`true`/`false`, default `false`), `DASH_STORAGE_S3_PREFIX` (a folder in the bucket), and the
 *   standard `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`); without keys the SDK's
 *   default chain applies (profile, instance or task role).
 * Throws with a message naming the variable when the configuration is wrong.
 */
export function backendFromEnv(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ObjectBackend {
  const kind = env.DASH_STORAGE_BACKEND || 'disk';
  if (kind === 'disk') {
    // Storing on local disk while S3 settings are present is almost surely a forgotten DASH_STORAGE_BACKEND.
    const s3Settings = Object.keys(env).filter((name) => name.startsWith('DASH_STORAGE_S3_') && env[name]);
    if (s3Settings.length > 0) {
      throw new Error(`${s3Settings.sort().join(', ')} ${s3Settings.length === 1 ? 'is' : 'are'} set but DASH_STORAGE_BACKEND is "disk"; set DASH_STORAGE_BACKEND=s3 to use S3`);
    }
    return new DiskBackend(path.resolve(cwd, env.DASH_STORAGE_DIR || '.data/storage'));
  }
  if (kind === 's3') {
    // Loaded only when chosen: the AWS SDK adds some 20 MB to every storage process that stores on disk.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, lazy load
    const { S3Backend } = require('./s3') as typeof import('./s3');
    return new S3Backend(s3OptionsFromEnv(env));
  }
  throw new Error(`DASH_STORAGE_BACKEND must be "disk" or "s3", got "${kind}"`);
}

function s3OptionsFromEnv(env: NodeJS.ProcessEnv): S3BackendOptions {
  const bucket = env.DASH_STORAGE_S3_BUCKET;
  if (!bucket) throw new Error('DASH_STORAGE_S3_BUCKET is required when DASH_STORAGE_BACKEND is "s3"');
  const endpoint = env.DASH_STORAGE_S3_ENDPOINT || undefined;
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    throw new Error(`DASH_STORAGE_S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  }
  const pathStyle = env.DASH_STORAGE_S3_FORCE_PATH_STYLE || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw new Error(`DASH_STORAGE_S3_FORCE_PATH_STYLE must be "true" or "false", got "${pathStyle}"`);
  }
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId !== !secretAccessKey) {
    throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or both left unset to use the default AWS credential chain)');
  }
  return {
    bucket,
    endpoint,
    region: env.DASH_STORAGE_S3_REGION || 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined } : undefined,
    prefix: env.DASH_STORAGE_S3_PREFIX || undefined,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
