import { ensureServiceRoles, SERVICE_ROLES } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET, testServerUrl } from '@dash/service-kit/dist/testing';
import { buildPlatformApp, type PlatformConfig } from '../src/app';
import { createOrg, createUser, query, TEST_ENCRYPTION_KEY } from './helpers';

type Database = Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase('platform');
});

afterAll(async () => {
  await database.drop();
});

const config = (databaseUrl: string): PlatformConfig => ({
  databaseUrl,
  adminUrl: testServerUrl(),
  secret: TEST_SECRET,
  encryptionKey: TEST_ENCRYPTION_KEY,
});

describe('the platform service on its own database role', () => {
  it('takes over a schema the superuser migrated, then connects, migrates and writes as its role, which is no superuser', async () => {
    // A platform database as earlier starts left it: migrated by the server's superuser.
    const before = await buildPlatformApp(config(database.url));
    await createUser(before.platform, 'earlier@example.com');
    await before.close();

    const { connections, fallback } = await ensureServiceRoles(database.url, TEST_SECRET);
    expect(fallback).toBeUndefined();
    const app = await buildPlatformApp(config(connections.platform));
    try {
      const { rows } = await app.platform.pool.query('select session_user, usesuper from pg_user where usename = session_user');
      expect(rows).toEqual([{ session_user: SERVICE_ROLES.platform, usesuper: false }]);
      const user = await createUser(app.platform, 'later@example.com');
      await createOrg(app.platform, 'role-org', [[user.id, 'owner']]);
      const owners = await query<{ owner: string }>(
        database.url,
        `select distinct relowner::regrole::text as owner from pg_class where relnamespace = 'platform'::regnamespace and relkind in ('r', 'p', 'S', 'v')`,
      );
      expect(owners).toEqual([{ owner: SERVICE_ROLES.platform }]);
    } finally {
      await app.close();
    }
  });
});
