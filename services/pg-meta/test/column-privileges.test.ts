import { randomBytes } from 'node:crypto';
import {
  columnPrivilegesRoutes,
  ErrorReply,
  type ColumnPrivilegeGrantee,
  type OrgRole,
  type PgColumnPrivilege,
  type PgColumnPrivileges,
  type RouteDef,
} from '@dash/contracts';
import { quoteIdent } from '@dash/service-kit';
import { as, contractValidator, setupProject, type Project } from './helpers';

/*
 * Column privileges on real Postgres, per member role, with hostile schema, table, column and role
 * names: every member reads where each privilege comes from (table or column), the owner and a
 * developer grant and revoke (one transaction per request), a read-only member is refused (403) before
 * anything runs.
 */

const SCHEMA = `sch "q" ünï 🐘`;
const TABLE = `t 'x"; drop table x; --`;
const COLUMNS = ['id', 'note', `名 "col" ; --`];
const SUFFIX = randomBytes(3).toString('hex');
const ROLE = `rôle "${SUFFIX}" x`;
/** Owns a table in the project's schema, so the dashboard's role holds no grant option on it. */
const OTHER = `other_owner_${SUFFIX}`;

let p: Project;
const check = contractValidator();
let tableId: number;
let admin: string;
const columnId = (ordinal: number) => `${tableId}.${ordinal}`;
const [ID, NOTE, HOSTILE_COLUMN] = [1, 2, 3].map((ordinal) => () => columnId(ordinal)) as [() => string, () => string, () => string];
const qualifiedTable = `${quoteIdent(SCHEMA)}.${quoteIdent(TABLE)}`;

beforeAll(async () => {
  p = await setupProject();
  admin = new URL(p.url).username;
  // Roles belong to the whole server; only its superuser may make one on Postgres 15.
  await p.superuserSql(`create role ${quoteIdent(ROLE)} nologin; create role ${OTHER} nologin`);
  await p.sql(`
    create schema ${quoteIdent(SCHEMA)};
    create table ${qualifiedTable} (id int primary key, note text, ${quoteIdent(COLUMNS[2]!)} text);
  `);
  tableId = Number((await p.sql(`select $1::regclass::oid::int8 as id`, [qualifiedTable])).rows[0].id);
});

afterAll(async () => {
  // The role's grants live in this database: take them away before the role goes.
  await p.superuserSql(`drop owned by ${quoteIdent(ROLE)}, ${OTHER}; drop role ${quoteIdent(ROLE)}, ${OTHER}`);
  await p.close();
});

type Method = 'GET' | 'POST' | 'DELETE';
async function call(method: Method, url: string, payload?: unknown, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function ok<T>(reply: { status: number; body: unknown }, def: RouteDef): T {
  if (reply.status !== (def.status ?? 200)) throw new Error(`${reply.status}: ${JSON.stringify(reply.body)}`);
  expect(check(def.response, reply.body)).toBeNull();
  return reply.body as T;
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (message) expect((reply.body as ErrorReply).message).toBe(message);
}

async function hasColumnPrivilege(role: string, column: string, privilege: string): Promise<boolean> {
  const { rows } = await p.sql('select has_column_privilege($1, $2::int8::oid, $3, $4) as has', [role, tableId, column, privilege]);
  return rows[0].has as boolean;
}

const list = async (role: OrgRole = 'owner') =>
  ok<PgColumnPrivileges[]>(await call('GET', `/column-privileges?table_id=${tableId}`, undefined, role), columnPrivilegesRoutes.listColumnPrivileges);

/** The privileges `grantee` holds on `column`, as `TYPE:levels` (`SELECT:column+table`). */
function held(columns: PgColumnPrivileges[], column: string, grantee: string): string[] {
  const found = columns.find((c) => c.column_name === column);
  if (!found) throw new Error(`no column ${column}`);
  const levels = (privilege: PgColumnPrivilege) => [privilege.column_level && 'column', privilege.table_level && 'table'].filter(Boolean).join('+');
  return found.privileges
    .filter((privilege) => privilege.grantee === grantee)
    .map((privilege) => `${privilege.privilege_type}:${levels(privilege)}${privilege.is_grantable ? ':grantable' : ''}`)
    .sort();
}

describe('list', () => {
  afterEach(async () => {
    await p.sql(`revoke all on table ${qualifiedTable} from authenticated, anon, public`);
  });

  it('lists every column of a table with where each privilege comes from, for a read-only member', async () => {
    await p.sql(`
      grant select on table ${qualifiedTable} to authenticated;
      grant select (id) on table ${qualifiedTable} to authenticated;
      grant update (note) on table ${qualifiedTable} to anon;
      grant references (${quoteIdent(COLUMNS[2]!)}) on table ${qualifiedTable} to public;
    `);
    const columns = await list('read_only');
    expect(columns.map((c) => [c.column_id, c.relation_schema, c.relation_name, c.column_name])).toEqual(
      COLUMNS.map((name, i) => [columnId(i + 1), SCHEMA, TABLE, name]),
    );
    expect(held(columns, 'id', 'authenticated')).toEqual(['SELECT:column+table']);
    expect(held(columns, 'note', 'authenticated')).toEqual(['SELECT:table']);
    expect(held(columns, 'note', 'anon')).toEqual(['UPDATE:column']);
    expect(held(columns, 'id', 'anon')).toEqual([]);
    expect(held(columns, COLUMNS[2]!, 'PUBLIC')).toEqual(['REFERENCES:column']);
    // The owner's privileges on its table (an owner's ACL entry carries no grant option mark).
    expect(held(columns, 'note', admin)).toEqual(['INSERT:table', 'REFERENCES:table', 'SELECT:table', 'UPDATE:table']);
  });

  it('filters by schema as postgres-meta does, and pages by column', async () => {
    const inSchema = ok<PgColumnPrivileges[]>(
      await call('GET', `/column-privileges?included_schemas=${encodeURIComponent(SCHEMA)}`, undefined, 'developer'),
      columnPrivilegesRoutes.listColumnPrivileges,
    );
    expect(inSchema.map((c) => c.column_name)).toEqual(COLUMNS);
    const page = ok<PgColumnPrivileges[]>(
      await call('GET', `/column-privileges?included_schemas=${encodeURIComponent(SCHEMA)}&limit=1&offset=1`),
      columnPrivilegesRoutes.listColumnPrivileges,
    );
    expect(page.map((c) => c.column_name)).toEqual(['note']);
    const everything = ok<PgColumnPrivileges[]>(await call('GET', '/column-privileges'), columnPrivilegesRoutes.listColumnPrivileges);
    expect(everything.some((c) => c.relation_schema === SCHEMA)).toBe(true);
    expect(everything.some((c) => c.relation_schema === 'pg_catalog' || c.relation_schema === 'information_schema')).toBe(false);
    expect(ok<PgColumnPrivileges[]>(await call('GET', '/column-privileges?table_id=4294967295'), columnPrivilegesRoutes.listColumnPrivileges)).toEqual([]);
  });
});

describe('grantees', () => {
  it('offers the API roles first and the project’s own roles, not superusers, pg_ or platform roles', async () => {
    const grantees = ok<ColumnPrivilegeGrantee[]>(
      await call('GET', '/column-privileges/grantees', undefined, 'read_only'),
      columnPrivilegesRoutes.listColumnPrivilegeGrantees,
    );
    const names = grantees.map((g) => g.name);
    expect(names.slice(0, 3)).toEqual(['anon', 'authenticated', 'service_role']);
    expect(names).toContain(ROLE);
    for (const internal of [
      'authenticator',
      'dashboard_user',
      'postgres',
      'pg_read_all_data',
      admin,
      new URL(p.connections.read_only).username,
      new URL(p.connections.storage).username,
    ]) {
      expect(names).not.toContain(internal);
    }
    const { rows } = await p.sql('select oid::int8 as id from pg_roles where rolname = $1', [ROLE]);
    expect(grantees.find((g) => g.name === ROLE)?.id).toBe(Number(rows[0].id));
  });
});

describe('grant and revoke', () => {
  it('grants select on one column to anon and revokes it (owner); the reply is the column as it now is', async () => {
    const granted = ok<PgColumnPrivileges[]>(
      await call('POST', '/column-privileges', [{ column_id: NOTE(), grantee: 'anon', privilege_type: 'SELECT' }]),
      columnPrivilegesRoutes.grantColumnPrivileges,
    );
    expect(granted.map((c) => c.column_name)).toEqual(['note']);
    expect(held(granted, 'note', 'anon')).toEqual(['SELECT:column']);
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(true);
    expect(await hasColumnPrivilege('anon', 'id', 'select')).toBe(false);

    const revoked = ok<PgColumnPrivileges[]>(
      await call('DELETE', '/column-privileges', [{ column_id: NOTE(), grantee: 'anon', privilege_type: 'SELECT' }]),
      columnPrivilegesRoutes.revokeColumnPrivileges,
    );
    expect(held(revoked, 'note', 'anon')).toEqual([]);
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(false);
  });

  it('grants a privilege on every column to a hostile role with the grant option (developer), then ALL of it back', async () => {
    const all = [ID(), NOTE(), HOSTILE_COLUMN()].map((column_id) => ({ column_id, grantee: ROLE, privilege_type: 'UPDATE' as const, is_grantable: true }));
    const granted = ok<PgColumnPrivileges[]>(await call('POST', '/column-privileges', all, 'developer'), columnPrivilegesRoutes.grantColumnPrivileges);
    expect(granted.map((c) => c.column_name)).toEqual(COLUMNS);
    for (const column of COLUMNS) {
      expect(held(granted, column, ROLE)).toEqual(['UPDATE:column:grantable']);
      expect(await hasColumnPrivilege(ROLE, column, 'update with grant option')).toBe(true);
    }
    const revoked = ok<PgColumnPrivileges[]>(
      await call(
        'DELETE',
        '/column-privileges',
        all.map(({ column_id, grantee }) => ({ column_id, grantee, privilege_type: 'ALL' })),
        'developer',
      ),
      columnPrivilegesRoutes.revokeColumnPrivileges,
    );
    for (const column of COLUMNS) {
      expect(held(revoked, column, ROLE)).toEqual([]);
      expect(await hasColumnPrivilege(ROLE, column, 'update')).toBe(false);
    }
  });

  it('takes back the column grant only: a grant on the table still covers the column', async () => {
    await p.sql(`grant select on table ${qualifiedTable} to authenticated; grant select (note) on table ${qualifiedTable} to authenticated`);
    const revoked = ok<PgColumnPrivileges[]>(
      await call('DELETE', '/column-privileges', [{ column_id: NOTE(), grantee: 'authenticated', privilege_type: 'SELECT' }]),
      columnPrivilegesRoutes.revokeColumnPrivileges,
    );
    expect(held(revoked, 'note', 'authenticated')).toEqual(['SELECT:table']);
    expect(await hasColumnPrivilege('authenticated', 'note', 'select')).toBe(true);
    await p.sql(`revoke select on table ${qualifiedTable} from authenticated`);
  });

  it('grants to PUBLIC', async () => {
    const granted = ok<PgColumnPrivileges[]>(
      await call('POST', '/column-privileges', [{ column_id: ID(), grantee: 'PUBLIC', privilege_type: 'REFERENCES' }]),
      columnPrivilegesRoutes.grantColumnPrivileges,
    );
    expect(held(granted, 'id', 'PUBLIC')).toEqual(['REFERENCES:column']);
    await call('DELETE', '/column-privileges', [{ column_id: ID(), grantee: 'public', privilege_type: 'REFERENCES' }]);
    expect(held(await list(), 'id', 'PUBLIC')).toEqual([]);
  });

  it('runs a request in one transaction: an unknown role is a 400 with Postgres’s message and nothing is granted', async () => {
    failed(
      await call('POST', '/column-privileges', [
        { column_id: NOTE(), grantee: 'anon', privilege_type: 'SELECT' },
        { column_id: ID(), grantee: 'no such role', privilege_type: 'SELECT' },
      ]),
      400,
      'role "no such role" does not exist',
    );
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(false);
  });

  it('answers a column id that names no column with 404, and a malformed or empty change with 400', async () => {
    failed(
      await call('POST', '/column-privileges', [{ column_id: columnId(999), grantee: 'anon', privilege_type: 'SELECT' }]),
      404,
      `Column with id ${columnId(999)} not found`,
    );
    failed(await call('DELETE', '/column-privileges', [{ column_id: '0.1', grantee: 'anon', privilege_type: 'SELECT' }]), 404, 'Column with id 0.1 not found');
    failed(await call('POST', '/column-privileges', [{ column_id: NOTE(), grantee: 'anon', privilege_type: 'DELETE' }]), 400);
    failed(await call('POST', '/column-privileges', [{ column_id: 'note', grantee: 'anon', privilege_type: 'SELECT' }]), 400);
    failed(await call('POST', '/column-privileges', []), 400);
    failed(await call('POST', '/column-privileges', [{ column_id: NOTE(), grantee: 'r'.repeat(64), privilege_type: 'SELECT' }]), 400);
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(false);
  });

  it('answers a grant or revoke Postgres only warns about (no grant option, another grantor) with a 400, changing nothing', async () => {
    await p.superuserSql(`
      create table ${quoteIdent(SCHEMA)}.other_owned (a int, b int);
      alter table ${quoteIdent(SCHEMA)}.other_owned owner to ${OTHER};
      grant select on ${quoteIdent(SCHEMA)}.other_owned to ${quoteIdent(admin)};
      grant update (b) on ${quoteIdent(SCHEMA)}.other_owned to authenticated;
    `);
    const otherId = Number((await p.sql(`select $1::regclass::oid::int8 as id`, [`${quoteIdent(SCHEMA)}.other_owned`])).rows[0].id);
    failed(
      await call('POST', '/column-privileges', [{ column_id: `${otherId}.1`, grantee: 'anon', privilege_type: 'SELECT' }]),
      400,
      `SELECT on column "a" of ${SCHEMA}.other_owned was not granted to anon: only the table's owner, or a role holding it with grant option, may grant it`,
    );
    failed(
      await call('DELETE', '/column-privileges', [{ column_id: `${otherId}.2`, grantee: 'authenticated', privilege_type: 'UPDATE' }]),
      400,
      `authenticated still holds UPDATE on column "b" of ${SCHEMA}.other_owned: only the role that granted it, or the table's owner, may revoke it`,
    );
    const after = ok<PgColumnPrivileges[]>(await call('GET', `/column-privileges?table_id=${otherId}`), columnPrivilegesRoutes.listColumnPrivileges);
    expect(held(after, 'a', 'anon')).toEqual([]);
    expect(held(after, 'b', 'authenticated')).toEqual(['UPDATE:column']);
    expect(after.find((c) => c.column_name === 'b')!.privileges.find((priv) => priv.grantee === 'authenticated')!.grantor).toBe(OTHER);
  });

  it('refuses a read-only member’s grant and revoke (403) before anything runs', async () => {
    const change = [{ column_id: NOTE(), grantee: 'anon', privilege_type: 'SELECT' }];
    failed(await call('POST', '/column-privileges', change, 'read_only'), 403);
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(false);
    await p.sql(`grant select (note) on table ${qualifiedTable} to anon`);
    failed(await call('DELETE', '/column-privileges', change, 'read_only'), 403);
    expect(await hasColumnPrivilege('anon', 'note', 'select')).toBe(true);
    await p.sql(`revoke select (note) on table ${qualifiedTable} from anon`);
  });
});
