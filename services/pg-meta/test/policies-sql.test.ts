import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { Messages, policySpecOfCreate, usesCheck, usesUsing, type PolicyCommand, type PolicySpec } from '@dash/contracts';
import { HttpError, quoteLiteral } from '@dash/service-kit';
import { ident } from '../src/sql/ddl/names';
import {
  createPolicyStatement,
  dropPolicyStatement,
  updatePolicyStatements,
  validatePolicy,
} from '../src/sql/policies';
import { hostileName, hostileText } from './ddl-arbitraries';
import { setupProject, type Project, statementClient } from './helpers';
import { breakout, policyExpression, type Expr } from './policy-arbitraries';

/*
 * The policy builders: the spec's rules as unit tests, then properties on real Postgres with hostile
 * names, roles and expressions. Every statement runs as the routes run it (alone, extended protocol)
 * in a transaction that is rolled back, and pg_policy must then hold exactly the policy described.
 */

const PROPERTY_TIMEOUT = 300_000;
const COMMANDS: PolicyCommand[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];
const POLCMD: Record<PolicyCommand, string> = { SELECT: 'r', INSERT: 'a', UPDATE: 'w', DELETE: 'd', ALL: '*' };

const base: PolicySpec = { name: 'p', schema: 'public', table: 't', command: 'SELECT', definition: 'true', check: null, roles: [] };
const clientError = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error('expected a 400');
};

describe('policy SQL (unit)', () => {
  it('creates PERMISSIVE policies with quoted names, `to public` when no role is chosen', () => {
    expect(createPolicyStatement({ ...base, name: 'Read "all"', schema: 'my schema', table: "it's" })).toBe(
      `create policy "Read ""all""" on "my schema"."it's" as permissive for select to public using (true)`,
    );
    // postgres-meta's body: RESTRICTIVE on request; without a command, ALL.
    expect(createPolicyStatement(policySpecOfCreate({ name: 'p', table: 't', action: 'RESTRICTIVE', definition: 'true' }))).toBe(
      `create policy "p" on "public"."t" as restrictive for all to public using (true)`,
    );
    expect(createPolicyStatement({ ...base, roles: ['anon', 'anon', 'We"ird'] })).toContain(' to "anon", "We""ird" using');
    // Postgres keeps only public when it comes with other roles: so does the statement.
    expect(createPolicyStatement({ ...base, roles: ['anon', 'public'] })).toContain(' to public using');
  });

  it('puts USING only on SELECT, UPDATE, DELETE and ALL and WITH CHECK only on INSERT, UPDATE and ALL', () => {
    const both = (command: PolicyCommand) => createPolicyStatement({ ...base, command, definition: 'a = 1', check: 'b = 2' });
    expect(both('SELECT')).toMatch(/ using \(a = 1\)$/);
    expect(both('DELETE')).toMatch(/ using \(a = 1\)$/);
    expect(both('INSERT')).toMatch(/for insert to public with check \(b = 2\)$/);
    expect(both('UPDATE')).toMatch(/ using \(a = 1\) with check \(b = 2\)$/);
    expect(both('ALL')).toMatch(/for all to public using \(a = 1\) with check \(b = 2\)$/);
  });

  it("applies the spec's validation messages", () => {
    expect(clientError(() => validatePolicy({ ...base, name: '  ' }))).toBe(Messages.policyNameRequired);
    expect(clientError(() => validatePolicy({ ...base, command: 'SELECT', definition: null }))).toBe(Messages.policyUsingRequired);
    expect(clientError(() => validatePolicy({ ...base, command: 'DELETE', definition: ' ' }))).toBe(Messages.policyUsingRequired);
    expect(clientError(() => validatePolicy({ ...base, command: 'INSERT', definition: null, check: null }))).toBe(Messages.policyCheckRequired);
    expect(clientError(() => validatePolicy({ ...base, command: 'UPDATE', definition: null, check: '' }))).toBe(Messages.policyUsingOrCheckRequired);
    expect(clientError(() => validatePolicy({ ...base, command: 'INSERT', definition: 'true', check: 'true' }))).toMatch(
      /USING expression applies to SELECT, UPDATE, DELETE and ALL/,
    );
    expect(clientError(() => validatePolicy({ ...base, command: 'SELECT', check: 'true' }))).toMatch(/WITH CHECK expression applies to INSERT, UPDATE and ALL/);
    for (const command of ['UPDATE', 'ALL'] as const) expect(() => validatePolicy({ ...base, command, definition: null, check: 'true' })).not.toThrow();
    expect(() => validatePolicy({ ...base, command: 'ALL', definition: null, check: null })).not.toThrow();
  });

  it('refuses names Postgres would cut and expressions that leave their parentheses', () => {
    expect(clientError(() => createPolicyStatement({ ...base, name: 'é'.repeat(32) }))).toMatch(/longer than 63 bytes/);
    expect(() => createPolicyStatement({ ...base, name: 'é'.repeat(31) + 'x' })).not.toThrow();
    for (const text of ['true) with check (true', 'true); drop table t; --', "x = 'open", '(true', 'true /* open', 'x = $a$ open', 'true; select 1']) {
      expect(clientError(() => createPolicyStatement({ ...base, definition: text }))).toMatch(/^The USING expression is not a single SQL expression/);
    }
    // Quotes, comments and dollar quotes may hold parentheses and semicolons.
    expect(createPolicyStatement({ ...base, definition: `a = ')' or b = $x$;($x$ or "c)" = E'\\')' /* ) */` })).toContain(
      `using (a = ')' or b = $x$;($x$ or "c)" = E'\\')' /* ) */)`,
    );
  });

  it('updates only what changed: roles and expressions in one ALTER, then the rename', () => {
    const current: PolicySpec = { ...base, command: 'UPDATE', definition: 'a = 1', check: 'b = 2', roles: ['anon'] };
    expect(updatePolicyStatements(current, { roles: ['authenticated'] }).statements).toEqual([`alter policy "p" on "public"."t" to "authenticated"`]);
    expect(updatePolicyStatements(current, { check: 'b = 3' }).statements).toEqual([`alter policy "p" on "public"."t" with check (b = 3)`]);
    expect(updatePolicyStatements(current, { name: 'q', definition: 'a = 1', roles: ['anon'] }).statements).toEqual([
      `alter policy "p" on "public"."t" rename to "q"`,
    ]);
    expect(updatePolicyStatements(current, { name: 'p', roles: ['anon'] }).statements).toEqual([]);
    expect(updatePolicyStatements(current, { roles: [] }).statements).toEqual([`alter policy "p" on "public"."t" to public`]);
    expect(updatePolicyStatements({ ...current, roles: [] }, { roles: ['public'] }).statements).toEqual([]);
  });

  it('recreates the policy when an expression is removed (ALTER POLICY cannot remove one)', () => {
    const current: PolicySpec = { ...base, command: 'UPDATE', definition: 'a = 1', check: 'b = 2', roles: ['anon'] };
    const { statements, next } = updatePolicyStatements(current, { check: null, name: 'q' });
    expect(statements).toEqual([`drop policy "p" on "public"."t"`, `create policy "q" on "public"."t" as permissive for update to "anon" using (a = 1)`]);
    expect(next).toEqual({ ...current, name: 'q', check: null });
    expect(clientError(() => updatePolicyStatements(current, { check: null, definition: '' }))).toBe(Messages.policyUsingOrCheckRequired);
    // A RESTRICTIVE policy made elsewhere stays RESTRICTIVE.
    const restrictive = updatePolicyStatements({ ...current, action: 'RESTRICTIVE' }, { check: null });
    expect(restrictive.statements[1]).toMatch(/^create policy "p" on "public"."t" as restrictive for update/);
  });
});

// ------------------------------------------------------------------ properties on real Postgres

let p: Project;
let client: pg.Client;
let db: Awaited<ReturnType<typeof statementClient>>;
const suffix = randomBytes(4).toString('hex');
/** Cluster-wide roles with hostile names, made for this file and dropped after it. */
const ROLES = [`pol ${suffix} "quoted"`, `pol_${suffix}_'; drop role x; --`, `pol_${suffix}_表😀`];
const SCHEMA = `s"'; --表 ${suffix}`;
const TABLE = `t'"\\ ;(`;

beforeAll(async () => {
  p = await setupProject();
  db = await statementClient(p.url);
  client = db.client;
  for (const role of ROLES) await client.query(`create role ${ident(role)} nologin`);
  await client.query(`create schema ${ident(SCHEMA)}`);
  await client.query(`create table ${ident(SCHEMA)}.${ident(TABLE)} (id int primary key, owner uuid, email text, "we""ird col" text)`);
});

afterAll(async () => {
  await client.query(`drop schema ${ident(SCHEMA)} cascade`);
  for (const role of ROLES) await client.query(`drop role if exists ${ident(role)}`);
  await client.end();
  await p.close();
});

const run = (text: string, values?: unknown[]) => db.run(text, values);

const rolledBack = <T>(work: () => Promise<T>) => db.rolledBack(work);

interface PolicyRow {
  oid: number;
  name: string;
  cmd: string;
  permissive: boolean;
  roles: string[];
  qual: string | null;
  with_check: string | null;
}

async function policiesOfTable(): Promise<PolicyRow[]> {
  const { rows } = await run(
    `select pol.oid::int8 as oid, pol.polname as name, pol.polcmd::text as cmd, pol.polpermissive as permissive,
       array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(pol.polroles) r order by 1)::text[] as roles,
       pg_get_expr(pol.polqual, pol.polrelid) as qual, pg_get_expr(pol.polwithcheck, pol.polrelid) as with_check
     from pg_policy pol where pol.polrelid = $1::regclass order by pol.polname`,
    [`${ident(SCHEMA)}.${ident(TABLE)}`],
  );
  return rows as PolicyRow[];
}

/** Counts of what a statement could create or drop besides the policy. */
async function catalogCounts(): Promise<string> {
  const { rows } = await run(
    `select (select count(*) from pg_class) as classes, (select count(*) from pg_namespace) as schemas,
       (select count(*) from pg_roles) as roles, (select count(*) from pg_proc) as functions, (select count(*) from pg_policy) as policies`,
  );
  return JSON.stringify(rows[0]);
}

const roleSet = fc.subarray([...ROLES, 'anon', 'authenticated', 'public'], { minLength: 0, maxLength: 4 });
const command = fc.constantFrom(...COMMANDS);
const optionalExpr = fc.option(policyExpression, { nil: null });
const expectedRoles = (roles: readonly string[]) => (roles.length === 0 || roles.includes('public') ? ['public'] : [...new Set(roles)]);

/** The policy in pg_policy is exactly the one described: name, command, roles, PERMISSIVE, expressions. */
function expectPolicy(row: PolicyRow | undefined, spec: PolicySpec, definition: Expr | null, check: Expr | null) {
  expect(row).toBeDefined();
  expect(row!.name).toBe(spec.name);
  expect(row!.cmd).toBe(POLCMD[spec.command]);
  expect(row!.permissive).toBe(spec.action !== 'RESTRICTIVE');
  // Postgres orders role names by its collation: compared as sets.
  expect(new Set(row!.roles)).toEqual(new Set(expectedRoles(spec.roles)));
  const using = spec.command !== 'INSERT' ? definition : null;
  const withCheck = ['INSERT', 'UPDATE', 'ALL'].includes(spec.command) ? check : null;
  expect(row!.qual === null).toBe(using === null);
  expect(row!.with_check === null).toBe(withCheck === null);
  // Every string constant of the expressions is in the stored policy, quoted as Postgres prints it.
  for (const value of using?.literals ?? []) expect(row!.qual).toContain(quoteLiteral(value));
  for (const value of withCheck?.literals ?? []) expect(row!.with_check).toContain(quoteLiteral(value));
}

describe('policy SQL on real Postgres (hostile names, roles and expressions)', () => {
  it('create: the statement makes exactly the policy it describes', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileName,
        command,
        roleSet,
        policyExpression,
        policyExpression,
        fc.constantFrom('both', 'using', 'check'),
        async (name, cmd, roles, using, withCheck, keep) => {
          // The expressions the command takes (UPDATE and ALL with one or both); the refusals are the unit tests' part.
          const definition = usesUsing(cmd) && (cmd === 'SELECT' || cmd === 'DELETE' || keep !== 'check') ? using : null;
          const check = usesCheck(cmd) && (cmd === 'INSERT' || keep !== 'using') ? withCheck : null;
          const spec: PolicySpec = {
            name,
            schema: SCHEMA,
            table: TABLE,
            command: cmd,
            roles,
            definition: definition?.sql ?? null,
            check: check?.sql ?? null,
          };
          if (name.trim() === '') {
            expect(clientError(() => validatePolicy(spec))).toBe(Messages.policyNameRequired);
            return;
          }
          validatePolicy(spec);
          await rolledBack(async () => {
            const before = await catalogCounts();
            await run(createPolicyStatement(spec));
            const [row, ...others] = await policiesOfTable();
            expect(others).toEqual([]);
            expectPolicy(row, spec, definition, check);
            expect(JSON.parse(await catalogCounts())).toEqual({ ...JSON.parse(before), policies: JSON.parse(before).policies + 1 });
            await run(dropPolicyStatement(spec));
            expect(await policiesOfTable()).toEqual([]);
          });
        },
      ),
      { numRuns: 4000 },
    );
  }, PROPERTY_TIMEOUT);

  it('any text as an expression: refused with a 400, refused by Postgres, or exactly one policy and nothing else', async () => {
    const anyText = fc.oneof(hostileText, breakout, policyExpression.map((e) => e.sql));
    await fc.assert(
      fc.asyncProperty(hostileName, anyText, async (name, text) => {
        const spec: PolicySpec = { name, schema: SCHEMA, table: TABLE, command: 'ALL', definition: text, check: text, roles: [] };
        let statement: string;
        try {
          statement = createPolicyStatement(spec);
        } catch (error) {
          expect((error as HttpError).statusCode).toBe(400);
          return;
        }
        await rolledBack(async () => {
          const before = JSON.parse(await catalogCounts());
          await client.query('savepoint attempt');
          try {
            await run(statement);
          } catch (error) {
            expect(error).toBeInstanceOf(pg.DatabaseError);
            await client.query('rollback to savepoint attempt');
            expect(JSON.parse(await catalogCounts())).toEqual(before);
            return;
          }
          const rows = await policiesOfTable();
          expect(rows.map((r) => [r.name, r.cmd, r.roles])).toEqual([[name, '*', ['public']]]);
          expect(JSON.parse(await catalogCounts())).toEqual({ ...before, policies: before.policies + 1 });
        });
      }),
      { numRuns: 1500 },
    );
  }, PROPERTY_TIMEOUT);

  it('texts that try to leave the expression are refused before they reach Postgres', () => {
    fc.assert(
      fc.property(breakout, (text) => {
        expect(clientError(() => createPolicyStatement({ ...base, definition: text }))).toMatch(/not a single SQL expression/);
      }),
      { numRuns: 1000 },
    );
  });

  it('update: only what changed changes, in statements that run in one transaction', async () => {
    const update = fc.record(
      { name: hostileName, definition: optionalExpr, check: optionalExpr, roles: roleSet },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: hostileName,
          cmd: fc.constantFrom<PolicyCommand>('UPDATE', 'ALL'),
          action: fc.constantFrom<PolicySpec['action']>('PERMISSIVE', 'RESTRICTIVE'),
        }),
        roleSet,
        policyExpression,
        policyExpression,
        update,
        async ({ name, cmd, action }, roles, definition, check, change) => {
          // Policies made elsewhere may be RESTRICTIVE: an update keeps that, even when it recreates the policy.
          const current: PolicySpec = {
            name,
            action,
            schema: SCHEMA,
            table: TABLE,
            command: cmd,
            roles,
            definition: definition.sql,
            check: check.sql,
          };
          const changes = {
            ...(change.name !== undefined ? { name: change.name } : {}),
            ...(change.definition !== undefined ? { definition: change.definition?.sql ?? null } : {}),
            ...(change.check !== undefined ? { check: change.check?.sql ?? null } : {}),
            ...(change.roles !== undefined ? { roles: change.roles } : {}),
          };
          await rolledBack(async () => {
            await run(createPolicyStatement(current));
            const [before] = await policiesOfTable();
            let result: ReturnType<typeof updatePolicyStatements>;
            try {
              result = updatePolicyStatements(current, changes);
            } catch (error) {
              // Refused only by the spec's rules: a blank new name, or an UPDATE policy left with no expression.
              if (changes.name !== undefined && changes.name.trim() === '') expect((error as HttpError).message).toBe(Messages.policyNameRequired);
              else {
                expect((error as HttpError).message).toBe(Messages.policyUsingOrCheckRequired);
                expect([cmd, changes.definition ?? null]).toEqual(['UPDATE', null]);
              }
              return;
            }
            for (const statement of result.statements) await run(statement);
            const [after, ...others] = await policiesOfTable();
            expect(others).toEqual([]);
            const newDefinition = change.definition === undefined ? definition : change.definition;
            const newCheck = change.check === undefined ? check : change.check;
            expectPolicy(after, result.next, newDefinition, newCheck);
            // What was not changed is exactly as it was.
            if (change.definition === undefined) expect(after!.qual).toBe(before!.qual);
            if (change.check === undefined) expect(after!.with_check).toBe(before!.with_check);
            if (change.roles === undefined) expect(after!.roles).toEqual(before!.roles);
            if (change.name === undefined) expect(after!.name).toBe(before!.name);
            // The policy keeps its id unless an expression was removed.
            const removed = change.definition === null || change.check === null;
            if (!removed) expect(after!.oid).toBe(before!.oid);
          });
        },
      ),
      { numRuns: 1500 },
    );
  }, PROPERTY_TIMEOUT);
});
