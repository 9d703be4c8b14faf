import pg from 'pg';
import { bootstrapProjectDatabase } from '../src/project-bootstrap';
import { createTestDatabase } from '../src/testing';

let database: { url: string; drop: () => Promise<void> };
let other: { url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('kitboot');
  other = await createTestDatabase('kitboot');
  // Two projects bootstrapped at once: roles are cluster-wide, so they race to create them.
  await Promise.all([bootstrapProjectDatabase(database.url), bootstrapProjectDatabase(other.url)]);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await database.drop();
  await other.drop();
});

describe('bootstrapProjectDatabase', () => {
  it('is idempotent', async () => {
    await client.query(`insert into storage.buckets (id, name) values ('keep', 'keep')`);
    await bootstrapProjectDatabase(database.url);
    await bootstrapProjectDatabase(database.url);
    const { rows } = await client.query('select id from storage.buckets');
    expect(rows).toEqual([{ id: 'keep' }]);
    await client.query(`delete from storage.buckets`);
  });

  it('creates the standard roles', async () => {
    const { rows } = await client.query(
      `select rolname, rolcanlogin, rolbypassrls, rolinherit from pg_roles
       where rolname in ('anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user') order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticated', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticator', rolcanlogin: true, rolbypassrls: false, rolinherit: false },
      { rolname: 'dashboard_user', rolcanlogin: false, rolbypassrls: false, rolinherit: true },
      { rolname: 'service_role', rolcanlogin: false, rolbypassrls: true, rolinherit: false },
    ]);
    const members = await client.query(
      `select r.rolname from pg_auth_members m join pg_roles r on r.oid = m.roleid
       where m.member = (select oid from pg_roles where rolname = 'authenticator') order by 1`,
    );
    expect(members.rows.map((r) => r.rolname)).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role']));
  });

  it('gives auth.uid(), auth.role(), auth.email() and auth.jwt() the request claims', async () => {
    const sub = '0b2c6a2e-59a4-4f0e-9a53-9b7b1f1e3c11';
    await client.query('begin');
    try {
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub, role: 'authenticated', email: 'a@example.com' }),
      ]);
      await client.query('set local role authenticated');
      const { rows } = await client.query(`select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'sub' as jwt_sub`);
      expect(rows[0]).toEqual({ uid: sub, role: 'authenticated', email: 'a@example.com', jwt_sub: sub });
    } finally {
      await client.query('rollback');
    }
    const { rows } = await client.query(`select auth.uid() as uid, auth.role() as role, auth.jwt() as jwt`);
    expect(rows[0]).toEqual({ uid: null, role: null, jwt: {} });
  });

  it('creates storage tables with row-level security on, and it applies', async () => {
    const { rows } = await client.query(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'storage' and c.relkind = 'r' order by 1`,
    );
    expect(rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
    await client.query(`insert into storage.buckets (id, name) values ('hidden', 'hidden')`);
    await client.query('begin');
    try {
      await client.query('set local role authenticated');
      // No policy grants anything yet, so the row is invisible to a plain role...
      expect((await client.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(0);
      await client.query('set local role service_role');
      // ...and visible to the role that bypasses RLS.
      expect((await client.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(1);
    } finally {
      await client.query('rollback');
    }
  });

  it('provides the storage path helpers', async () => {
    const { rows } = await client.query(
      `select storage.foldername('a/b/c.png') as folders, storage.filename('a/b/c.png') as file,
              storage.extension('a/b/c.tar.gz') as ext, storage.extension('a/noext') as none`,
    );
    expect(rows[0]).toEqual({ folders: ['a', 'b'], file: 'c.png', ext: 'gz', none: '' });
  });
});
