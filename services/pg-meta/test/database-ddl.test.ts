import fc from 'fast-check';
import { HttpError } from '@dash/service-kit';
import type { FunctionInput } from '@dash/contracts';
import { createEnumStatements, dropTypeStatement, updateEnumStatements } from '../src/sql/ddl/enums';
import { createExtensionStatement, dropExtensionStatement } from '../src/sql/ddl/extensions';
import { createFunctionStatement, dollarQuote, functionSignature, returnTypeSql } from '../src/sql/ddl/functions';
import { createIndexStatement, dropIndexStatement } from '../src/sql/ddl/indexes';
import { createPublicationStatement, updatePublicationStatements } from '../src/sql/ddl/publications';
import { createTriggerStatement, dropTriggerStatement, updateTriggerStatements } from '../src/sql/ddl/triggers';

/*
 * The database area's SQL builders, pure. Hostile names end up as quoted identifiers, hostile text as
 * literals or a dollar-quoted body; the statements run on real Postgres in database-routes.test.ts.
 */

const HOSTILE = `x"; drop table x; --`;
const Q_HOSTILE = `"x""; drop table x; --"`;

function refusal(build: () => unknown): string | null {
  try {
    build();
    return null;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) return error.message;
    throw error;
  }
}

const fn = (over: Partial<FunctionInput> = {}): FunctionInput => ({
  name: 'add',
  schema: 'public',
  args: [
    { name: 'a', type: 'int4' },
    { name: 'b', type: 'integer' },
  ],
  return_type: 'int4',
  language: 'sql',
  definition: 'select a + b',
  behavior: 'IMMUTABLE',
  security_definer: false,
  ...over,
});

describe('dollar quoting', () => {
  it('picks a tag the body does not contain, nor ends with', () => {
    expect(dollarQuote('select 1')).toBe('$body$select 1$body$');
    expect(dollarQuote('a $body$ b')).toBe('$body1$a $body$ b$body1$');
    // "...$body" + "$body$" would close early at the body's own "$body$".
    expect(dollarQuote('x $body')).toBe('$body1$x $body$body1$');
    expect(refusal(() => dollarQuote('a\u0000'))).toBe('Text cannot contain the NUL character');
  });

  it('the first closing tag after the opening one is the last one (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('$', 'b', 'o', 'd', 'y', '1', '2', ' ', "'") , maxLength: 40 });
    fc.assert(
      fc.property(text, (body) => {
        const quoted = dollarQuote(body);
        const tag = /^\$[a-z0-9]*\$/.exec(quoted)![0];
        return quoted.indexOf(tag, tag.length) === quoted.length - tag.length && quoted.slice(tag.length, -tag.length) === body;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('functions', () => {
  it('builds create function with quoted names, mapped types and fixed keywords', () => {
    expect(createFunctionStatement(fn())).toBe(
      ['create function "public"."add"(in "a" int4, in "b" int4)', 'returns int4', 'language "sql"', 'immutable', 'security invoker', 'as $body$select a + b$body$'].join('\n'),
    );
  });

  it('quotes hostile names and keeps a hostile body inside its literal', () => {
    const sql = createFunctionStatement(
      fn({ name: HOSTILE, schema: `sché'ma`, args: [{ name: HOSTILE, type: 'text[]', mode: 'inout' }], definition: "select $1 || '$body$'; drop table x; --", security_definer: true, config_params: { search_path: 'public, "my schema"' } }),
      true,
    );
    expect(sql).toContain(`create or replace function "sché'ma".${Q_HOSTILE}(inout ${Q_HOSTILE} text[])`);
    expect(sql).toContain(`set "search_path" to 'public', 'my schema'`);
    expect(sql).toContain("as $body1$select $1 || '$body$'; drop table x; --$body1$");
    expect(sql).toContain('security definer');
  });

  it('reads return types: setof, void, trigger, user types', () => {
    expect(returnTypeSql('setof text')).toBe('setof text');
    expect(returnTypeSql('void')).toBe('"void"');
    expect(returnTypeSql('trigger')).toBe('"trigger"');
    expect(returnTypeSql('app.mood[]')).toBe('"app"."mood"[]');
    // Anything else can only name a type: one quoted identifier.
    expect(returnTypeSql('int4; drop table x')).toBe('"int4; drop table x"');
    expect(refusal(() => returnTypeSql('int4) returns text as $$ x'))).toBe('"int4) returns text as $$ x" is not a valid type name');
  });

  it('names the function by its input argument types', () => {
    expect(functionSignature(fn({ args: [{ name: 'a', type: 'bigint' }, { name: 'r', type: 'text', mode: 'out' }] }))).toBe('"public"."add"(int8)');
  });

  it('refuses a setting that is not a setting name', () => {
    expect(refusal(() => createFunctionStatement(fn({ config_params: { 'a b': 'x' } })))).toBe('"a b" is not a setting name');
  });
});

describe('triggers', () => {
  const table = { schema: 'app', name: HOSTILE };
  it('builds create trigger from fixed keywords, quoted names and literal arguments', () => {
    expect(
      createTriggerStatement(table, {
        name: HOSTILE,
        table_id: 1,
        function_schema: 'app',
        function_name: 'audit',
        activation: 'INSTEAD OF',
        events: ['INSERT', 'UPDATE'],
        orientation: 'ROW',
        function_args: ["it's", 'ü'],
      }),
    ).toBe(`create trigger ${Q_HOSTILE} instead of insert or update on "app".${Q_HOSTILE} for each row execute function "app"."audit"('it''s', 'ü')`);
  });

  it('enables or disables, then renames', () => {
    expect(updateTriggerStatements({ name: 't', table }, { enabled_mode: 'DISABLED', name: 'u' })).toEqual([
      `alter table "app".${Q_HOSTILE} disable trigger "t"`,
      `alter trigger "t" on "app".${Q_HOSTILE} rename to "u"`,
    ]);
    expect(updateTriggerStatements({ name: 't', table }, { enabled_mode: 'ALWAYS' })).toEqual([`alter table "app".${Q_HOSTILE} enable always trigger "t"`]);
    expect(dropTriggerStatement('t', table, true)).toBe(`drop trigger "t" on "app".${Q_HOSTILE} cascade`);
  });
});

describe('enumerated types', () => {
  const type = { schema: 'public', name: HOSTILE };
  it('creates with literal labels and a comment', () => {
    expect(createEnumStatements({ schema: 'public', name: HOSTILE, values: ["it's", 'b'], comment: 'Mood' })).toEqual([
      `create type "public".${Q_HOSTILE} as enum ('it''s', 'b')`,
      `comment on type "public".${Q_HOSTILE} is 'Mood'`,
    ]);
  });

  it('renames values, adds values, then renames the type', () => {
    expect(updateEnumStatements(type, { name: 'mood', rename_values: [{ from: 'a', to: "a'" }], add_values: [{ value: 'c', after: 'b' }, { value: 'z' }] })).toEqual([
      `alter type "public".${Q_HOSTILE} rename value 'a' to 'a'''`,
      `alter type "public".${Q_HOSTILE} add value 'c' after 'b'`,
      `alter type "public".${Q_HOSTILE} add value 'z'`,
      `alter type "public".${Q_HOSTILE} rename to "mood"`,
    ]);
    expect(dropTypeStatement(type, false)).toBe(`drop type "public".${Q_HOSTILE} restrict`);
  });

  it('refuses labels longer than 63 bytes', () => {
    expect(refusal(() => createEnumStatements({ schema: 'public', name: 'm', values: ['é'.repeat(32)] }))).toBe(`The value "${'é'.repeat(32)}" is longer than 63 bytes`);
  });
});

describe('extensions, indexes, publications', () => {
  it('builds create and drop extension', () => {
    expect(createExtensionStatement({ name: 'pg_trgm', schema: HOSTILE, version: "1.6'", cascade: true })).toBe(`create extension "pg_trgm" schema ${Q_HOSTILE} version '1.6''' cascade`);
    expect(createExtensionStatement({ name: 'hstore' })).toBe('create extension "hstore"');
    expect(dropExtensionStatement('hstore', true)).toBe('drop extension "hstore" cascade');
  });

  it('builds create and drop index', () => {
    expect(createIndexStatement({ schema: 'app', name: 't' }, { name: HOSTILE, table_id: 1, method: 'gin', columns: [HOSTILE, 'b'], unique: true })).toBe(
      `create unique index ${Q_HOSTILE} on "app"."t" using gin (${Q_HOSTILE}, "b")`,
    );
    expect(dropIndexStatement({ schema: 'app', name: HOSTILE })).toBe(`drop index "app".${Q_HOSTILE}`);
  });

  it('builds publications with the published operations as one literal', () => {
    expect(createPublicationStatement({ name: HOSTILE, tables: [{ schema: 'app', name: 'a' }], publish_truncate: false })).toBe(
      `create publication ${Q_HOSTILE} for table "app"."a" with (publish = 'insert, update, delete')`,
    );
    expect(createPublicationStatement({ name: 'p', tables: [], publish_insert: false, publish_update: false, publish_delete: false, publish_truncate: false })).toBe(
      `create publication "p" with (publish = '')`,
    );
    const current = { name: 'p', flags: { publish_insert: true, publish_update: false, publish_delete: true, publish_truncate: true }, tables: [{ schema: 'app', name: 'a' }] };
    expect(updatePublicationStatements(current, { tables: [], publish_update: true, name: HOSTILE })).toEqual([
      'alter publication "p" drop table "app"."a"',
      `alter publication "p" set (publish = 'insert, update, delete, truncate')`,
      `alter publication "p" rename to ${Q_HOSTILE}`,
    ]);
    expect(updatePublicationStatements({ ...current, tables: [] }, { tables: [] })).toEqual([]);
    expect(updatePublicationStatements(current, { tables: [{ schema: 'b', name: HOSTILE }] })).toEqual([`alter publication "p" set table "b".${Q_HOSTILE}`]);
  });
});
