import { randomBytes } from 'node:crypto';
import { ErrorReply, Messages, rolesRoutes, ServiceMessages, type OrgRole, type PgRole } from '@dash/contracts';
import { asRole, contractValidator, setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { SUPERUSER_NOT_GRANTABLE } from '../src/sql/roles-write';

/*
 * Role writes through the routes. Roles belong to the whole server: every role here carries this
 * file's suffix and is dropped after it.
 */

const suffix = randomBytes(4).toString('hex');
const name = (base: string) => `${base}_${suffix}`;

let p: TestProject;
const check = contractValidator();

beforeAll(async () => {
  p = await setupTestProject('pgrole', (pools) => buildApp({ secret: TEST_SECRET, pools }));
  await p.sql(`create role ${name('group')} nologin`);
  await p.superuserSql(`create role ${name('super')} superuser nologin`);
});

afterAll(async () => {
  const { rows } = await p.sql(`select rolname from pg_roles where rolname like $1`, [`%${suffix}%`]);
  for (const row of rows) await p.superuserSql(`drop role "${(row.rolname as string).replace(/"/g, '""')}"`);
  await p.close();
});

async function call(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: asRole(role), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function ok(reply: { status: number; body: unknown }, def: (typeof rolesRoutes)[keyof typeof rolesRoutes]): PgRole {
  expect(reply.status).toBe(def.status ?? 200);
  expect(check(def.response, reply.body)).toBeNull();
  return reply.body as PgRole;
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (typeof message === 'string') expect((reply.body as ErrorReply).message).toBe(message);
  else if (message) expect((reply.body as ErrorReply).message).toMatch(message);
}

const oidOf = async (role: string) => Number((await p.sql(`select oid::int8 as id from pg_roles where rolname = $1`, [role])).rows[0]?.id);

describe('create', () => {
  it('creates with the spec defaults and answers in the postgres-meta shape', async () => {
    const role = ok(await call('POST', '/roles', { name: name('reader') }), rolesRoutes.createRole);
    expect(role).toMatchObject({
      name: name('reader'),
      is_superuser: false,
      can_create_db: false,
      can_create_role: false,
      inherit_role: true,
      can_login: false,
      is_replication_role: false,
      can_bypass_rls: false,
      active_connections: 0,
      password: '********',
      valid_until: null,
      config: null,
    });
    const { rows } = await p.sql(`select setting from pg_settings where name = 'max_connections'`);
    // -1 (unlimited) is shown as the server's maximum connections.
    expect(role.connection_limit).toBe(Number(rows[0].setting));
    expect(role.id).toBe(await oidOf(name('reader')));
  });

  it('creates with capabilities, password, expiry, settings and memberships in one transaction', async () => {
    const role = ok(
      await call('POST', '/roles', {
        name: name(`writer "w"`),
        can_login: true,
        can_bypass_rls: true,
        password: `s3cret'; drop role x; --`,
        connection_limit: 7,
        valid_until: '2031-01-01T00:00:00Z',
        member_of: [name('group')],
        config: { application_name: `it's` },
      }),
      rolesRoutes.createRole,
    );
    expect(role).toMatchObject({ name: name(`writer "w"`), can_login: true, can_bypass_rls: true, connection_limit: 7, config: { application_name: `it's` } });
    expect(role.valid_until).toBe('2031-01-01 00:00:00+00');
    // Only a superuser reads pg_authid (where the password is).
    const { rows } = await p.superuserSql(
      `select a.rolpassword is not null as has_password, pg_has_role(a.oid, $2::name, 'member') as member
       from pg_authid a where a.rolname = $1`,
      [name(`writer "w"`), name('group')],
    );
    expect(rows).toEqual([{ has_password: true, member: true }]);
  });

  it('leaves to Postgres what the project admin role may not give: it is not a superuser', async () => {
    failed(await call('POST', '/roles', { name: name('dba'), can_create_db: true }), 400, 'permission denied to create role');
    failed(await call('POST', '/roles', { name: name('tuned'), config: { 'app.tenant': 'x' } }), 400, 'permission denied to set parameter "app.tenant"');
    expect(await oidOf(name('dba'))).toBeNaN();
    expect(await oidOf(name('tuned'))).toBeNaN();
  });

  it('a failing step creates nothing', async () => {
    failed(await call('POST', '/roles', { name: name('half'), member_of: ['no_such_group_x'] }), 400, 'role "no_such_group_x" does not exist');
    failed(await call('POST', '/roles', { name: name('half2'), config: { statement_timeout: 'soon' } }), 400, /invalid value for parameter "statement_timeout"/);
    expect(await oidOf(name('half'))).toBeNaN();
    expect(await oidOf(name('half2'))).toBeNaN();
  });

  it('never grants superuser, directly or through membership', async () => {
    failed(await call('POST', '/roles', { name: name('boss'), is_superuser: true }), 400, SUPERUSER_NOT_GRANTABLE);
    failed(await call('POST', '/roles', { name: name('boss'), member_of: [name('super')] }), 400, /member of the superuser/);
    failed(await call('POST', '/roles', { name: name('boss'), member_of: ['postgres'] }), 400, /member of the superuser/);
    expect(await oidOf(name('boss'))).toBeNaN();
  });

  it('refuses bad input with a message', async () => {
    failed(await call('POST', '/roles', { name: name('reader') }), 400, `role "${name('reader')}" already exists`);
    failed(await call('POST', '/roles', { name: 'pg_mine' }), 400, /reserved/);
    failed(await call('POST', '/roles', { name: 'é'.repeat(32) }), 400, /longer than 63 bytes/);
    failed(await call('POST', '/roles', { name: name('x'), connection_limit: -2 }), 400);
    failed(await call('POST', '/roles', { name: name('x'), config: { 'bad name': 'x' } }), 400);
    failed(await call('POST', '/roles', { name: name('x'), unknown: true }), 400);
  });
});

describe('update and delete', () => {
  it('updates only what is given; renaming keeps the id', async () => {
    const before = ok(await call('POST', '/roles', { name: name('editor'), can_login: true, config: { statement_timeout: '1s', work_mem: '64kB' } }), rolesRoutes.createRole);
    const after = ok(
      await call('PATCH', `/roles/${before.id}`, { name: name('editor2'), can_create_role: true, config: [{ op: 'remove', path: 'statement_timeout' }, { op: 'replace', path: 'work_mem', value: '128kB' }] }),
      rolesRoutes.updateRole,
    );
    expect(after).toEqual({ ...before, name: name('editor2'), can_create_role: true, config: { work_mem: '128kB' } });
    const forever = ok(await call('PATCH', `/roles/${before.id}`, { valid_until: null, password: null }), rolesRoutes.updateRole);
    expect(forever.valid_until).toBe('infinity');
  });

  it('deletes and answers with the role as it was', async () => {
    const role = ok(await call('POST', '/roles', { name: name('temp') }), rolesRoutes.createRole);
    expect(ok(await call('DELETE', `/roles/${role.id}`), rolesRoutes.deleteRole)).toEqual(role);
    expect(await oidOf(name('temp'))).toBeNaN();
  });

  it("'Cannot find role with id' for a role that does not exist", async () => {
    failed(await call('PATCH', '/roles/4000000000', { can_login: true }), 404, Messages.roleNotFound(4_000_000_000));
    failed(await call('DELETE', '/roles/4000000000'), 404, 'Cannot find role with id 4000000000');
  });

  it('leaves the platform roles, superusers, pg_ roles and its own role alone', async () => {
    for (const role of ['anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user', 'pg_read_all_data', 'postgres', name('super')]) {
      const id = await oidOf(role);
      failed(await call('PATCH', `/roles/${id}`, { can_login: true }), 400, `Role "${role}" is a system role and cannot be changed from the dashboard`);
      failed(await call('DELETE', `/roles/${id}`), 400, /is a system role/);
    }
    expect(await oidOf('anon')).toBeGreaterThan(0);
  });

  it('a role that owns objects cannot be dropped (Postgres says why)', async () => {
    const role = ok(await call('POST', '/roles', { name: name('owner') }), rolesRoutes.createRole);
    await p.sql(`create schema owned_${suffix} authorization ${name('owner')}`);
    failed(await call('DELETE', `/roles/${role.id}`), 400, /cannot be dropped because some objects depend on it/);
    await p.sql(`drop schema owned_${suffix}`);
  });
});

describe("each org role gets the spec's answer", () => {
  it('read-only members get 403 on writes, non-members 404', async () => {
    const id = await oidOf(name('group'));
    failed(await call('POST', '/roles', { name: name('ro') }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('PATCH', `/roles/${id}`, { can_login: true }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('DELETE', `/roles/${id}`, undefined, 'read_only'), 403, ServiceMessages.forbidden);
    const res = await p.app.inject({ method: 'DELETE', url: `/default/roles/${id}`, headers: asRole('owner', 'elsewhere') });
    expect(res.statusCode).toBe(404);
    expect(await oidOf(name('group'))).toBe(id);
  });

  it('developers and administrators may write', async () => {
    for (const role of ['developer', 'administrator'] as const) {
      const made = ok(await call('POST', '/roles', { name: name(`by_${role}`) }, role), rolesRoutes.createRole);
      ok(await call('DELETE', `/roles/${made.id}`, undefined, role), rolesRoutes.deleteRole);
    }
  });
});
