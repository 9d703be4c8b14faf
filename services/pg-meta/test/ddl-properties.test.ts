import fc from 'fast-check';
import pg from 'pg';
import { HttpError } from '@dash/service-kit';
import { addColumnStatements, updateColumnStatements, type ColumnState } from '../src/sql/ddl/columns';
import { ident, literal } from '../src/sql/ddl/names';
import { createTableStatements, updateTableStatements } from '../src/sql/ddl/tables';
import { hostileName, hostileText } from './ddl-arbitraries';
import { setupProject, type Project, statementClient } from './helpers';

/*
 * Property tests of the DDL builders on real Postgres, with hostile names and literals (quotes,
 * backslashes, semicolons, comment markers, unicode, 63-byte names). Every generated statement is run
 * the way the routes run it (alone, extended protocol) inside a transaction that is rolled back, and
 * the catalog must then show exactly the name, comment and default that went in.
 */

/** Thousands of transactions each: generous, so a loaded machine does not fail them. */
const PROPERTY_TIMEOUT = 180_000;

let p: Project;
let client: pg.Client;
let db: Awaited<ReturnType<typeof statementClient>>;

beforeAll(async () => {
  p = await setupProject();
  db = await statementClient(p.url);
  client = db.client;
  await client.query(`create schema prop; create table prop.base (id int primary key, c text)`);
});

afterAll(async () => {
  await client.end();
  await p.close();
});

const run = (text: string, values?: unknown[]) => db.run(text, values);

const rolledBack = <T>(work: () => Promise<T>) => db.rolledBack(work);

async function runAll(statements: readonly string[]): Promise<void> {
  for (const statement of statements) await run(statement);
}

/** New schema names Postgres accepts (the pg_ prefix is reserved), none of the bootstrapped ones. */
const TAKEN = new Set(['prop', 'public', 'auth', 'storage', 'information_schema']);
const schemaName = hostileName.filter((s) => !s.startsWith('pg_') && !TAKEN.has(s));
const comment = fc.option(hostileText, { nil: null });
/** Postgres stores an empty comment as no comment. */
const stored = (comment: string | null) => (comment === '' ? null : comment);
/**
 * Names of tables and types. A name of 63 underscores leaves Postgres no name for the array type it
 * makes for every table and type (`_` + name, cut to 63 bytes, is taken): a limit of Postgres, not ours.
 */
const relationName = hostileName.filter((n) => !/^_+$/.test(n));
const baseTable = { schema: 'prop', name: 'base' };
const baseState = (name: string): ColumnState => ({
  table: baseTable,
  name,
  format: 'text',
  hasDefault: false,
  isIdentity: false,
  primaryKey: { name: 'base_pkey', columns: ['id'] },
  uniqueConstraints: [],
  uniqueIndexes: [],
  checkConstraints: [],
  foreignKeys: [],
});

interface ColumnRow {
  name: string;
  comment: string | null;
  is_unique: boolean;
  not_null: boolean;
  check: string | null;
}

async function columnsOf(schema: string, table: string): Promise<ColumnRow[]> {
  const { rows } = await run(
    `select a.attname as name, pg_catalog.col_description(a.attrelid, a.attnum) as comment, a.attnotnull as not_null,
       exists (select 1 from pg_index i where i.indrelid = a.attrelid and i.indisunique and not i.indisprimary and i.indkey[0] = a.attnum) as is_unique,
       (select pg_get_expr(con.conbin, con.conrelid) from pg_constraint con where con.conrelid = a.attrelid and con.contype = 'c' and con.conkey = array[a.attnum]) as check
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    [schema, table],
  );
  return rows as ColumnRow[];
}

async function tableComment(schema: string, table: string): Promise<string | null | undefined> {
  const { rows } = await run(
    `select obj_description(c.oid, 'pg_class') as comment from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2`,
    [schema, table],
  );
  return rows.length === 1 ? (rows[0].comment as string | null) : undefined;
}

/** The row `insert ... default values` writes: every default evaluated. */
async function defaultsOf(schema: string, table: string): Promise<Record<string, unknown>> {
  const { rows } = await run(`insert into ${ident(schema)}.${ident(table)} default values returning *`);
  return rows[0] as Record<string, unknown>;
}

const newColumn = fc.record({
  name: hostileName,
  comment,
  defaultValue: fc.option(hostileText, { nil: null }),
});

describe('DDL builders on real Postgres (hostile names and literals)', () => {
  it('createTable: names, comments and literal defaults round-trip exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        schemaName,
        relationName,
        comment,
        fc.uniqueArray(newColumn, { minLength: 1, maxLength: 3, selector: (c) => c.name }),
        async (schema, name, tableComment_, columns) =>
          rolledBack(async () => {
            await run(`create schema if not exists ${ident(schema)}`);
            await runAll(
              createTableStatements({
                schema,
                name,
                comment: tableComment_,
                columns: columns.map((c) => ({ name: c.name, type: 'text', comment: c.comment, defaultValue: c.defaultValue })),
              }),
            );
            expect(await tableComment(schema, name)).toBe(stored(tableComment_));
            const catalog = await columnsOf(schema, name);
            expect(catalog.map((c) => [c.name, c.comment])).toEqual(columns.map((c) => [c.name, stored(c.comment)]));
            const row = await defaultsOf(schema, name);
            expect(columns.map((c) => row[c.name])).toEqual(columns.map((c) => c.defaultValue));
          }),
      ),
      { numRuns: 1200 },
    );
  }, PROPERTY_TIMEOUT);

  it('createColumn: name, comment, literal default, unique, not null and a check with hostile literals', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileName.filter((n) => n !== 'id' && n !== 'c'),
        comment,
        hostileText,
        hostileText,
        fc.boolean(),
        fc.boolean(),
        async (name, columnComment, defaultValue, checkLiteral, isUnique, notNull) =>
          rolledBack(async () => {
            // The check quotes a hostile name and literal inside the user's expression.
            const check = `${ident(name)} <> ${literal(checkLiteral)} or ${ident(name)} = ${literal(checkLiteral)}`;
            await runAll(
              addColumnStatements(baseTable, { name, type: 'text', comment: columnComment, defaultValue, isUnique, isNullable: !notNull, check }, null),
            );
            const added = (await columnsOf('prop', 'base')).find((c) => c.name === name);
            expect(added).toMatchObject({ name, comment: stored(columnComment), is_unique: isUnique, not_null: notNull });
            expect(added!.check).not.toBeNull();
            const { rows } = await run(`insert into prop.base (id) values (1) returning *`);
            expect(rows[0][name]).toBe(defaultValue);
          }),
      ),
      { numRuns: 2000 },
    );
  }, PROPERTY_TIMEOUT);

  it('updateColumn: rename, comment and literal default round-trip exactly', async () => {
    await fc.assert(
      fc.asyncProperty(hostileName.filter((n) => n !== 'id'), comment, hostileText, async (name, columnComment, defaultValue) =>
        rolledBack(async () => {
          await runAll(updateColumnStatements(baseState('c'), { name, comment: columnComment, defaultValue, defaultValueFormat: 'literal' }));
          const columns = await columnsOf('prop', 'base');
          expect(columns.map((c) => c.name)).toEqual(['id', name]);
          expect(columns[1]!.comment).toBe(stored(columnComment));
          const { rows } = await run(`insert into prop.base (id) values (1) returning *`);
          expect(rows[0][name]).toBe(defaultValue);
        }),
      ),
      { numRuns: 2000 },
    );
  }, PROPERTY_TIMEOUT);

  it('updateTable: rename, move and comment round-trip exactly', async () => {
    await fc.assert(
      fc.asyncProperty(relationName, schemaName, comment, async (name, schema, newComment) =>
        rolledBack(async () => {
          await run(`create schema if not exists ${ident(schema)}`);
          await runAll(updateTableStatements(baseTable, { name, schema, comment: newComment, rls_enabled: true }));
          const { rows } = await run(
            `select c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2`,
            [schema, name],
          );
          expect(rows).toEqual([{ relrowsecurity: true }]);
          expect(await tableComment(schema, name)).toBe(stored(newComment));
          expect(await tableComment('prop', 'base')).toBeUndefined();
        }),
      ),
      { numRuns: 1500 },
    );
  }, PROPERTY_TIMEOUT);

  it('a default expression stays one expression of one statement, whatever the text', async () => {
    const fragment = fc.constantFrom(
      'now()', '1', "'a'", "'", '"', '(', ')', ';', ',', ' ', '--', '\n', '/*', '*/', '$$', '$t$', "E'\\'", '\\',
      'drop table prop.base', 'drop column id', 'set default 1', 'alter column id', 'select 1', 'c', 'id', '||', '+',
    );
    const expression = fc.array(fragment, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
    const shape = `select a.attnum, a.attname, a.atttypid, a.attnotnull, (select count(*) from pg_class) as relations,
      (select pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d where d.adrelid = a.attrelid and d.adnum = a.attnum) as def
      from pg_attribute a where a.attrelid = 'prop.base'::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`;
    let refused = 0;
    let failed = 0;
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(expression, async (text) => {
        let statements: string[];
        try {
          statements = updateColumnStatements(baseState('c'), { defaultValue: text, defaultValueFormat: 'expression' });
        } catch (error) {
          expect(error).toBeInstanceOf(HttpError);
          refused++;
          return;
        }
        await rolledBack(async () => {
          const before = (await run(shape)).rows;
          await client.query('savepoint attempt');
          try {
            await runAll(statements);
          } catch (error) {
            expect(error).toBeInstanceOf(pg.DatabaseError);
            await client.query('rollback to savepoint attempt');
            failed++;
            expect((await run(shape)).rows).toEqual(before);
            return;
          }
          applied++;
          const after = (await run(shape)).rows;
          // Only the default of column c changed: nothing else in the table or the database.
          expect(after.map((r) => ({ ...r, def: null }))).toEqual(before.map((r) => ({ ...r, def: null })));
          expect(after[0].def).toBe(before[0].def);
          // A blank expression means no default.
          expect(after[1].def === null).toBe(text.trim() === '');
        });
      }),
      { numRuns: 3000 },
    );
    expect(refused).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    expect(applied).toBeGreaterThan(0);
  }, PROPERTY_TIMEOUT);

  it('type names: user types with hostile names, as arrays too, resolve to exactly that type', async () => {
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    await fc.assert(
      fc.asyncProperty(schemaName, relationName, fc.boolean(), async (schema, typeName, isArray) =>
        rolledBack(async () => {
          await run(`create schema if not exists ${ident(schema)}`);
          await run(`create type ${ident(schema)}.${ident(typeName)} as enum ('a')`);
          await runAll(addColumnStatements(baseTable, { name: 'typed', type: `${quote(schema)}.${quote(typeName)}${isArray ? '[]' : ''}` }, null));
          const { rows } = await run(
            `select t.typname, n.nspname, a.atttypid = t.typarray as is_array
             from pg_attribute a join pg_type t on a.atttypid in (t.oid, t.typarray) join pg_namespace n on n.oid = t.typnamespace
             where a.attrelid = 'prop.base'::regclass and a.attname = 'typed' and t.typtype = 'e'`,
          );
          expect(rows).toEqual([{ typname: typeName, nspname: schema, is_array: isArray }]);
        }),
      ),
      { numRuns: 800 },
    );
  }, PROPERTY_TIMEOUT);
});
