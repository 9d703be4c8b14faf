import fc from 'fast-check';
import { parseSync } from 'libpg-query';
import { HttpError } from '@dash/service-kit';
import type { PgColumnPrivilege, PgColumnPrivileges } from '@dash/contracts';
import { grantColumnPrivilegeStatements, revokeColumnPrivilegeStatements, unappliedChange, type ColumnPrivilegeChange } from '../src/sql/column-privileges';
import { hostileName } from './ddl-arbitraries';

/*
 * The column privilege builders (pure): exact statements, grouping into as few statements as the
 * changes allow, and, for hostile names, Postgres's own parser reading back exactly the table, columns
 * and grantee that were asked for.
 */

const docs = { schema: 'public', name: 'docs' };
const change = (over: Partial<ColumnPrivilegeChange> = {}): ColumnPrivilegeChange => ({
  table: docs,
  column: 'title',
  grantee: 'anon',
  privilege: 'SELECT',
  ...over,
});

describe('grant statements', () => {
  it('grants one privilege on one column to one role, names quoted', () => {
    expect(grantColumnPrivilegeStatements([change()])).toEqual(['grant select ("title") on table "public"."docs" to "anon"']);
  });

  it('adds the grant option, and takes ALL and every privilege word', () => {
    expect(grantColumnPrivilegeStatements([change({ grantable: true })])).toEqual([
      'grant select ("title") on table "public"."docs" to "anon" with grant option',
    ]);
    expect(
      grantColumnPrivilegeStatements(
        ['ALL', 'INSERT', 'UPDATE', 'REFERENCES'].map((privilege) => change({ privilege: privilege as ColumnPrivilegeChange['privilege'] })),
      ),
    ).toEqual([
      'grant all ("title") on table "public"."docs" to "anon"',
      'grant insert ("title") on table "public"."docs" to "anon"',
      'grant update ("title") on table "public"."docs" to "anon"',
      'grant references ("title") on table "public"."docs" to "anon"',
    ]);
  });

  it('names the columns of one table, role and privilege in one statement, each once, in the order given', () => {
    const statements = grantColumnPrivilegeStatements([
      change({ column: 'body' }),
      change({ column: 'title' }),
      change({ column: 'body' }),
      change({ column: 'title', grantee: 'authenticated' }),
      change({ column: 'title', grantable: true }),
      change({ column: 'id', table: { schema: 'app', name: 'docs' } }),
    ]);
    expect(statements).toEqual([
      'grant select ("body", "title") on table "public"."docs" to "anon"',
      'grant select ("title") on table "public"."docs" to "authenticated"',
      'grant select ("title") on table "public"."docs" to "anon" with grant option',
      'grant select ("id") on table "app"."docs" to "anon"',
    ]);
  });

  it('quotes hostile names; PUBLIC is the keyword, any other spelling a quoted role', () => {
    const hostile = change({ table: { schema: 'my schema', name: `t"; drop table x; --` }, column: `ünï'名 🐘`, grantee: 'Rôle "x"' });
    expect(grantColumnPrivilegeStatements([hostile])).toEqual([`grant select ("ünï'名 🐘") on table "my schema"."t""; drop table x; --" to "Rôle ""x"""`]);
    expect(grantColumnPrivilegeStatements([change({ grantee: 'PUBLIC' }), change({ grantee: 'public', column: 'body' })])).toEqual([
      'grant select ("title") on table "public"."docs" to public',
      'grant select ("body") on table "public"."docs" to public',
    ]);
    expect(grantColumnPrivilegeStatements([change({ grantee: 'Public' })])).toEqual(['grant select ("title") on table "public"."docs" to "Public"']);
  });

  it('refuses a grantee Postgres would cut short with a 400', () => {
    const build = () => grantColumnPrivilegeStatements([change({ grantee: 'r'.repeat(64) })]);
    expect(build).toThrow(HttpError);
    expect(build).toThrow(`The name "${'r'.repeat(64)}" is longer than 63 bytes`);
  });
});

describe('revoke statements', () => {
  it('revokes per column, grouped like grants, the grant option not part of the statement', () => {
    expect(revokeColumnPrivilegeStatements([change(), change({ column: 'body', grantable: true }), change({ privilege: 'ALL', grantee: 'PUBLIC' })])).toEqual([
      'revoke select ("title", "body") on table "public"."docs" from "anon"',
      'revoke all ("title") on table "public"."docs" from public',
    ]);
  });
});

describe('changes Postgres let pass without doing them', () => {
  const entry = (over: Partial<PgColumnPrivilege>): PgColumnPrivilege => ({
    grantor: 'owner',
    grantee: 'anon',
    privilege_type: 'SELECT',
    is_grantable: false,
    column_level: true,
    table_level: false,
    ...over,
  });
  const column = (privileges: PgColumnPrivilege[]): PgColumnPrivileges[] => [
    { column_id: '10.2', relation_schema: 'public', relation_name: 'docs', column_name: 'title', privileges },
  ];
  const select = { column_id: '10.2', grantee: 'anon', privilege_type: 'SELECT' as const };

  it('finds a grant that left no column grant, a table grant not counting', () => {
    expect(unappliedChange([select], column([entry({})]), true)).toBeNull();
    expect(unappliedChange([select], column([entry({ column_level: false, table_level: true })]), true)).toBe(
      `SELECT on column "title" of public.docs was not granted to anon: only the table's owner, or a role holding it with grant option, may grant it`,
    );
    expect(unappliedChange([{ ...select, privilege_type: 'ALL' }], column([entry({})]), true)).toMatch(/^INSERT on column "title"/);
    expect(unappliedChange([{ ...select, grantee: 'public' }], column([entry({ grantee: 'PUBLIC' })]), true)).toBeNull();
  });

  it("finds a revoke that left a column grant (another grantor's), a table grant not counting", () => {
    expect(unappliedChange([select], column([entry({ column_level: false, table_level: true })]), false)).toBeNull();
    expect(unappliedChange([select], column([entry({ grantor: 'someone' })]), false)).toBe(
      'anon still holds SELECT on column "title" of public.docs: only the role that granted it, or the table\'s owner, may revoke it',
    );
    expect(unappliedChange([{ ...select, privilege_type: 'ALL' }], column([entry({ privilege_type: 'UPDATE' })]), false)).toMatch(/^anon still holds UPDATE/);
  });
});

/** The one statement of `text` as Postgres's parser reads it. */
function grantOf(text: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's parse tree is untyped JSON
  const { stmts } = parseSync(text) as { stmts: Array<{ stmt: Record<string, any> }> };
  expect(stmts).toHaveLength(1);
  const grant = stmts[0]!.stmt.GrantStmt;
  expect(grant).toBeDefined();
  return {
    isGrant: grant.is_grant === true,
    table: { schema: grant.objects[0].RangeVar.schemaname, name: grant.objects[0].RangeVar.relname },
    privilege: grant.privileges[0].AccessPriv.priv_name ?? 'all',
    columns: grant.privileges[0].AccessPriv.cols.map((col: { String: { sval: string } }) => col.String.sval),
    grantees: grant.grantees.map((spec: { RoleSpec: { roletype: string; rolename?: string } }) =>
      spec.RoleSpec.roletype === 'ROLESPEC_PUBLIC' ? 'PUBLIC' : spec.RoleSpec.rolename,
    ),
    grantOption: grant.grant_option === true,
  };
}

describe('hostile names, read back by the Postgres parser', () => {
  it('keeps table, columns and grantee exactly, in one statement', () => {
    fc.assert(
      fc.property(
        hostileName,
        hostileName,
        fc.uniqueArray(hostileName, { minLength: 1, maxLength: 4 }),
        hostileName.filter((name) => name !== 'PUBLIC' && name !== 'public'),
        fc.constantFrom('ALL', 'SELECT', 'INSERT', 'UPDATE', 'REFERENCES'),
        fc.boolean(),
        (schema, table, columns, grantee, privilege, grantable) => {
          const changes = columns.map((column) => ({ table: { schema, name: table }, column, grantee, privilege, grantable }) as ColumnPrivilegeChange);
          const [grant] = grantColumnPrivilegeStatements(changes);
          const [revoke] = revokeColumnPrivilegeStatements(changes);
          const expected = { table: { schema, name: table }, privilege: privilege.toLowerCase(), columns, grantees: [grantee] };
          expect(grantOf(grant!)).toEqual({ ...expected, isGrant: true, grantOption: grantable });
          expect(grantOf(revoke!)).toEqual({ ...expected, isGrant: false, grantOption: false });
        },
      ),
      { numRuns: 300 },
    );
  });
});
