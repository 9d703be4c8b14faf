import fc from 'fast-check';
import { HttpError } from '@dash/service-kit';
import { addColumnStatements, columnCreateOf, columnDefinition, columnPatchOf, primaryKeyStatements, updateColumnStatements, type ColumnState } from '../src/sql/ddl/columns';
import { relationDefinitionSql, type RelationDefinition } from '../src/sql/ddl/definition';
import { expressionProblem, sqlExpression } from '../src/sql/ddl/expression';
import { ident, literal } from '../src/sql/ddl/names';
import { createTableStatements, dropTableSql, updateTableStatements } from '../src/sql/ddl/tables';
import { parseColumnType } from '../src/sql/ddl/types';
import { hostileName, hostileText, unquoteIdent, unquoteLiteral } from './ddl-arbitraries';

/** The 400 a builder throws, or null when it does not throw. */
function refusal(build: () => unknown): string | null {
  try {
    build();
    return null;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) return error.message;
    throw error;
  }
}

const table = { schema: 'app', name: 'items' };
const state = (over: Partial<ColumnState> = {}): ColumnState => ({
  table,
  name: 'price',
  format: 'int4',
  hasDefault: false,
  isIdentity: false,
  primaryKey: null,
  uniqueConstraints: [],
  uniqueIndexes: [],
  checkConstraints: [],
  foreignKeys: [],
  ...over,
});

describe('names and literals', () => {
  it('quotes identifiers and refuses empty, NUL and over-long names with a 400', () => {
    expect(ident('a"b')).toBe('"a""b"');
    expect(ident('x'.repeat(63))).toBe(`"${'x'.repeat(63)}"`);
    expect(refusal(() => ident('é'.repeat(32)))).toBe(`The name "${'é'.repeat(32)}" is longer than 63 bytes`);
    expect(refusal(() => ident(''))).toBe('A name cannot be empty');
    expect(refusal(() => ident('a\u0000b'))).toBe('Text cannot contain the NUL character');
    expect(literal(`it's \\ "x"`)).toBe(`'it''s \\ "x"'`);
    expect(refusal(() => literal('\u0000'))).toBe('Text cannot contain the NUL character');
  });

  it('round-trips any name of at most 63 bytes and any literal (property)', () => {
    fc.assert(fc.property(hostileName, (name) => unquoteIdent(ident(name)) === name), { numRuns: 2000 });
    fc.assert(fc.property(hostileText, (text) => unquoteLiteral(literal(text)) === text), { numRuns: 2000 });
  });
});

describe('type names', () => {
  it('maps built-in names and SQL aliases to a fixed spelling', () => {
    expect(parseColumnType('int8').sql).toBe('int8');
    expect(parseColumnType('BIGINT').sql).toBe('int8');
    expect(parseColumnType('double   precision').sql).toBe('float8');
    expect(parseColumnType('character varying(20)').sql).toBe('varchar(20)');
    expect(parseColumnType('numeric( 10 , 2 )').sql).toBe('numeric(10,2)');
    expect(parseColumnType('text[]')).toEqual({ sql: 'text[]', builtin: 'text', isArray: true });
    expect(parseColumnType('timestamp with time zone[][]').sql).toBe('timestamptz[][]');
  });

  it('quotes user types, with an optional schema, exactly as written', () => {
    expect(parseColumnType('my_enum')).toEqual({ sql: '"my_enum"', builtin: null, isArray: false });
    expect(parseColumnType('Mood').sql).toBe('"Mood"');
    expect(parseColumnType('app.mood[]').sql).toBe('"app"."mood"[]');
    expect(parseColumnType('"my schema"."a.b""c"').sql).toBe('"my schema"."a.b""c"');
    expect(parseColumnType('"text"').sql).toBe('"text"');
    expect(parseColumnType('int4; drop table x').sql).toBe('"int4; drop table x"');
  });

  it('refuses what is not a type name', () => {
    for (const bad of ['', '[]', 'a.b.c', 'int4)', '"open', 'a(b)', 'x(1,2,3)', '.x', 'a..b', 'numeric(1', '"a"b']) {
      expect(refusal(() => parseColumnType(bad))).toBe(`"${bad}" is not a valid type name`);
    }
  });

  it('turns any quoted user type name back into the same identifiers (property)', () => {
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    fc.assert(
      fc.property(hostileName, hostileName, fc.integer({ min: 0, max: 2 }), (schema, name, dims) => {
        const { sql, isArray } = parseColumnType(`${quote(schema)}.${quote(name)}${'[]'.repeat(dims)}`);
        return sql === `${ident(schema)}.${ident(name)}${'[]'.repeat(dims)}` && isArray === dims > 0;
      }),
      { numRuns: 1500 },
    );
  });
});

describe('expressions', () => {
  it('accepts one expression and says why anything else is refused', () => {
    expect(expressionProblem(`now()`)).toBeNull();
    expect(expressionProblem(`(length(name) > 0) and name <> ')'`)).toBeNull();
    expect(expressionProblem(`E'\\')' || $x$ ) ; $x$ || "a)b" /* ) /* nested */ ; */`)).toBeNull();
    expect(expressionProblem('a$b$ + 1')).toBeNull();
    expect(expressionProblem('1); drop table x; select (1')).toBe('a parenthesis closes that was not opened');
    expect(expressionProblem('1), drop column x')).toBe('a parenthesis closes that was not opened');
    expect(expressionProblem('1; drop table x')).toBe('it contains a semicolon');
    expect(expressionProblem('(1')).toBe('a parenthesis is not closed');
    expect(expressionProblem(`'open`)).toBe('a string is not closed');
    expect(expressionProblem(`E'\\'`)).toBe('a string is not closed');
    expect(expressionProblem('"open')).toBe('a quoted name is not closed');
    expect(expressionProblem('$t$ open')).toBe('a dollar-quoted string is not closed');
    expect(expressionProblem('/* /* */ still open')).toBe('a comment is not closed');
    expect(expressionProblem('1 -- trailing comment')).toBe('it ends inside a comment');
    expect(expressionProblem('x\u0000')).toBe('it contains the NUL character');
    expect(sqlExpression('now()', 'default value')).toBe('(now())');
    expect(refusal(() => sqlExpression('  ', 'check'))).toBe('The check is not a single SQL expression: it is empty');
    expect(refusal(() => sqlExpression('1);', 'default value'))).toBe(
      'The default value is not a single SQL expression: a parenthesis closes that was not opened',
    );
  });

  it('never lets an accepted text close the parentheses it is put in (property)', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        if (expressionProblem(text) !== null) return true;
        // Wrapped, it is balanced; one more closing parenthesis after it is always seen as unbalanced.
        return expressionProblem(`(${text})`) === null && expressionProblem(`(${text}))`) !== null;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('table statements', () => {
  it('creates a table with its columns, primary key, comments and row-level security', () => {
    expect(
      createTableStatements({
        schema: 'app',
        name: 'it"ems',
        comment: `The "items"'`,
        rls_enabled: true,
        columns: [
          { name: 'id', type: 'int8', isIdentity: true, isPrimaryKey: true },
          { name: 'name', type: 'text', defaultValue: `it's`, isNullable: false, isUnique: true, comment: 'Name' },
          { name: 'at', type: 'timestamptz', defaultValue: 'now()', defaultValueFormat: 'expression', check: `at > '2000-01-01'` },
          { name: 'owner', type: 'uuid', foreignKey: { schema: 'auth', table: 'users', column: 'id', deletion_action: 'CASCADE' } },
        ],
      }),
    ).toEqual([
      [
        'create table "app"."it""ems" (',
        '  "id" int8 generated by default as identity,',
        `  "name" text default 'it''s' not null unique,`,
        `  "at" timestamptz default (now()) check (at > '2000-01-01'),`,
        '  "owner" uuid references "auth"."users" ("id") on delete cascade on update no action,',
        '  primary key ("id")',
        ')',
      ].join('\n'),
      `comment on table "app"."it""ems" is 'The "items"'''`,
      `comment on column "app"."it""ems"."name" is 'Name'`,
      'alter table "app"."it""ems" enable row level security',
    ]);
    expect(createTableStatements({ schema: 's', name: 't', columns: [] })).toEqual(['create table "s"."t" ()']);
  });

  it('updates comment and row-level security under the current name, then renames and moves', () => {
    expect(updateTableStatements(table, { comment: null, rls_enabled: false, rls_forced: true, name: 'things', schema: 'other' })).toEqual([
      'comment on table "app"."items" is null',
      'alter table "app"."items" disable row level security',
      'alter table "app"."items" force row level security',
      'alter table "app"."items" rename to "things"',
      'alter table "app"."things" set schema "other"',
    ]);
    expect(updateTableStatements(table, { name: 'items', schema: 'app' })).toEqual([]);
    expect(dropTableSql(table, true)).toBe('drop table "app"."items" cascade');
  });

  it("takes postgres-meta's table bodies: no columns, public by default, replica identity, primary keys", () => {
    expect(createTableStatements({ name: 'notes' })).toEqual(['create table "public"."notes" ()']);
    expect(updateTableStatements(table, { replica_identity: 'FULL' })).toEqual(['alter table "app"."items" replica identity full']);
    expect(updateTableStatements(table, { replica_identity: 'INDEX', replica_identity_index: 'items"pkey' })).toEqual([
      'alter table "app"."items" replica identity using index "items""pkey"',
    ]);
    expect(refusal(() => updateTableStatements(table, { replica_identity: 'INDEX' }))).toMatch(/replica_identity_index/);
    expect(updateTableStatements(table, { primary_keys: [{ name: 'a' }, { name: 'b' }] }, { name: 'items_pkey', columns: ['id'] })).toEqual([
      'alter table "app"."items" drop constraint "items_pkey"',
      'alter table "app"."items" add constraint "items_pkey" primary key ("a", "b")',
    ]);
    expect(updateTableStatements(table, { primary_keys: [] }, { name: 'items_pkey', columns: ['id'] })).toEqual(['alter table "app"."items" drop constraint "items_pkey"']);
    expect(dropTableSql(table, false)).toBe('drop table "app"."items"');
  });
});

describe('column statements', () => {
  it('refuses identity on anything but integer types, and identity with a default', () => {
    for (const type of ['int2', 'int4', 'int8', 'smallint', 'integer', 'bigint']) {
      expect(columnDefinition({ name: 'id', type, isIdentity: true })).toBe(`"id" ${parseColumnType(type).sql} generated by default as identity`);
    }
    for (const type of ['text', 'int8[]', 'numeric', 'uuid', 'my_int']) {
      expect(refusal(() => columnDefinition({ name: 'id', type, isIdentity: true }))).toBe(
        `Identity applies only to integer types (int2, int4, int8), not ${type}`,
      );
    }
    expect(refusal(() => columnDefinition({ name: 'id', type: 'int8', isIdentity: true, defaultValue: '1' }))).toBe(
      'An identity column cannot have a default value',
    );
  });

  it('quotes literal defaults and wraps expression defaults', () => {
    expect(columnDefinition({ name: 'a', type: 'text', defaultValue: `'); drop table x; --`, defaultValueFormat: 'literal' })).toBe(
      `"a" text default '''); drop table x; --'`,
    );
    expect(columnDefinition({ name: 'a', type: 'text', defaultValue: '' })).toBe(`"a" text default ''`);
    expect(columnDefinition({ name: 'a', type: 'uuid', defaultValue: 'gen_random_uuid()', defaultValueFormat: 'expression' })).toBe(
      '"a" uuid default (gen_random_uuid())',
    );
    expect(columnDefinition({ name: 'a', type: 'text', defaultValue: '  ', defaultValueFormat: 'expression', check: ' ' })).toBe('"a" text');
    expect(refusal(() => columnDefinition({ name: 'a', type: 'int4', defaultValue: '1), b int default (2', defaultValueFormat: 'expression' }))).toMatch(
      /^The default value is not a single SQL expression/,
    );
    expect(refusal(() => columnDefinition({ name: 'a', type: 'int4', check: 'a > 0) or (true' }))).toBe(
      'The check is not a single SQL expression: a parenthesis closes that was not opened',
    );
  });

  it('adds a column, its comment, and joins or starts the primary key', () => {
    expect(addColumnStatements(table, { name: 'code', type: 'text', comment: 'c', isPrimaryKey: true }, { name: 'items_pk', columns: ['id'] })).toEqual([
      'alter table "app"."items" add column "code" text',
      `comment on column "app"."items"."code" is 'c'`,
      'alter table "app"."items" drop constraint "items_pk"',
      'alter table "app"."items" add constraint "items_pk" primary key ("id", "code")',
    ]);
    expect(addColumnStatements(table, { name: 'id', type: 'int8', isPrimaryKey: true }, null)).toEqual([
      'alter table "app"."items" add column "id" int8',
      'alter table "app"."items" add primary key ("id")',
    ]);
    expect(primaryKeyStatements(table, { name: 'pk', columns: ['a'] }, [])).toEqual(['alter table "app"."items" drop constraint "pk"']);
  });

  it('updates only the fields sent, in order, under the new name', () => {
    expect(
      updateColumnStatements(state({ hasDefault: true, primaryKey: { name: 'pk', columns: ['id', 'price'] }, checkConstraints: ['c1'], foreignKeys: ['f1'] }), {
        name: 'cost',
        type: 'int8',
        isIdentity: true,
        isNullable: false,
        isUnique: true,
        isPrimaryKey: false,
        check: 'cost > 0',
        foreignKey: null,
        comment: 'Cost',
      }),
    ).toEqual([
      'alter table "app"."items" rename column "price" to "cost"',
      'alter table "app"."items" drop constraint "c1"',
      'alter table "app"."items" drop constraint "f1"',
      'alter table "app"."items" alter column "cost" set data type int8 using "cost"::int8',
      'alter table "app"."items" alter column "cost" drop default',
      'alter table "app"."items" alter column "cost" set not null',
      'alter table "app"."items" alter column "cost" add generated by default as identity',
      'alter table "app"."items" alter column "cost" set not null',
      'alter table "app"."items" add unique ("cost")',
      'alter table "app"."items" drop constraint "pk"',
      'alter table "app"."items" add constraint "pk" primary key ("id")',
      'alter table "app"."items" add check (cost > 0)',
      `comment on column "app"."items"."cost" is 'Cost'`,
    ]);
  });

  it('drops or sets defaults, identity, uniqueness and foreign keys', () => {
    expect(updateColumnStatements(state({ hasDefault: true }), { defaultValue: null })).toEqual(['alter table "app"."items" alter column "price" drop default']);
    expect(updateColumnStatements(state(), { defaultValue: '5', defaultValueFormat: 'literal' })).toEqual([
      `alter table "app"."items" alter column "price" set default '5'`,
    ]);
    expect(updateColumnStatements(state({ isIdentity: true }), { isIdentity: false })).toEqual([
      'alter table "app"."items" alter column "price" drop identity if exists',
    ]);
    expect(
      updateColumnStatements(state({ uniqueConstraints: ['u1'], uniqueIndexes: [{ schema: 'app', name: 'ix' }] }), { isUnique: false }),
    ).toEqual(['alter table "app"."items" drop constraint "u1"', 'drop index "app"."ix"']);
    expect(updateColumnStatements(state({ uniqueConstraints: ['u1'] }), { isUnique: true })).toEqual([]);
    expect(updateColumnStatements(state({ primaryKey: { name: 'pk', columns: ['price'] } }), { isPrimaryKey: true })).toEqual([]);
    expect(
      updateColumnStatements(state({ foreignKeys: ['old'] }), { foreignKey: { schema: 'a', table: 'b', column: 'c', update_action: 'SET NULL' } }),
    ).toEqual([
      'alter table "app"."items" drop constraint "old"',
      'alter table "app"."items" add foreign key ("price") references "a"."b" ("c") on delete no action on update set null',
    ]);
    expect(updateColumnStatements(state({ checkConstraints: ['c'] }), { check: null })).toEqual(['alter table "app"."items" drop constraint "c"']);
  });

  it("takes postgres-meta's column bodies: snake_case, identity generation, drop_default", () => {
    const { tableId, column } = columnCreateOf({ table_id: 7, name: 'id', type: 'int8', is_identity: true, identity_generation: 'ALWAYS', is_primary_key: true });
    expect(tableId).toBe(7);
    expect(columnDefinition(column)).toBe('"id" int8 generated always as identity');
    expect(columnDefinition(columnCreateOf({ table_id: 7, name: 'n', type: 'int4', default_value: 5 }).column)).toBe(`"n" int4 default '5'`);
    expect(columnDefinition(columnCreateOf({ tableId: 7, name: 'n', type: 'int4', isIdentity: true }).column)).toBe('"n" int4 generated by default as identity');
    expect(columnPatchOf({ name: 'x', comment: 'c' })).toEqual({ name: 'x', comment: 'c' });
    expect(columnPatchOf({ drop_default: true, is_nullable: false, identity_generation: 'BY DEFAULT' })).toEqual({
      dropDefault: true,
      isNullable: false,
      identityGeneration: 'BY DEFAULT',
    });
    expect(updateColumnStatements(state({ hasDefault: true }), { dropDefault: true })).toEqual(['alter table "app"."items" alter column "price" drop default']);
    expect(updateColumnStatements(state(), { dropDefault: true })).toEqual([]);
    expect(updateColumnStatements(state({ isIdentity: true }), { identityGeneration: 'ALWAYS' })).toEqual([
      'alter table "app"."items" alter column "price" set generated always',
    ]);
    expect(updateColumnStatements(state({ isIdentity: true }), { comment: 'c' })).toEqual([`comment on column "app"."items"."price" is 'c'`]);
    expect(updateColumnStatements(state({ format: 'int8' }), { isIdentity: true, identityGeneration: 'ALWAYS' })).toEqual([
      'alter table "app"."items" alter column "price" set not null',
      'alter table "app"."items" alter column "price" add generated always as identity',
    ]);
  });

  it('checks identity against the column type, old or new', () => {
    expect(refusal(() => updateColumnStatements(state({ format: 'text' }), { isIdentity: true }))).toBe(
      'Identity applies only to integer types (int2, int4, int8), not text',
    );
    expect(refusal(() => updateColumnStatements(state({ isIdentity: true }), { type: 'numeric' }))).toBe(
      'Identity applies only to integer types (int2, int4, int8), not numeric',
    );
    expect(refusal(() => updateColumnStatements(state({ isIdentity: true }), { defaultValue: '1' }))).toBe('An identity column cannot have a default value');
    expect(refusal(() => updateColumnStatements(state({ format: 'int8' }), { isIdentity: true }))).toBeNull();
  });
});

describe('definition', () => {
  const base: RelationDefinition = {
    schema: 'app',
    name: 'it"ems',
    kind: 'r',
    comment: `it's`,
    rls_enabled: true,
    rls_forced: false,
    view_query: null,
    partition_key: null,
    partition_of: null,
    partition_bound: null,
    foreign_server: null,
    columns: [
      { name: 'id', type: 'bigint', default: null, generated: null, identity: 'by default', not_null: true, collation: null, comment: null },
      { name: 'Name', type: 'text', default: `'x'::text`, generated: null, identity: null, not_null: false, collation: { schema: 'pg_catalog', name: 'C' }, comment: 'The name' },
    ],
    constraints: [{ name: 'items_pkey', definition: 'PRIMARY KEY (id)' }],
    indexes: ['CREATE INDEX i ON app.items USING btree ("Name")'],
    policies: [{ name: 'read', permissive: true, command: 'r', roles: [null, 'anon'], using: 'true', check: null }],
  };

  it('writes the table, indexes, row-level security, policies and comments', () => {
    expect(relationDefinitionSql(base)).toBe(
      [
        'create table "app"."it""ems" (',
        '  "id" bigint generated by default as identity not null,',
        `  "Name" text collate "pg_catalog"."C" default 'x'::text,`,
        '  constraint "items_pkey" PRIMARY KEY (id)',
        ');',
        '',
        'CREATE INDEX i ON app.items USING btree ("Name");',
        '',
        'alter table "app"."it""ems" enable row level security;',
        '',
        'create policy "read" on "app"."it""ems"\n  as permissive\n  for select\n  to public, "anon"\n  using (true);',
        '',
        `comment on table "app"."it""ems" is 'it''s';`,
        `comment on column "app"."it""ems"."Name" is 'The name';`,
      ].join('\n'),
    );
  });

  it('writes views from their query and partitions from their parent', () => {
    const view = { ...base, kind: 'v', view_query: ' SELECT 1 AS one;', columns: [], constraints: [], indexes: [], policies: [], rls_enabled: false };
    expect(relationDefinitionSql(view)).toBe(`create view "app"."it""ems" as\n SELECT 1 AS one;\n\ncomment on view "app"."it""ems" is 'it''s';`);
    const partition = { ...view, kind: 'r', comment: null, view_query: null, partition_of: { schema: 'app', name: 'm' }, partition_bound: `FOR VALUES IN (1)` };
    expect(relationDefinitionSql(partition)).toBe(`create table "app"."it""ems" partition of "app"."m" FOR VALUES IN (1);`);
  });
});

describe('dollar quotes of any length', () => {
  // A tag longer than any fixed look-ahead window must still be read as a tag, or its body would be
  // scanned as SQL and could close the parentheses around the expression.
  const tag = `$${'T'.repeat(130)}$`;

  it('keeps a long-tagged body opaque in expressions', () => {
    expect(expressionProblem(`${tag}'${tag}) with check (true) --'`)).toBe('a parenthesis closes that was not opened');
    expect(expressionProblem(`${tag} ) ; ${tag} = 'x'`)).toBeNull();
    expect(expressionProblem(`${tag} never closed`)).toBe('a dollar-quoted string is not closed');
  });
});
