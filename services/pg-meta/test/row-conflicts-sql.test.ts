import { ServiceMessages, Messages } from '@dash/contracts';
import { expectedSql } from '../src/sql/rows/literals';
import { lockRowStatement, selectRowsStatement } from '../src/sql/rows/statements';
import type { RowColumn, TableMeta } from '../src/sql/rows/table';

/*
 * The concurrent-editor guard's SQL, without a database: how each kind of expected value is compared
 * (row-conflicts.test.ts runs the same statements against Postgres).
 */

const col = (name: string, typname: string, category: string, type = typname): RowColumn => ({
  name,
  type,
  typname,
  category,
  generated: false,
  identity: '',
  encrypted: false,
});

const t: TableMeta = {
  id: 1,
  schema: 'app',
  name: 'items',
  kind: 'r',
  primaryKey: ['id'],
  columns: [col('id', 'int4', 'N', 'integer'), col('name', 'text', 'S'), col('n', 'int4', 'N', 'integer')],
};

const refusal = (message: string) => expect.objectContaining({ statusCode: 400, message });

describe('expectedSql', () => {
  it('compares most types by their printed form, the literal cast to the column type first', () => {
    expect(expectedSql(col('name', 'text', 'S'), "it's")).toBe(`"name"::text is not distinct from ('it''s'::text)::text`);
    expect(expectedSql(col('n', 'int4', 'N', 'integer'), 42)).toBe(`"n"::text is not distinct from ('42'::integer)::text`);
    expect(expectedSql(col('c', 'bpchar', 'S', 'character(5)'), 'ab   ')).toBe(`"c"::text is not distinct from ('ab   '::character(5))::text`);
    expect(expectedSql(col('ok', 'bool', 'B', 'boolean'), false)).toBe(`"ok"::text is not distinct from ('false'::boolean)::text`);
    expect(expectedSql(col('pic', 'bytea', 'U'), '\\x0102')).toBe(`"pic"::text is not distinct from ('\\x0102'::bytea)::text`);
    expect(expectedSql(col('My "T"', 'my_enum', 'E', 'public."My enum"'), 'a')).toBe(`"My ""T"""::text is not distinct from ('a'::public."My enum")::text`);
  });

  it('compares floats by value, so -0 (which JSON gives back as 0) is no change', () => {
    expect(expectedSql(col('f', 'float8', 'N', 'double precision'), 0.1)).toBe(`"f" is not distinct from '0.1'::double precision`);
    expect(expectedSql(col('f', 'float4', 'N', 'real'), 'NaN')).toBe(`"f" is not distinct from 'NaN'::real`);
    expect(expectedSql(col('fs', '_float8', 'A', 'double precision[]'), [1.5, null])).toBe(`"fs" is not distinct from '{"1.5",NULL}'::double precision[]`);
  });

  it('compares JSON as jsonb; a null is SQL NULL unless named a JSON null', () => {
    expect(expectedSql(col('doc', 'jsonb', 'U'), { a: [1, "it's"] })).toBe(`"doc"::jsonb is not distinct from '{"a":[1,"it''s"]}'::jsonb`);
    expect(expectedSql(col('raw', 'json', 'U'), 'str')).toBe(`"raw"::jsonb is not distinct from '"str"'::jsonb`);
    expect(expectedSql(col('doc', 'jsonb', 'U'), null)).toBe(`"doc" is null`);
    expect(expectedSql(col('doc', 'jsonb', 'U'), null, true)).toBe(`"doc"::jsonb is not distinct from 'null'::jsonb`);
    expect(expectedSql(col('docs', '_jsonb', 'A', 'jsonb[]'), [{ a: 1 }, 'x', null])).toBe(
      `"docs"::jsonb[] is not distinct from '{"{\\"a\\":1}","\\"x\\"",NULL}'::jsonb[]`,
    );
  });

  it('writes arrays as array literals, nested, with NULL elements, and NULL as `::text is null`', () => {
    expect(expectedSql(col('tags', '_text', 'A', 'text[]'), ['a "b"', null, 'c\\d'])).toBe(`"tags"::text is not distinct from ('{"a \\"b\\"",NULL,"c\\\\d"}'::text[])::text`);
    expect(expectedSql(col('grid', '_int4', 'A', 'integer[]'), [[1, 2], [3, 4]])).toBe(`"grid"::text is not distinct from ('{{"1","2"},{"3","4"}}'::integer[])::text`);
    expect(expectedSql(col('tags', '_text', 'A', 'text[]'), [])).toBe(`"tags"::text is not distinct from ('{}'::text[])::text`);
    expect(expectedSql(col('name', 'text', 'S'), null)).toBe(`"name"::text is null`);
    expect(expectedSql(col('fs', '_float8', 'A', 'double precision[]'), null)).toBe(`"fs"::text is null`);
  });

  it('takes points and circles as pg parses them', () => {
    expect(expectedSql(col('p', 'point', 'G'), { x: 1.5, y: -2 })).toBe(`"p"::text is not distinct from ('(1.5,-2)'::point)::text`);
    expect(expectedSql(col('c', 'circle', 'G'), { x: 0, y: 1, radius: 2 })).toBe(`"c"::text is not distinct from ('<(0,1),2>'::circle)::text`);
    expect(expectedSql(col('ps', '_point', 'A', 'point[]'), [{ x: 1, y: 2 }])).toBe(`"ps"::text is not distinct from ('{"(1,2)"}'::point[])::text`);
  });

  it('refuses values the rows routes never give for the type, and NUL, with a 400', () => {
    const message = 'Column "name": the expected value is not one the rows routes give for its type';
    expect(() => expectedSql(col('name', 'text', 'S'), { a: 1 })).toThrow(refusal(message));
    expect(() => expectedSql(col('name', 'text', 'S'), ['a'])).toThrow(refusal(message));
    expect(() => expectedSql(col('name', 'text', 'S'), 'a\u0000b')).toThrow(expect.objectContaining({ statusCode: 400 }));
  });
});

describe('lockRowStatement', () => {
  it('locks the matched row, reads it as a page does and says whether every expected value holds', () => {
    const lock = lockRowStatement(t, { id: 7 }, { name: 'a', n: null }, 100);
    expect(lock.text).toBe(
      `select "id", case when length("name"::text) > 100 then null else "name" end, ` +
        `case when length("name"::text) > 100 then left("name"::text, 100) || '...' end, "n", ` +
        `("name"::text is not distinct from ('a'::text)::text) and ("n"::text is null) ` +
        `from "app"."items" where "id" = '7' for update`,
    );
    expect(lock.columns).toEqual([
      { name: 'id', value: 0 },
      { name: 'name', value: 1, cut: 2 },
      { name: 'n', value: 3 },
    ]);
    expect(lock.same).toBe(4);
    // The same cut as a page of rows.
    expect(selectRowsStatement(t, { maxChars: 100 }).columns).toEqual(lock.columns);
  });

  it('with nothing expected, only locks', () => {
    expect(lockRowStatement(t, { id: 7 }, {}).text).toMatch(/, true from "app"\."items" where "id" = '7' for update$/);
  });

  it('refuses unknown columns, missing keys and tables without a primary key', () => {
    expect(() => lockRowStatement(t, { id: 1 }, { nope: 1 })).toThrow(expect.objectContaining({ statusCode: 400, code: '42703' }));
    expect(() => lockRowStatement(t, {}, { name: 'a' })).toThrow(refusal(ServiceMessages.noFiltersForUpdate));
    expect(() => lockRowStatement({ ...t, primaryKey: [] }, { id: 1 }, {})).toThrow(refusal(Messages.noPrimaryKeyForWrite));
  });
});
