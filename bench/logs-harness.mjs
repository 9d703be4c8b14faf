// Shared set-up of the logs service benchmarks (logs-errors-last-hour, reports-api-overview): a Postgres
// server, a fresh database with the logs migrations, and the built logs service listening on a port,
// called with a signed identity of a read-only member of the bench project, as the gateway would.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './pg-meta-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const LOGS_REF = 'bench';
export const DAY_MS = 86_400_000;

/** A module of the built logs service, e.g. `logsDist('sql/reports.js')`. */
export const logsDist = (file) => require(path.join(root, 'services/logs/dist', file));

/**
 * Runs `work` with a pool on a fresh, migrated logs database (`partitions` makes day partitions) and
 * `listen()`, which starts the logs service on it and answers its address and a headers maker (a signed
 * identity lives 60 s, so each request gets a fresh one). Everything is stopped and dropped afterwards.
 */
export async function withLogsService(prefix, work) {
  const kit = require(path.join(root, 'services/kit/dist/index.js'));
  const { TEST_SECRET } = require(path.join(root, 'services/kit/dist/testing.js'));
  const { buildApp } = logsDist('app.js');
  const { migrateLogs } = logsDist('db/migrations.js');
  const { PartitionManager } = logsDist('db/partitions.js');

  const server = await startPostgres();
  const name = `${prefix}_${Date.now()}`;
  await kit.ensureDatabase(server.url, name);
  const pool = kit.createPool(kit.withDatabase(server.url, name), 8);
  const db = kit.createDb(pool);
  let app;
  try {
    await migrateLogs(db);
    const listen = async () => {
      app = buildApp({ secret: TEST_SECRET, pool });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const headers = () => ({
        'content-type': 'application/json',
        'x-dash-identity': kit.signIdentity(TEST_SECRET, { kind: 'user', sub: 'bench', email: 'bench@example.com', projects: { [LOGS_REF]: 'read_only' } }),
      });
      return { address, headers };
    };
    await work({ pool, partitions: new PartitionManager(pool), listen });
  } finally {
    await app?.close();
    await db.destroy().catch(() => {});
    await kit.dropDatabase(server.url, name).catch(() => {});
    await server.stop();
  }
}
