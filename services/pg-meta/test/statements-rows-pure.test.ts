import fc from 'fast-check';
import { FILTER_OPERATORS, IS_FILTER_VALUES, Messages, ServiceMessages, type RowFilter, type RowSort } from '@dash/contracts';
import { statementHeads } from '../src/sql/statements';
import {
  countRowsStatement,
  deleteRowsStatement,
  estimateRowsStatement,
  exportCountStatement,
  exportRowsStatement,
  fullValueStatement,
  importRowsStatement,
  insertRowStatement,
  selectRowsStatement,
  truncateTableStatement,
  updateRowStatement,
} from '../src/sql/rows/statements';
import type { RowColumn, TableMeta } from '../src/sql/rows/table';

/*
 * Pure properties of the row statement builders, 10,000 cases each, no database: whatever names and
 * values the client sends, every statement is one statement whose quoted identifiers are exactly the
 * table's names and whose quoted literals are exactly the values sent; outside the quotes there is no
 * statement separator, comment, dollar quote or stray quote, so no input can change the SQL around it.
 * (statements-rows.test.ts runs the same builders against Postgres with fewer cases.)
 */

const RUNS = 10_000;
/** Generous: pure, but 10,000 cases take a while on a busy machine. */
const TIMEOUT = 180_000;

const HOSTILE = ["'", "''", '"', '""', '\\', ';', '$', '$$', '$a$', '--', '/*', '*/', ' ', '\n', '\r', '\t', '%', '_', ',', '(', ')', 'E', 'é', '表', '😀', '\u200b', 'a', 'Z', '0', 'null', 'not null'];
const hostileText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), { maxLength })
    .map((parts) => parts.join(''))
    .filter((s) => !s.includes('\u0000'));
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
const hostileName = hostileText(20).filter((s) => s.length > 0 && utf8(s) <= 63);

/** The SQL text split into quoted identifiers, quoted literals, and the rest (the skeleton). */
function scan(sql: string): { idents: string[]; literals: string[]; skeleton: string } {
  const idents: string[] = [];
  const literals: string[] = [];
  let skeleton = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new Error(`Unclosed ${c} at ${i} in ${sql}`);
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            text += c;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j];
        j++;
      }
      (c === '"' ? idents : literals).push(text);
      skeleton += c === '"' ? 'I' : 'L';
      i = j + 1;
      continue;
    }
    skeleton += c;
    i++;
  }
  return { idents, literals, skeleton };
}

const col = (name: string, typname: string, category: string): RowColumn => ({ name, type: typname, typname, category, generated: false, identity: '', encrypted: false });
const COLUMN_TYPES = [
  ['text', 'S'],
  ['int4', 'N'],
  ['jsonb', 'U'],
  ['json', 'U'],
  ['_text', 'A'],
  ['bool', 'B'],
  ['timestamptz', 'D'],
] as const;

const tableArb = fc
  .record({
    schema: hostileName,
    name: hostileName,
    names: fc.uniqueArray(hostileName, { minLength: 2, maxLength: 5 }),
    types: fc.array(fc.constantFrom(...COLUMN_TYPES), { minLength: 5, maxLength: 5 }),
    keyCount: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ schema, name, names, types, keyCount }): TableMeta => ({
    id: 1,
    schema,
    name,
    kind: 'r',
    // The key columns are text, so any hostile value is a valid key value.
    primaryKey: names.slice(0, Math.min(keyCount, names.length - 1)),
    columns: names.map((n, i) => (i < keyCount ? col(n, 'text', 'S') : col(n, types[i]![0], types[i]![1]))),
  }));

const OPERATORS = FILTER_OPERATORS.map((o) => o.abbrev);
/** An 'is' value as a person might type it: any case, extra spaces. */
const isValue = fc
  .tuple(fc.constantFrom(...IS_FILTER_VALUES), fc.boolean(), fc.constantFrom('', ' ', '  '))
  .map(([v, upper, pad]) => `${pad}${(upper ? v.toUpperCase() : v).replace(' ', ` ${pad}`)}${pad}`);

const caseArb = tableArb.chain((table) => {
  const names = table.columns.map((c) => c.name);
  const filter = fc.oneof(
    fc.record({ column: fc.constantFrom(...names), operator: fc.constantFrom(...OPERATORS.filter((o) => o !== 'is' && o !== 'in')), value: hostileText(12) }),
    // Items are trimmed and blanks dropped: keep at least one real item so the list is valid.
    fc.record({
      column: fc.constantFrom(...names),
      operator: fc.constant('in' as const),
      value: fc.array(hostileText(6), { maxLength: 4 }).map((items) => ['x', ...items].join(',')),
    }),
    fc.record({ column: fc.constantFrom(...names), operator: fc.constant('is' as const), value: isValue }),
  ) as fc.Arbitrary<RowFilter>;
  const sort = fc.record({ column: fc.constantFrom(...names), ascending: fc.boolean() }) as fc.Arbitrary<RowSort>;
  const match = fc.tuple(...table.primaryKey.map(() => hostileText(10))).map((vals) => Object.fromEntries(table.primaryKey.map((k, i) => [k, vals[i]])));
  const writable = table.columns.filter((c) => c.typname !== 'json' && c.typname !== 'jsonb' && c.category !== 'A');
  const values = fc
    .subarray(writable, { minLength: 1 })
    .chain((cols) => fc.tuple(...cols.map(() => hostileText(12))).map((vals) => Object.fromEntries(cols.map((c, i) => [c.name, vals[i]]))));
  return fc.record({
    table: fc.constant(table),
    filters: fc.array(filter, { maxLength: 4 }),
    sorts: fc.array(sort, { maxLength: 3 }),
    matches: fc.array(match, { minLength: 1, maxLength: 3 }),
    values,
    column: fc.constantFrom(...names),
    page: fc.integer({ min: -3, max: 1_000_000 }),
    limit: fc.oneof(fc.constantFrom(100, 500, 1000), fc.integer()),
    delimiter: fc.constantFrom(',', ';', '\t', '|', "'"),
  });
});

/** The literals a filter may put in the statement. */
function filterLiterals(filter: RowFilter): string[] {
  if (filter.operator === 'is') return [];
  if (filter.operator === 'in') return filter.value.split(',').map((s) => s.trim()).filter(Boolean);
  return [filter.value];
}

function checkStatement(sql: string, table: TableMeta, allowedLiterals: ReadonlySet<string>) {
  const { idents, literals, skeleton } = scan(sql);
  const names = new Set([table.schema, table.name, ...table.columns.map((c) => c.name)]);
  for (const name of idents) if (!names.has(name)) throw new Error(`Unexpected identifier ${JSON.stringify(name)} in ${sql}`);
  for (const text of literals) if (!allowedLiterals.has(text)) throw new Error(`Unexpected literal ${JSON.stringify(text)} in ${sql}`);
  // Outside quotes: plain SQL words, numbers and punctuation only.
  if (!/^[a-z0-9_ ()*.,:=<>|IL+-]*$/.test(skeleton) || skeleton.includes('--')) throw new Error(`Unexpected text outside quotes: ${skeleton}`);
  if (statementHeads(sql).length !== 1) throw new Error(`Not exactly one statement: ${sql}`);
  // The relation is always named schema-qualified, quoted, as it is.
  if (!sql.includes(`"${table.schema.replace(/"/g, '""')}"."${table.name.replace(/"/g, '""')}"`)) throw new Error(`Relation missing in ${sql}`);
}

describe(`row statement builders on hostile names and values (pure properties, ${RUNS.toLocaleString('en-US')} cases each)`, () => {
  it('select, count, estimate and export: one statement, only the table names and filter values in quotes', () => {
    let cases = 0;
    fc.assert(
      fc.property(caseArb, ({ table, filters, sorts, page, limit }) => {
        const allowed = new Set(['...', ...filters.flatMap(filterLiterals)]);
        const select = selectRowsStatement(table, { filters, sorts, page, limit });
        checkStatement(select.text, table, allowed);
        expect(select.text).toMatch(/ limit (100|500|1000) offset \d+\) as page/);
        if (sorts.length) expect(select.text).toContain(' nulls last');
        checkStatement(countRowsStatement(table, filters), table, allowed);
        checkStatement(estimateRowsStatement(table, filters), table, allowed);
        checkStatement(exportRowsStatement(table, { filters, sorts }), table, allowed);
        checkStatement(exportCountStatement(table, { filters }, 500_000), table, allowed);
        cases++;
      }),
      { numRuns: RUNS },
    );
    expect(cases).toBe(RUNS);
  }, TIMEOUT);

  it('insert, update, delete, full value and import: one statement, only the names, keys and values sent in quotes', () => {
    fc.assert(
      fc.property(caseArb, ({ table, filters, matches, values, column, delimiter }) => {
        const keyValues = matches.flatMap((m) => Object.values(m) as string[]);
        const writeValues = Object.values(values) as string[];
        checkStatement(insertRowStatement(table, values), table, new Set(writeValues));
        checkStatement(updateRowStatement(table, matches[0]!, values), table, new Set([...writeValues, ...Object.values(matches[0]!)]));
        checkStatement(deleteRowsStatement(table, { matches }), table, new Set(keyValues));
        checkStatement(deleteRowsStatement(table, { matches, filters }), table, new Set([...keyValues, ...filters.flatMap(filterLiterals)]));
        checkStatement(fullValueStatement(table, matches[0]!, column), table, new Set(Object.values(matches[0]!) as string[]));
        checkStatement(exportRowsStatement(table, { matches }), table, new Set(keyValues));
        checkStatement(truncateTableStatement(table), table, new Set());
        checkStatement(importRowsStatement(table, table.columns.map((c) => c.name), { header: true, delimiter }), table, new Set([delimiter]));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("refuses with the spec's messages: no filters for a delete or an update, no value to insert, no primary key", () => {
    fc.assert(
      fc.property(caseArb, ({ table, sorts }) => {
        expect(() => deleteRowsStatement(table, {})).toThrow(ServiceMessages.noFiltersForDelete);
        expect(() => deleteRowsStatement(table, { filters: [], matches: [] })).toThrow(ServiceMessages.noFiltersForDelete);
        expect(() => updateRowStatement(table, {}, { [table.columns[0]!.name]: 'x' })).toThrow(ServiceMessages.noFiltersForUpdate);
        expect(() => insertRowStatement(table, {})).toThrow(ServiceMessages.noValueToInsert);
        const keyless: TableMeta = { ...table, primaryKey: [] };
        const match = { [table.columns[0]!.name]: 'x' };
        expect(() => updateRowStatement(keyless, match, match)).toThrow(Messages.noPrimaryKeyForWrite);
        expect(() => deleteRowsStatement(keyless, { matches: [match] })).toThrow(Messages.noPrimaryKeyForWrite);
        expect(() => fullValueStatement(keyless, match, table.columns[0]!.name)).toThrow(Messages.noPrimaryKeyForValue);
        // A keyless table still pages, in the order of its sorts or none.
        checkStatement(selectRowsStatement(keyless, { sorts }).text, keyless, new Set(['...']));
      }),
      { numRuns: 2_000 },
    );
  }, TIMEOUT);

  it('the scanner used above finds injected text outside quotes (sanity check of the property)', () => {
    const table: TableMeta = { id: 1, schema: 's', name: 't', kind: 'r', primaryKey: ['id'], columns: [col('id', 'text', 'S')] };
    expect(() => checkStatement(`select * from "s"."t"; drop table x`, table, new Set())).toThrow(/outside quotes/);
    expect(() => checkStatement(`select * from "s"."t" where "id" = 'a' -- '`, table, new Set(['a', ' ']))).toThrow(/outside quotes|Unclosed/);
    expect(() => checkStatement(`select * from "s"."t" where "other" = 'a'`, table, new Set(['a']))).toThrow(/Unexpected identifier/);
    expect(() => checkStatement(`select * from "s"."t" where "id" = 'b'`, table, new Set(['a']))).toThrow(/Unexpected literal/);
    expect(() => checkStatement(`select * from "s"."t" where "id" = 'a'`, table, new Set(['a']))).not.toThrow();
  });
});
