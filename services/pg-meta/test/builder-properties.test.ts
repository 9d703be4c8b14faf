import fc from 'fast-check';
import type { PolicyCommand, PolicySpec, RoleCreate, RoleUpdate } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { singleExpressionProblem } from '../src/sql/ddl/expression';
import { createPolicyStatement, dropPolicyStatement, updatePolicyStatements } from '../src/sql/policies';
import { createRoleStatements, dropRoleStatement, listSettingElements, updateRoleStatements } from '../src/sql/roles-write';
import { createSchemaStatement, dropSchemaStatement, updateSchemaStatements } from '../src/sql/schemas';
import { hostileName, hostileText } from './ddl-arbitraries';
import { breakout, policyExpression } from './policy-arbitraries';
import { SqlReader } from './sql-reader';
import { configChanges } from './ddl-arbitraries';

/*
 * The policy, role and schema builders against hostile input, 10,000 cases each, without a database
 * (the files policies-sql, roles-sql and schemas-sql run fewer cases on real Postgres). Each case either
 * is refused with a 400 for a reason the test names independently (a name Postgres would cut or that
 * holds NUL, an expression that could leave its parentheses, a rule of the spec), or gives statements a
 * strict reader walks from the first character to the last: every quoted name and literal reads back as
 * exactly what was given, every expression is inserted as written in one pair of parentheses, and only
 * the clauses that were asked for are there.
 */

const RUNS = 10_000;
const TIMEOUT = 120_000;
const COMMANDS: PolicyCommand[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];

/** What Postgres keeps whole as a name, and the builders accept: 1 to 63 bytes, no NUL. */
const okName = (s: string) => s.length > 0 && !s.includes('\u0000') && Buffer.byteLength(s, 'utf8') <= 63;
const blank = (s: string | null | undefined) => s === null || s === undefined || s.trim() === '';
const norm = (s: string | null | undefined) => (blank(s) ? null : s!);

/** Names as they may arrive: good hostile ones, and empty, too long or NUL-holding ones. */
const anyName = fc.oneof(
  { weight: 4, arbitrary: hostileName },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 70 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'é'.repeat(32), 'x'.repeat(64), 'a\u0000b', 'public') },
);

type Tagged = { sql: string | null; kind: 'expression' | 'breakout' | 'text' | 'none' };
/** Expressions as users may write them: sound ones, ones that try to break out, any text, blanks, none. */
const anyExpression: fc.Arbitrary<Tagged> = fc.oneof(
  { weight: 4, arbitrary: policyExpression.map((e): Tagged => ({ sql: e.sql, kind: 'expression' })) },
  { weight: 2, arbitrary: breakout.map((sql): Tagged => ({ sql, kind: 'breakout' })) },
  { weight: 2, arbitrary: fc.oneof(hostileText, fc.string({ unit: 'binary', maxLength: 30 })).map((sql): Tagged => ({ sql, kind: 'text' })) },
  { weight: 1, arbitrary: fc.constantFrom<Tagged>({ sql: null, kind: 'none' }, { sql: '', kind: 'none' }, { sql: ' \n\t', kind: 'none' }) },
);

const usesUsing = (c: PolicyCommand) => c !== 'INSERT';
const usesCheck = (c: PolicyCommand) => c === 'INSERT' || c === 'UPDATE' || c === 'ALL';
const effectiveRoles = (roles: readonly string[]) => {
  const unique = [...new Set(roles)];
  return unique.length === 0 || unique.includes('public') ? ['public'] : unique;
};
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Runs a builder: its statements, or the message of its 400 (any other error fails the test). */
function build<T>(fn: () => T): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
    return { ok: false, message: error.message };
  }
}

/** Reads `"schema"."table"`. */
function readTable(r: SqlReader): { schema: string; table: string } {
  const schema = r.ident();
  r.expect('.');
  return { schema, table: r.ident() };
}

/** Reads the roles after `to `: `public` or quoted names. */
function readRoles(r: SqlReader): string[] {
  const roles: string[] = [];
  do roles.push(r.take('public') ? 'public' : r.ident());
  while (r.take(', '));
  return roles;
}

/** Reads a whole `create policy` and checks it against the spec it was built from. */
function expectCreatePolicy(sql: string, spec: PolicySpec) {
  const r = new SqlReader(sql).expect('create policy ');
  expect(r.ident()).toBe(spec.name);
  r.expect(' on ');
  expect(readTable(r)).toEqual({ schema: spec.schema, table: spec.table });
  r.expect(` as ${spec.action === 'RESTRICTIVE' ? 'restrictive' : 'permissive'} for ${spec.command.toLowerCase()} to `);
  expect(readRoles(r)).toEqual(effectiveRoles(spec.roles));
  const using = usesUsing(spec.command) ? norm(spec.definition) : null;
  const check = usesCheck(spec.command) ? norm(spec.check) : null;
  if (using !== null) r.expect(' using ').parenthesised(using);
  if (check !== null) r.expect(' with check ').parenthesised(check);
  r.end();
}

describe('policy builders: 10,000 hostile cases each', () => {
  it('create: refused for a bad name or an expression that could leave its parentheses, otherwise exactly the policy given', () => {
    fc.assert(
      fc.property(
        fc.record({ name: anyName, schema: anyName, table: anyName, command: fc.constantFrom(...COMMANDS), roles: fc.array(anyName, { maxLength: 4 }) }),
        anyExpression,
        anyExpression,
        (base, definition, check) => {
          const spec: PolicySpec = { ...base, definition: definition.sql, check: check.sql };
          const using = usesUsing(spec.command) ? norm(definition.sql) : null;
          const withCheck = usesCheck(spec.command) ? norm(check.sql) : null;
          // Sound expressions always go in; texts built to break out never do.
          for (const [tagged, used] of [[definition, using], [check, withCheck]] as const) {
            if (used !== null && tagged.kind === 'expression') expect(singleExpressionProblem(used)).toBeNull();
            if (used !== null && tagged.kind === 'breakout') expect(singleExpressionProblem(used)).not.toBeNull();
          }
          const refused =
            ![spec.name, spec.schema, spec.table].every(okName) ||
            effectiveRoles(spec.roles).some((role) => role !== 'public' && !okName(role)) ||
            (using !== null && singleExpressionProblem(using) !== null) ||
            (withCheck !== null && singleExpressionProblem(withCheck) !== null);
          const result = build(() => createPolicyStatement(spec));
          expect(result.ok).toBe(!refused);
          if (result.ok) {
            expectCreatePolicy(result.value, spec);
            const drop = new SqlReader(dropPolicyStatement(spec)).expect('drop policy ');
            expect(drop.ident()).toBe(spec.name);
            drop.expect(' on ');
            expect(readTable(drop)).toEqual({ schema: spec.schema, table: spec.table });
            drop.end();
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  /** A valid existing policy: hostile names and roles, the expressions its command needs. */
  const existingPolicy: fc.Arbitrary<PolicySpec> = fc
    .record({
      name: hostileName,
      schema: hostileName,
      table: hostileName,
      command: fc.constantFrom(...COMMANDS),
      action: fc.constantFrom<PolicySpec['action']>('PERMISSIVE', 'RESTRICTIVE'),
      roles: fc.array(fc.oneof(hostileName, fc.constantFrom('anon', 'authenticated')), { maxLength: 3 }),
      definition: fc.option(policyExpression, { nil: null }),
      check: fc.option(policyExpression, { nil: null }),
    })
    .map(({ definition, check, ...rest }) => {
      const needsUsing = rest.command === 'SELECT' || rest.command === 'DELETE';
      const needsCheck = rest.command === 'INSERT';
      return {
        ...rest,
        definition: usesUsing(rest.command) ? (definition?.sql ?? (needsUsing || (rest.command === 'UPDATE' && !check) ? 'true' : null)) : null,
        check: usesCheck(rest.command) ? (check?.sql ?? (needsCheck ? 'true' : null)) : null,
      };
    });

  it('update: only what changed, in the order that runs; refused exactly when the result would break a rule', () => {
    const update = fc.record(
      {
        name: anyName,
        definition: anyExpression.map((e) => e.sql),
        check: anyExpression.map((e) => e.sql),
        roles: fc.array(fc.oneof(anyName, fc.constantFrom('anon', 'authenticated')), { maxLength: 4 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(existingPolicy, update, (current, change) => {
        const next: PolicySpec = {
          ...current,
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.definition !== undefined ? { definition: norm(change.definition) } : {}),
          ...(change.check !== undefined ? { check: norm(change.check) } : {}),
          ...(change.roles !== undefined ? { roles: change.roles } : {}),
        };
        const { command } = next;
        const removed = (current.definition !== null && next.definition === null) || (current.check !== null && next.check === null);
        const rolesChanged = !sameSet(effectiveRoles(current.roles), effectiveRoles(next.roles));
        const definitionChanged = next.definition !== current.definition;
        const checkChanged = next.check !== current.check;
        const badExpression = (text: string | null, changed: boolean) => text !== null && (changed || removed) && singleExpressionProblem(text) !== null;
        const refused =
          (change.name !== undefined && change.name.trim() === '') ||
          (next.name !== current.name && !okName(next.name)) ||
          ((command === 'SELECT' || command === 'DELETE') && next.definition === null) ||
          (command === 'INSERT' && next.check === null) ||
          (command === 'UPDATE' && next.definition === null && next.check === null) ||
          (next.definition !== null && !usesUsing(command)) ||
          (next.check !== null && !usesCheck(command)) ||
          badExpression(next.definition, definitionChanged) ||
          badExpression(next.check, checkChanged) ||
          ((rolesChanged || removed) && effectiveRoles(next.roles).some((role) => role !== 'public' && !okName(role)));

        const result = build(() => updatePolicyStatements(current, change));
        expect(result.ok).toBe(!refused);
        if (!result.ok) return;
        const { statements } = result.value;
        expect(result.value.next).toEqual(next);

        if (removed) {
          // ALTER POLICY cannot remove an expression: dropped and created again, in one transaction.
          expect(statements).toHaveLength(2);
          expect(statements[0]).toBe(dropPolicyStatement(current));
          expectCreatePolicy(statements[1]!, next);
          return;
        }
        const expected: Array<(r: SqlReader) => void> = [];
        const head = (r: SqlReader) => {
          r.expect('alter policy ');
          expect(r.ident()).toBe(current.name);
          r.expect(' on ');
          expect(readTable(r)).toEqual({ schema: current.schema, table: current.table });
        };
        if (rolesChanged || definitionChanged || checkChanged) {
          expected.push((r) => {
            head(r);
            if (rolesChanged) {
              r.expect(' to ');
              expect(readRoles(r)).toEqual(effectiveRoles(next.roles));
            }
            if (definitionChanged) r.expect(' using ').parenthesised(next.definition!);
            if (checkChanged) r.expect(' with check ').parenthesised(next.check!);
          });
        }
        if (next.name !== current.name) {
          expected.push((r) => {
            head(r);
            r.expect(' rename to ');
            expect(r.ident()).toBe(next.name);
          });
        }
        expect(statements).toHaveLength(expected.length);
        statements.forEach((sql, i) => {
          const r = new SqlReader(sql);
          expected[i]!(r);
          r.end();
        });
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

// ------------------------------------------------------------------ roles

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_$.]*$/;
const LIST_SETTINGS = ['search_path', 'temp_tablespaces', 'local_preload_libraries', 'session_preload_libraries'];
const settingName = fc.oneof(
  fc.constantFrom('search_path', 'SEARCH_PATH', 'statement_timeout', 'app.tenant', 'temp_tablespaces', 'x$y.z'),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_$.]{0,70}$/),
  fc.constantFrom('a b', "x'; --", '1abc', '"q"', '', 'app.tenant;'),
);
const anyText = fc.oneof({ weight: 5, arbitrary: hostileText }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) });
const FLAGS = [
  ['can_create_db', 'createdb', false],
  ['can_create_role', 'createrole', false],
  ['inherit_role', 'inherit', true],
  ['can_login', 'login', false],
  ['is_replication_role', 'replication', false],
  ['can_bypass_rls', 'bypassrls', false],
] as const;
const flags = {
  can_create_db: fc.boolean(),
  can_create_role: fc.boolean(),
  inherit_role: fc.boolean(),
  can_login: fc.boolean(),
  is_replication_role: fc.boolean(),
  can_bypass_rls: fc.boolean(),
  is_superuser: fc.boolean(),
  connection_limit: fc.oneof(fc.integer({ min: -1, max: 100_000 }), fc.constantFrom(-2, -100, 1.5)),
  valid_until: anyText,
};

/** Reads the role options that were given (and, on create, the spec's defaults for the others). */
function readRoleOptions(r: SqlReader, input: Omit<RoleUpdate, 'config'>, create: boolean) {
  if (input.is_superuser === false || create) r.expect(' nosuperuser');
  for (const [key, keyword, byDefault] of FLAGS) {
    const value = input[key] ?? (create ? byDefault : undefined);
    if (value !== undefined) r.expect(` ${value ? keyword : `no${keyword}`}`);
  }
  const limit = input.connection_limit ?? (create ? -1 : undefined);
  if (limit !== undefined) {
    r.expect(' connection limit ');
    expect(r.integer()).toBe(limit);
  }
  if (input.password === null) r.expect(' password null');
  else if (input.password !== undefined) {
    r.expect(' password ');
    expect(r.literal()).toBe(input.password);
  }
  if (input.valid_until !== undefined) {
    r.expect(' valid until ');
    expect(r.literal()).toBe(input.valid_until ?? 'infinity');
  }
}

function expectConfigStatements(statements: string[], role: string, config: Record<string, string | null>) {
  const entries = Object.entries(config);
  expect(statements).toHaveLength(entries.length);
  entries.forEach(([setting, value], i) => {
    const r = new SqlReader(statements[i]!).expect('alter role ');
    expect(r.ident()).toBe(role);
    if (value === null) {
      r.expect(' reset ');
      expect(r.ident()).toBe(setting);
    } else {
      r.expect(' set ');
      expect(r.ident()).toBe(setting);
      r.expect(' to ');
      const values = [r.literal()];
      while (r.take(', ')) values.push(r.literal());
      expect(values).toEqual(LIST_SETTINGS.includes(setting.toLowerCase()) ? listSettingElements(value) : [value]);
    }
    r.end();
  });
}

/** Why the builders must refuse role input (null: they must accept it). */
function roleInputProblem(
  input: Omit<RoleUpdate, 'config'> & Pick<RoleCreate, 'member_of' | 'members' | 'admins'> & { config?: Record<string, string | null> },
  names: string[],
): string | null {
  if (input.is_superuser === true) return 'superuser';
  if (!names.every(okName)) return 'name';
  if (input.connection_limit !== undefined && (!Number.isInteger(input.connection_limit) || input.connection_limit < -1)) return 'limit';
  if (input.password?.includes('\u0000') || input.valid_until?.includes('\u0000')) return 'NUL';
  for (const role of [...(input.member_of ?? []), ...(input.members ?? []), ...(input.admins ?? [])]) if (!okName(role)) return 'member';
  for (const [setting, value] of Object.entries(input.config ?? {})) {
    if (!SETTING_NAME.test(setting) || !okName(setting)) return 'setting';
    if (value?.includes('\u0000')) return 'NUL';
  }
  return null;
}

describe('role builders: 10,000 hostile cases each', () => {
  it("create: the spec's defaults for what is not given, every name and value read back exactly, never superuser", () => {
    const input = fc.record(
      {
        ...flags,
        password: anyText,
        member_of: fc.array(anyName, { maxLength: 3 }),
        members: fc.array(anyName, { maxLength: 3 }),
        admins: fc.array(anyName, { maxLength: 3 }),
        config: fc.dictionary(settingName, anyText, { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(anyName, input, (name, rest) => {
        const role: RoleCreate = { name, ...rest };
        const problem = roleInputProblem(role, [name]);
        const result = build(() => createRoleStatements(role));
        expect(result.ok).toBe(problem === null);
        if (!result.ok) return;
        const [create, ...config] = result.value;
        const r = new SqlReader(create!).expect('create role ');
        expect(r.ident()).toBe(name);
        r.expect(' with');
        readRoleOptions(r, role, true);
        for (const [key, keyword] of [['member_of', ' in role '], ['members', ' role '], ['admins', ' admin ']] as const) {
          const list = role[key] ?? [];
          if (list.length > 0) {
            r.expect(keyword);
            expect(r.identList()).toEqual([...new Set(list)]);
          }
        }
        r.end();
        expectConfigStatements(config, name, role.config ?? {});
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('update and drop: rename first, then only the options and settings given, on the role as renamed', () => {
    const input = fc.record(
      {
        ...flags,
        name: anyName,
        password: fc.option(anyText, { nil: null }),
        valid_until: fc.option(anyText, { nil: null }),
        settings: fc.dictionary(settingName, fc.option(anyText, { nil: null }), { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(hostileName, input, (current, { settings, ...given }) => {
        const update: RoleUpdate = { ...given, ...(settings ? { config: configChanges(settings) } : {}) };
        const renamed = update.name !== undefined && update.name !== current;
        const problem = roleInputProblem({ ...given, config: settings }, renamed ? [update.name!] : []);
        const result = build(() => updateRoleStatements(current, update));
        expect(result.ok).toBe(problem === null);
        if (!result.ok) return;
        const statements = [...result.value];
        const name = renamed ? update.name! : current;
        if (renamed) {
          const r = new SqlReader(statements.shift()!).expect('alter role ');
          expect(r.ident()).toBe(current);
          r.expect(' rename to ');
          expect(r.ident()).toBe(name);
          r.end();
        }
        const hasOptions =
          update.is_superuser === false ||
          FLAGS.some(([key]) => update[key] !== undefined) ||
          [update.connection_limit, update.password, update.valid_until].some((v) => v !== undefined);
        if (hasOptions) {
          const r = new SqlReader(statements.shift()!).expect('alter role ');
          expect(r.ident()).toBe(name);
          r.expect(' with');
          readRoleOptions(r, update, false);
          r.end();
        }
        expectConfigStatements(statements, name, settings ?? {});

        const drop = new SqlReader(dropRoleStatement(current)).expect('drop role ');
        expect(drop.ident()).toBe(current);
        drop.end();
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

// ------------------------------------------------------------------ schemas

const SYSTEM = ['information_schema', 'pg_catalog', 'pg_toast'];
const schemaName = fc.oneof({ weight: 6, arbitrary: anyName }, { weight: 1, arbitrary: fc.constantFrom(...SYSTEM, 'pg_temp_3', 'pg_x', 'PG_CATALOG', 'pg') });

describe('schema builders: 10,000 hostile cases', () => {
  it('create, rename, change owner and drop: names read back exactly; system schemas are never changed or dropped', () => {
    fc.assert(
      fc.property(
        schemaName,
        fc.option(anyName, { nil: undefined }),
        fc.record({ name: schemaName, owner: anyName }, { requiredKeys: [] }),
        fc.boolean(),
        (name, owner, update, cascade) => {
          const system = SYSTEM.includes(name) || name.startsWith('pg_');

          const created = build(() => createSchemaStatement({ name, ...(owner !== undefined ? { owner } : {}) }));
          expect(created.ok).toBe(okName(name) && (owner === undefined || okName(owner)));
          if (created.ok) {
            const r = new SqlReader(created.value).expect('create schema ');
            expect(r.ident()).toBe(name);
            if (owner !== undefined) {
              r.expect(' authorization ');
              expect(r.ident()).toBe(owner);
            }
            r.end();
          }

          const renamed = update.name !== undefined && update.name !== name;
          const updated = build(() => updateSchemaStatements(name, update));
          const names = [...(renamed ? [name, update.name!] : []), ...(update.owner !== undefined ? [renamed ? update.name! : name, update.owner] : [])];
          expect(updated.ok).toBe(!system && names.every(okName));
          if (updated.ok) {
            const statements = [...updated.value];
            if (renamed) {
              const r = new SqlReader(statements.shift()!).expect('alter schema ');
              expect(r.ident()).toBe(name);
              r.expect(' rename to ');
              expect(r.ident()).toBe(update.name);
              r.end();
            }
            if (update.owner !== undefined) {
              const r = new SqlReader(statements.shift()!).expect('alter schema ');
              expect(r.ident()).toBe(renamed ? update.name : name);
              r.expect(' owner to ');
              expect(r.ident()).toBe(update.owner);
              r.end();
            }
            expect(statements).toEqual([]);
          }

          const dropped = build(() => dropSchemaStatement(name, cascade));
          expect(dropped.ok).toBe(!system && okName(name));
          if (dropped.ok) {
            const r = new SqlReader(dropped.value).expect('drop schema ');
            expect(r.ident()).toBe(name);
            r.expect(cascade ? ' cascade' : ' restrict').end();
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
