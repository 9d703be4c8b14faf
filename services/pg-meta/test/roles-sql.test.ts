import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import type { RoleCreate, RoleUpdate } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { ident } from '../src/sql/ddl/names';
import {
  createRoleStatements,
  dropRoleStatement,
  listSettingElements,
  roleConfigOf,
  roleConfigStatements,
  SUPERUSER_NOT_GRANTABLE,
  updateRoleStatements,
} from '../src/sql/roles-write';
import { configChanges, hostileName, hostileText } from './ddl-arbitraries';
import { setupProject, type Project, statementClient } from './helpers';

/*
 * The role builders: exact statements for the spec's defaults, then properties on real Postgres with
 * hostile names, passwords and setting values. Roles belong to the whole server, so every generated
 * role lives in a transaction that is rolled back; the catalog must show exactly what was asked.
 */

const PROPERTY_TIMEOUT = 300_000;

describe('role SQL (unit)', () => {
  it('creates with the spec defaults: inherit, connection limit -1, every other flag off, never superuser', () => {
    expect(createRoleStatements({ name: 'reader' })).toEqual([
      'create role "reader" with nosuperuser nocreatedb nocreaterole inherit nologin noreplication nobypassrls connection limit -1',
    ]);
  });

  it('quotes names, passwords, expiry and setting values; adds memberships and settings', () => {
    expect(
      createRoleStatements({
        name: `it's "x"`,
        password: `p'w\\"d`,
        can_login: true,
        inherit_role: false,
        connection_limit: 5,
        valid_until: '2030-01-01',
        member_of: ['a"b', 'a"b'],
        members: ['m'],
        admins: ['adm'],
        config: { 'app.setting': `v'; drop role x; --` },
      }),
    ).toEqual([
      `create role "it's ""x""" with nosuperuser nocreatedb nocreaterole noinherit login noreplication nobypassrls connection limit 5 ` +
        `password 'p''w\\"d' valid until '2030-01-01' in role "a""b" role "m" admin "adm"`,
      `alter role "it's ""x""" set "app.setting" to 'v''; drop role x; --'`,
    ]);
  });

  it('never grants superuser', () => {
    for (const build of [() => createRoleStatements({ name: 'x', is_superuser: true }), () => updateRoleStatements('x', { is_superuser: true })]) {
      expect(build).toThrow(HttpError);
      expect(build).toThrow(SUPERUSER_NOT_GRANTABLE);
    }
    expect(createRoleStatements({ name: 'x', is_superuser: false })[0]).toContain('nosuperuser');
  });

  it('updates only what is given: rename first, then options and settings of the renamed role', () => {
    expect(updateRoleStatements('old', { name: 'new', can_login: true, password: null, valid_until: null, config: configChanges({ 'app.a': null, 'app.b': 'x' }) })).toEqual([
      'alter role "old" rename to "new"',
      `alter role "new" with login password null valid until 'infinity'`,
      'alter role "new" reset "app.a"',
      `alter role "new" set "app.b" to 'x'`,
    ]);
    expect(updateRoleStatements('same', { name: 'same' })).toEqual([]);
    expect(updateRoleStatements('r', { connection_limit: -1, is_superuser: false })).toEqual(['alter role "r" with nosuperuser connection limit -1']);
    expect(dropRoleStatement('a"b')).toBe('drop role "a""b"');
  });

  it('gives each element of a list setting (search_path) its own literal, as Postgres reads them', () => {
    expect(roleConfigStatements('r', { search_path: 'app, "my ""x"" schema",public' })).toEqual([
      `alter role "r" set "search_path" to 'app', 'my "x" schema', 'public'`,
    ]);
    expect(listSettingElements('')).toEqual(['']);
  });

  it('refuses setting names that are not names, and names Postgres would cut', () => {
    expect(() => roleConfigStatements('r', { 'a b': 'x' })).toThrow(HttpError);
    expect(() => roleConfigStatements('r', { "x'; --": 'x' })).toThrow(HttpError);
    expect(() => createRoleStatements({ name: 'é'.repeat(32) })).toThrow(/longer than 63 bytes/);
  });
});

// ------------------------------------------------------------------ properties on real Postgres

let p: Project;
let client: pg.Client;
let db: Awaited<ReturnType<typeof statementClient>>;
const suffix = randomBytes(4).toString('hex');
/** Existing roles the generated ones join, are joined by, or are administered by (dropped after the file). */
const ROLES = [`rl ${suffix} "a"`, `rl_${suffix}_'b'`, `rl_${suffix}_表`];
let existing = new Set<string>();

beforeAll(async () => {
  p = await setupProject();
  // The builders' every flag (replication, createdb...) is checked, which only a superuser may set.
  db = await statementClient(p.serverUrl);
  client = db.client;
  for (const role of ROLES) await client.query(`create role ${ident(role)} nologin`);
  existing = new Set((await client.query<{ rolname: string }>('select rolname from pg_roles')).rows.map((r) => r.rolname));
});

afterAll(async () => {
  for (const role of ROLES) await client.query(`drop role if exists ${ident(role)}`);
  await client.end();
  await p.close();
});

const run = (text: string, values?: unknown[]) => db.run(text, values);

const rolledBack = <T>(work: () => Promise<T>) => db.rolledBack(work);

/** Names Postgres lets a new role have: not reserved, not `pg_`, not taken (the set is read before the run). */
const roleName = hostileName.filter((n) => !n.startsWith('pg_') && n !== 'public' && n !== 'none' && !existing.has(n));
const flag = fc.option(fc.boolean(), { nil: undefined });
const SETTINGS = ['app.a', 'app.b_c', 'dash.setting'];
const VALID_UNTIL = ['infinity', '2030-01-02 03:04:05+00', '1999-12-31 00:00:00+00'];

interface RoleState {
  name: string;
  flags: Record<'inherit_role' | 'can_login' | 'can_create_db' | 'can_create_role' | 'is_replication_role' | 'can_bypass_rls', boolean>;
  connection_limit: number;
  hasPassword: boolean;
  valid_until: string | null;
  config: Record<string, string>;
}

async function roleState(name: string): Promise<RoleState | undefined> {
  const { rows } = await run(
    `select r.rolname, r.rolsuper, r.rolinherit, r.rolcanlogin, r.rolcreatedb, r.rolcreaterole, r.rolreplication, r.rolbypassrls,
       r.rolconnlimit, a.rolpassword is not null as has_password, to_json(r.rolvaliduntil) #>> '{}' as valid_until,
       coalesce(r.rolconfig, '{}') as config
     from pg_roles r join pg_authid a on a.oid = r.oid where r.rolname = $1`,
    [name],
  );
  const row = rows[0];
  if (!row) return undefined;
  expect(row.rolsuper).toBe(false);
  return {
    name: row.rolname,
    flags: {
      inherit_role: row.rolinherit,
      can_login: row.rolcanlogin,
      can_create_db: row.rolcreatedb,
      can_create_role: row.rolcreaterole,
      is_replication_role: row.rolreplication,
      can_bypass_rls: row.rolbypassrls,
    },
    connection_limit: row.rolconnlimit,
    hasPassword: row.has_password,
    valid_until: row.valid_until,
    config: Object.fromEntries((row.config as string[]).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)])),
  };
}

/** A timestamp as Postgres prints it in JSON (for comparing expiries). */
async function asStored(valid_until: string): Promise<string> {
  const { rows } = await run(`select to_json($1::timestamptz) #>> '{}' as t`, [valid_until]);
  return rows[0].t;
}

async function memberships(name: string): Promise<string[]> {
  const { rows } = await run(
    `select r.rolname as role, m.rolname as member, am.admin_option
     from pg_auth_members am join pg_roles r on r.oid = am.roleid join pg_roles m on m.oid = am.member
     where r.rolname = $1 or m.rolname = $1`,
    [name],
  );
  return rows.map((r) => JSON.stringify([r.role, r.member, r.admin_option])).sort();
}

const FLAG_KEYS = ['inherit_role', 'can_login', 'can_create_db', 'can_create_role', 'is_replication_role', 'can_bypass_rls'] as const;

const roleCreate: fc.Arbitrary<RoleCreate> = fc.record(
  {
    name: roleName,
    password: hostileText,
    inherit_role: flag,
    can_login: flag,
    can_create_db: flag,
    can_create_role: flag,
    is_replication_role: flag,
    can_bypass_rls: flag,
    is_superuser: fc.constant(false),
    connection_limit: fc.integer({ min: -1, max: 1000 }),
    valid_until: fc.constantFrom(...VALID_UNTIL),
    // Disjoint groups: a role cannot be both member and admin of the new role in one statement.
    member_of: fc.subarray([ROLES[0]!]),
    members: fc.subarray([ROLES[1]!]),
    admins: fc.subarray([ROLES[2]!]),
    config: fc.dictionary(fc.constantFrom(...SETTINGS), hostileText, { maxKeys: 3 }),
  },
  { requiredKeys: ['name'] },
);

const roleUpdate: fc.Arbitrary<RoleUpdate> = fc.record(
  {
    name: roleName,
    password: fc.option(hostileText, { nil: null }),
    inherit_role: flag,
    can_login: flag,
    can_create_db: flag,
    can_create_role: flag,
    is_replication_role: flag,
    can_bypass_rls: flag,
    connection_limit: fc.integer({ min: -1, max: 1000 }),
    valid_until: fc.option(fc.constantFrom(...VALID_UNTIL), { nil: null }),
    config: fc.dictionary(fc.constantFrom(...SETTINGS), fc.option(hostileText, { nil: null }), { maxKeys: 3 }).map(configChanges),
  },
  { requiredKeys: [] },
);

/** What the catalog must show after create (the spec's defaults for what is not given). */
async function expectedAfterCreate(input: RoleCreate): Promise<RoleState> {
  const defaults = { inherit_role: true, can_login: false, can_create_db: false, can_create_role: false, is_replication_role: false, can_bypass_rls: false };
  return {
    name: input.name,
    flags: Object.fromEntries(FLAG_KEYS.map((k) => [k, input[k] ?? defaults[k]])) as RoleState['flags'],
    connection_limit: input.connection_limit ?? -1,
    // Postgres clears an empty password (with a notice).
    hasPassword: input.password !== undefined && input.password !== '',
    valid_until: input.valid_until !== undefined ? await asStored(input.valid_until) : null,
    config: { ...(input.config ?? {}) },
  };
}

async function expectedAfterUpdate(before: RoleState, update: RoleUpdate): Promise<RoleState> {
  const config = { ...before.config };
  for (const [key, value] of Object.entries(roleConfigOf(update.config ?? []))) {
    if (value === null) delete config[key];
    else config[key] = value;
  }
  return {
    name: update.name ?? before.name,
    flags: Object.fromEntries(FLAG_KEYS.map((k) => [k, update[k] ?? before.flags[k]])) as RoleState['flags'],
    connection_limit: update.connection_limit ?? before.connection_limit,
    hasPassword: update.password === undefined ? before.hasPassword : update.password !== null && update.password !== '',
    valid_until: update.valid_until === undefined ? before.valid_until : await asStored(update.valid_until ?? 'infinity'),
    config,
  };
}

describe('role SQL on real Postgres (hostile names, passwords and settings)', () => {
  it('create, update and drop do exactly what they say', async () => {
    await fc.assert(
      fc.asyncProperty(roleCreate, roleUpdate, async (input, update) =>
        rolledBack(async () => {
          for (const statement of createRoleStatements(input)) await run(statement);
          const created = await roleState(input.name);
          expect(created).toEqual(await expectedAfterCreate(input));
          expect(await memberships(input.name)).toEqual(
            [
              ...(input.member_of ?? []).map((r) => [r, input.name, false]),
              ...(input.members ?? []).map((m) => [input.name, m, false]),
              ...(input.admins ?? []).map((a) => [input.name, a, true]),
            ]
              .map((x) => JSON.stringify(x))
              .sort(),
          );

          for (const statement of updateRoleStatements(input.name, update)) await run(statement);
          const updated = await roleState(update.name ?? input.name);
          expect(updated).toEqual(await expectedAfterUpdate(created!, update));
          if (update.name !== undefined && update.name !== input.name) expect(await roleState(input.name)).toBeUndefined();

          await run(dropRoleStatement(updated!.name));
          expect(await roleState(updated!.name)).toBeUndefined();
        }),
      ),
      { numRuns: 2500 },
    );
  }, PROPERTY_TIMEOUT);

  it('sets real settings that Postgres checks', async () => {
    await rolledBack(async () => {
      const config = { statement_timeout: '5s', search_path: 'app, "my schema", public' };
      for (const statement of createRoleStatements({ name: `rl_${suffix}_settings`, config })) await run(statement);
      // Postgres prints the list back as it was written: the value round-trips.
      expect((await roleState(`rl_${suffix}_settings`))!.config).toEqual(config);
    });
    await rolledBack(async () => {
      const [create, setting] = createRoleStatements({ name: `rl_${suffix}_bad`, config: { statement_timeout: 'soon' } });
      await run(create!);
      await expect(run(setting!)).rejects.toThrow(/invalid value for parameter "statement_timeout"/);
    });
  });
});
