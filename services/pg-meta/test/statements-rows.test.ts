import pg from 'pg';
import fc from 'fast-check';
import { Messages, ServiceMessages, TABLE_CELL_MAX_CHARS, type RowFilter } from '@dash/contracts';
import { quoteIdent } from '@dash/service-kit';
import { createTestDatabase } from '@dash/service-kit/dist/testing';
import { arrayLiteralText, cellValueSql } from '../src/sql/rows/literals';
import {
  countRowsStatement,
  deleteRowsStatement,
  estimateRowsStatement,
  exportCountStatement,
  exportRowsStatement,
  filterSql,
  fullValueStatement,
  importRowsStatement,
  insertRowStatement,
  pageSize,
  selectRowsStatement,
  truncateTableStatement,
  updateRowStatement,
} from '../src/sql/rows/statements';
import type { RowColumn, TableMeta } from '../src/sql/rows/table';
import { literal } from '../src/sql/ddl/names';

const col = (name: string, typname = 'text', category = 'S', extra: Partial<RowColumn> = {}): RowColumn => ({
  name,
  type: typname,
  typname,
  category,
  generated: false,
  identity: '',
  encrypted: false,
  ...extra,
});

const people: TableMeta = {
  id: 1,
  schema: 'app',
  name: 'people',
  kind: 'r',
  primaryKey: ['id'],
  columns: [
    col('id', 'int4', 'N'),
    col('name'),
    col('doc', 'jsonb', 'U'),
    col('raw', 'json', 'U'),
    col('tags', '_text', 'A'),
    col('age', 'int4', 'N'),
    col('gen', 'text', 'S', { generated: true }),
    col('serial', 'int8', 'N', { identity: 'a' }),
    col('secret', 'text', 'S', { encrypted: true }),
  ],
};
const pairs: TableMeta = { ...people, name: 'pairs', primaryKey: ['a', 'b'], columns: [col('a', 'int4', 'N'), col('b'), col('v')] };
const nokey: TableMeta = { ...people, name: 'nokey', primaryKey: [], columns: [col('x', 'int4', 'N')] };
const f = (column: string, operator: RowFilter['operator'], value: string): RowFilter => ({ column, operator, value });

describe('row statement builders', () => {
  it('selects a page with quoted names, literal values, nulls last, limit and offset, cutting long cells', () => {
    const { text, columns } = selectRowsStatement(
      { ...people, columns: people.columns.slice(0, 3) },
      { filters: [f('name', 'eq', "O'Hara"), f('id', 'gt', '5')], sorts: [{ column: 'doc', ascending: false }], page: 3, limit: 500, maxChars: 10 },
    );
    expect(text).toBe(
      'select page."id", case when length(page."name"::text) > 10 then null else page."name" end, ' +
        `case when length(page."name"::text) > 10 then left(page."name"::text, 10) || '...' end, ` +
        'case when length(page."doc"::text) > 10 then null else page."doc" end, ' +
        `case when length(page."doc"::text) > 10 then left(page."doc"::text, 10) || '...' end ` +
        `from (select * from "app"."people" where ("name" = 'O''Hara') and ("id" > '5') order by "doc" desc nulls last limit 500 offset 1000) as page ` +
        'order by page."doc" desc nulls last',
    );
    expect(columns).toEqual([
      { name: 'id', value: 0 },
      { name: 'name', value: 1, cut: 2 },
      { name: 'doc', value: 3, cut: 4 },
    ]);
    expect(selectRowsStatement(people).text).toContain(`> ${TABLE_CELL_MAX_CHARS} then`);
  });

  it('orders by the primary key by default and pages with the allowed sizes only', () => {
    expect(selectRowsStatement(pairs).text).toMatch(/order by "a" asc nulls last, "b" asc nulls last limit 100 offset 0\) as page order by page\."a" asc nulls last, page\."b" asc nulls last$/);
    expect(selectRowsStatement(nokey).text).toBe('select page."x" from (select * from "app"."nokey" limit 100 offset 0) as page');
    expect(selectRowsStatement(people, { sorts: [{ column: 'raw', ascending: true }] }).text).toMatch(/order by page\."raw"::jsonb asc nulls last$/);
    expect([pageSize(100), pageSize(500), pageSize(1000), pageSize(50), pageSize(undefined), pageSize(101)]).toEqual([100, 500, 1000, 100, 100, 100]);
  });

  it('builds every filter operator', () => {
    expect(filterSql(people, f('age', 'neq', '1'))).toBe(`"age" <> '1'`);
    expect(filterSql(people, f('age', 'gte', '1'))).toBe(`"age" >= '1'`);
    expect(filterSql(people, f('age', 'lte', '1'))).toBe(`"age" <= '1'`);
    expect(filterSql(people, f('age', 'lt', '1'))).toBe(`"age" < '1'`);
    expect(filterSql(people, f('name', '~~', 'a%'))).toBe(`"name" like 'a%'`);
    expect(filterSql(people, f('age', '~~*', '4%'))).toBe(`"age"::text ilike '4%'`);
    expect(filterSql(people, f('name', 'in', " a , b',c ,, "))).toBe(`"name" in ('a', 'b''', 'c')`);
    expect(filterSql(people, f('raw', 'eq', '{}'))).toBe(`"raw"::jsonb = '{}'`);
    expect(filterSql(people, f('doc', 'eq', '{}'))).toBe(`"doc" = '{}'`);
    expect(['null', 'not null', 'true', 'false', ' Not   NULL '].map((v) => filterSql(people, f('age', 'is', v)))).toEqual([
      '"age" is null',
      '"age" is not null',
      '"age" is true',
      '"age" is false',
      '"age" is not null',
    ]);
  });

  it('refuses bad filters with clear messages', () => {
    expect(() => filterSql(people, f('age', 'is', 'null; drop table x'))).toThrow('The "is" filter takes null, not null, true, false');
    expect(() => filterSql(people, f('age', 'in', ' ,, '))).toThrow('The "in" filter on column "age" needs a comma-separated list of values');
    expect(() => filterSql(people, f('ghost', 'eq', '1'))).toThrow('Column "ghost" does not exist on table "app"."people"');
    expect(() => filterSql(people, f('name', 'eq', 'nul\u0000'))).toThrow(expect.objectContaining({ statusCode: 400 }));
  });

  it('counts, estimates and truncates', () => {
    expect(countRowsStatement(people, [f('age', 'is', 'null')])).toBe('select count(*)::int8 from "app"."people" where ("age" is null)');
    expect(countRowsStatement(people)).toBe('select count(*)::int8 from "app"."people"');
    expect(estimateRowsStatement(people, [f('age', 'eq', '2')])).toBe(`explain (format json) select 1 from "app"."people" where ("age" = '2')`);
    expect(truncateTableStatement({ ...people, name: 'we"ird' })).toBe('truncate table "app"."we""ird"');
  });

  it('inserts the given values, typed by Postgres, and needs at least one', () => {
    expect(insertRowStatement(people, { name: 'x', age: 3, doc: { a: ["'"] }, raw: '[1]', tags: ['a', null, 'b"\\'] })).toBe(
      `insert into "app"."people" ("name", "age", "doc", "raw", "tags") values ('x', '3', '{"a":["''"]}', '[1]', '{"a",NULL,"b\\"\\\\"}') returning *`,
    );
    expect(() => insertRowStatement(people, {})).toThrow(ServiceMessages.noValueToInsert);
    expect(() => insertRowStatement(people, { gen: 'x' })).toThrow('Column "gen" is generated and cannot be written');
    expect(() => insertRowStatement(people, { serial: 1 })).toThrow('GENERATED ALWAYS');
    expect(insertRowStatement(people, { secret: 's' })).toContain(`("secret") values ('s')`);
  });

  it('turns an empty value into NULL except in text columns, and checks JSON text', () => {
    expect(cellValueSql(col('age', 'int4', 'N'), '')).toBe('null');
    expect(cellValueSql(col('tags', '_text', 'A'), '')).toBe('null');
    expect(cellValueSql(col('doc', 'jsonb', 'U'), '')).toBe('null');
    expect(cellValueSql(col('name'), '')).toBe("''");
    expect(cellValueSql(col('doc', 'jsonb', 'U'), '"text"')).toBe(`'"text"'`);
    expect(() => cellValueSql(col('doc', 'jsonb', 'U'), 'text')).toThrow(Messages.invalidJson);
  });

  it('updates one row by its whole primary key', () => {
    expect(updateRowStatement(pairs, { a: 1, b: "x'" }, { v: 'new', a: 2 })).toBe(
      `update "app"."pairs" set "v" = 'new', "a" = '2' where "a" = '1' and "b" = 'x''' returning *`,
    );
    expect(() => updateRowStatement(pairs, {}, { v: 1 })).toThrow(ServiceMessages.noFiltersForUpdate);
    expect(() => updateRowStatement(nokey, { x: 1 }, { x: 2 })).toThrow(Messages.noPrimaryKeyForWrite);
    expect(() => updateRowStatement(pairs, { a: 1 }, { v: 1 })).toThrow('The row match needs a value for primary-key column "b"');
    expect(() => updateRowStatement(pairs, { a: 1, b: 'x', v: 'y' }, { v: 1 })).toThrow('Column "v" is not part of the primary key (a, b)');
    expect(() => updateRowStatement(people, { id: 1 }, { secret: 'x' })).toThrow(Messages.encryptedNotEditable);
    expect(() => updateRowStatement(people, { id: 1 }, { doc: '{' })).toThrow(Messages.invalidJson);
    expect(() => updateRowStatement(people, { id: { nested: 1 } }, { name: 'x' })).toThrow('primary-key column "id"');
  });

  it('deletes by primary key or by filters, never without a condition', () => {
    expect(deleteRowsStatement(people, { matches: [{ id: 1 }, { id: '2' }] })).toBe(`delete from "app"."people" where ("id" in ('1', '2'))`);
    expect(deleteRowsStatement(pairs, { matches: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }] })).toBe(
      `delete from "app"."pairs" where (("a" = '1' and "b" = 'x') or ("a" = '2' and "b" = 'y'))`,
    );
    expect(deleteRowsStatement(people, { filters: [f('age', 'lt', '3')], matches: [{ id: 1 }] })).toBe(
      `delete from "app"."people" where ("age" < '3') and ("id" in ('1'))`,
    );
    expect(() => deleteRowsStatement(people, {})).toThrow(ServiceMessages.noFiltersForDelete);
    expect(() => deleteRowsStatement(people, { filters: [], matches: [] })).toThrow(ServiceMessages.noFiltersForDelete);
    expect(() => deleteRowsStatement(nokey, { matches: [{ x: 1 }] })).toThrow(Messages.noPrimaryKeyForWrite);
  });

  it('loads a full value, exports and imports', () => {
    expect(fullValueStatement(people, { id: 4 }, 'doc')).toBe(`select "doc" from "app"."people" where "id" = '4'`);
    expect(() => fullValueStatement(nokey, { x: 4 }, 'x')).toThrow(Messages.noPrimaryKeyForValue);
    expect(exportRowsStatement(people, { filters: [f('age', 'gt', '1')], sorts: [{ column: 'name', ascending: true }] })).toBe(
      `copy (select * from "app"."people" where ("age" > '1') order by "name" asc nulls last) to stdout with (format csv, header true)`,
    );
    expect(exportCountStatement(people, { matches: [{ id: 1 }] }, 500_000)).toBe(
      `select count(*)::int8 from (select 1 from "app"."people" where ("id" in ('1')) limit 500001) as rows`,
    );
    expect(importRowsStatement(people, ['name', 'age'], { header: true, delimiter: ';' })).toBe(
      `copy "app"."people" ("name", "age") from stdin with (format csv, header true, delimiter ';')`,
    );
  });
});

// ---------------------------------------------------------------- properties on real Postgres

const HOSTILE_CHARS = ["'", '"', '\\', ';', '$', '$$', '--', '/*', '*/', ' ', '\n', '\t', '%', '_', ',', 'E', 'é', '☃', '表', '😀', '\u200b', 'a', 'Z', '0'];
const hostileText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(fc.constantFrom(...HOSTILE_CHARS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength }).filter((s) => !s.includes('\u0000'));
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
/** Names Postgres keeps whole: 1..63 bytes, no NUL; with a few of exactly 63 bytes. */
const hostileName = fc.oneof(
  { weight: 5, arbitrary: hostileText(40).filter((s) => s.length > 0 && utf8(s) <= 63) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(63), '"'.repeat(63), `${'é'.repeat(31)}x`, `a'; drop table t; --${'-'.repeat(43)}`) },
);

let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await createTestDatabase('rowsprops');
  drop = db.drop;
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await drop();
});

const textTable = (schema: string, name: string, key: string, cols: string[]): TableMeta => ({
  id: 0,
  schema,
  name,
  kind: 'r',
  primaryKey: [key],
  columns: [key, ...cols].map((c) => col(c)),
});

describe('hostile names and values round-trip through Postgres (properties)', () => {
  it('create, insert, filter, count, update, load, delete: every statement parses and every value comes back equal', async () => {
    await client.query('begin');
    try {
      await fc.assert(
        fc.asyncProperty(
          hostileName,
          hostileName,
          fc.uniqueArray(hostileName, { minLength: 3, maxLength: 3 }),
          fc.array(hostileText(60), { minLength: 4, maxLength: 4 }),
          async (schema, name, [key, c1, c2], [v0, v1, v2, v3]) => {
            const table = textTable(schema, name, key!, [c1!, c2!]);
            const rel = `${quoteIdent(schema)}.${quoteIdent(name)}`;
            const statements = [
              'savepoint one_case',
              `create schema if not exists ${quoteIdent(schema)}`,
              `create table ${rel} (${quoteIdent(key!)} text primary key, ${quoteIdent(c1!)} text, ${quoteIdent(c2!)} text)`,
              insertRowStatement(table, { [key!]: v0, [c1!]: v1, [c2!]: v2 }),
              selectRowsStatement(table, { filters: [f(c1!, 'eq', v1!)], sorts: [{ column: c2!, ascending: false }] }).text,
              countRowsStatement(table, [f(key!, 'eq', v0!), f(c2!, 'eq', v2!)]),
              updateRowStatement(table, { [key!]: v0 }, { [c2!]: v3 }),
              fullValueStatement(table, { [key!]: v0 }, c2!),
              deleteRowsStatement(table, { matches: [{ [key!]: v0 }] }),
              countRowsStatement(table),
              'rollback to savepoint one_case',
            ];
            const results = (await client.query({ text: statements.join(';\n'), rowMode: 'array' })) as unknown as pg.QueryArrayResult[];
            const rows = results.map((r) => r.rows);
            expect(rows[3]).toEqual([[v0, v1, v2]]);
            // The page: short values (no cut text) in table order.
            expect(rows[4]).toEqual([[v0, null, v1, null, v2, null]]);
            expect(Number(rows[5]![0]![0])).toBe(1);
            expect(rows[6]).toEqual([[v0, v1, v3]]);
            expect(rows[7]).toEqual([[v3]]);
            expect(results[8]!.rowCount).toBe(1);
            expect(Number(rows[9]![0]![0])).toBe(0);
          },
        ),
        { numRuns: 1000 },
      );
    } finally {
      await client.query('rollback');
    }
  });

  it('every filter operator on hostile values matches what a model of it expects (batched)', async () => {
    const values = fc.sample(hostileText(12), { numRuns: 40, seed: 7 });
    const rows = values.map((text, i) => ({ id: i + 1, text: i % 9 === 0 ? null : text, flag: i % 3 === 0 ? null : i % 2 === 0 }));
    const table: TableMeta = {
      id: 0,
      schema: 'public',
      name: `t ' " ; \\ ${'表'.repeat(5)}`,
      kind: 'r',
      primaryKey: ['id'],
      columns: [col('id', 'int4', 'N'), col('te"xt'), col('fl;ag', 'bool', 'B')],
    };
    await client.query(`create table ${quoteIdent(table.schema)}.${quoteIdent(table.name)} (id int primary key, "te""xt" text, "fl;ag" bool)`);
    for (const r of rows) await client.query(`insert into ${quoteIdent(table.schema)}.${quoteIdent(table.name)} values ($1, $2, $3)`, [r.id, r.text, r.flag]);
    const known = fc.constantFrom(...values);
    const textValue = fc.oneof(known, hostileText(12));
    const filterCase = fc.oneof(
      fc.record({ operator: fc.constantFrom('eq' as const, 'neq' as const, 'gt' as const, 'lt' as const, 'gte' as const, 'lte' as const, '~~' as const, '~~*' as const), value: textValue }),
      fc.record({ operator: fc.constant('in' as const), value: fc.array(textValue, { minLength: 1, maxLength: 4 }).map((items) => items.join(',')) }),
      fc.record({ operator: fc.constant('is' as const), value: fc.constantFrom('null', 'not null') }),
    );
    const flagCase = fc.constantFrom('null', 'not null', 'true', 'false');
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(filterCase, flagCase), { minLength: 50, maxLength: 50 }), async (batch) => {
        // Left out: empty in lists and patterns ending in a lone escape, which are 400s (tested elsewhere).
        const usable = batch.filter(
          ([c]) =>
            (c.operator !== 'in' || c.value.split(',').some((i) => i.trim() !== '')) &&
            !(c.operator.startsWith('~~') && /(^|[^\\])(\\\\)*\\$/.test(c.value)),
        );
        const statements = usable.map(([c, flag]) =>
          selectRowsStatement(table, { filters: [f('te"xt', c.operator, c.value), f('fl;ag', 'is', flag)], limit: 1000 }).text,
        );
        const results = (await client.query({ text: statements.join(';\n'), rowMode: 'array' })) as unknown as pg.QueryArrayResult[];
        usable.forEach(([c, flag], i) => {
          const got = results[i]!.rows.map((r) => r[0] as number);
          const flagOk = (r: (typeof rows)[number]) =>
            flag === 'null' ? r.flag === null : flag === 'not null' ? r.flag !== null : r.flag === (flag === 'true');
          const model = (r: (typeof rows)[number]): boolean | undefined => {
            switch (c.operator) {
              case 'eq':
                return r.text !== null && r.text === c.value;
              case 'neq':
                return r.text !== null && r.text !== c.value;
              case 'in':
                return r.text !== null && c.value.split(',').map((s) => s.trim()).filter(Boolean).includes(r.text);
              case 'is':
                return c.value === 'null' ? r.text === null : r.text !== null;
              case '~~':
                // Without wildcards or escapes, like is equality.
                return /[%_\\]/.test(c.value) ? undefined : r.text !== null && r.text === c.value;
              default:
                // gt/lt/ilike follow the database collation: they must run; the result is not modelled.
                return undefined;
            }
          };
          const expectation = rows.filter(flagOk).map((r) => model(r));
          if (expectation.some((e) => e === undefined)) return;
          expect([c, flag, got]).toEqual([c, flag, rows.filter((r) => flagOk(r) && model(r)).map((r) => r.id)]);
        });
        cases += usable.length;
      }),
      { numRuns: 100 },
    );
    expect(cases).toBeGreaterThan(4500);
  });

  it('literals and array literals read back exactly (batched)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileText(200), { minLength: 100, maxLength: 100 }), async (texts) => {
        const { rows } = await client.query({ text: `select ${texts.map(literal).join(', ')}`, rowMode: 'array' });
        expect(rows[0]).toEqual(texts);
      }),
      { numRuns: 30 },
    );
    const element = fc.oneof(hostileText(20), fc.constant(null), fc.constantFrom('NULL', '', '{}', ' x '));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(element, { maxLength: 6 }), { minLength: 50, maxLength: 50 }), async (arrays) => {
        const { rows } = await client.query({ text: `select ${arrays.map((a) => `${literal(arrayLiteralText(a))}::text[]`).join(', ')}`, rowMode: 'array' });
        expect(rows[0]).toEqual(arrays);
      }),
      { numRuns: 20 },
    );
  });
});
