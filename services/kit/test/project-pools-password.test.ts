import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { quoteIdent, quoteLiteral } from '../src/db';
import { connectProject } from '../src/project-db';
import { ProjectPools } from '../src/project-pools';
import { createTestDatabase, testServerUrl } from '../src/testing';

// A project role's password can be reset while the services hold pools logged in with the old one: the
// next new connection is refused (28P01), and the pools must ask for the connection string again.

describe('ProjectPools after a password reset', () => {
  const role = `kitpw_${randomBytes(4).toString('hex')}`;
  let database: { url: string; drop: () => Promise<void> };
  let password = 'the-first-password';
  const asked: string[] = [];
  const resolve = async () => {
    asked.push(password);
    const url = new URL(database.url);
    url.username = role;
    url.password = password;
    return url.toString();
  };

  const superuser = async (text: string) => {
    const client = new pg.Client({ connectionString: testServerUrl() });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  const setPassword = (value: string) => superuser(`alter role ${quoteIdent(role)} password ${quoteLiteral(value)}`);

  beforeAll(async () => {
    database = await createTestDatabase('kitpw');
    await superuser(`create role ${quoteIdent(role)} login password ${quoteLiteral(password)}`);
  });

  afterAll(async () => {
    await database.drop();
    await superuser(`drop role if exists ${quoteIdent(role)}`);
  });

  beforeEach(async () => {
    asked.length = 0;
    password = 'the-first-password';
    await setPassword(password);
  });

  it('asks for the connection again once the old password is refused, and keeps working', async () => {
    const pools = new ProjectPools(resolve, 5);
    try {
      (await connectProject(pools, 'p')).release();
      password = 'the-second-password';
      await setPassword(password);
      // The idle session logged in before the reset stays valid; a second, new connection is refused
      // with the old password and succeeds with the new one.
      const [kept, fresh] = await Promise.all([connectProject(pools, 'p'), connectProject(pools, 'p')]);
      expect((await fresh.query('select current_user as me')).rows).toEqual([{ me: role }]);
      expect((await kept.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      kept.release();
      fresh.release();
      expect(asked).toEqual(['the-first-password', 'the-second-password']);
      // Later requests use the new pool without asking again.
      (await connectProject(pools, 'p')).release();
      expect(asked).toHaveLength(2);
    } finally {
      await pools.closeAll();
    }
  });

  it('retries once only: a password that is still wrong is a 503', async () => {
    const pools = new ProjectPools(resolve, 5);
    try {
      await setPassword('known-to-nobody-here');
      await expect(connectProject(pools, 'p')).rejects.toMatchObject({ statusCode: 503 });
      expect(asked).toEqual(['the-first-password', 'the-first-password']);
    } finally {
      await pools.closeAll();
    }
  });
});
