import { CompletionContext, type Completion, type CompletionResult } from '@codemirror/autocomplete';
import { PostgreSQL, schemaCompletionSource, sql } from '@codemirror/lang-sql';
import { EditorState } from '@codemirror/state';
import type { PlanNode } from '@dash/contracts';
import { newRunId } from '../src/workbench/browser';
import { commandOutcome, copiedCell, defaultResultIndex, resultLabel, rowsToTsv, tsvField } from '../src/workbench/cells';
import { catalogNamespace, columnCompletionSource, functionCompletionSource, referencedRelations, sqlIdentifier } from '../src/workbench/editor/completion';
import { failureOf } from '../src/workbench/outcome';
import { mostExpensivePath, nodeTitle, ownCost, relationOf } from '../src/workbench/plan';
import { DEFAULT_ROLE_CHOICE, INVALID_SUB, roleChoiceProblem, roleLabel, runAsOf } from '../src/workbench/run-as';
import { codePointsToIndex, errorLocation, isEmptySql, locationOf, minimalChange, splitStatements, statementOfResult, targetOf } from '../src/workbench/sql-text';
import { SUB, analyzedPlan, catalog, multiStatement, plan, select, writesOnly } from './workbench-fixtures';

describe('error positions', () => {
  it('turns Postgres character positions into JS indexes past astral characters', () => {
    const text = "select '😀😀', x";
    // Postgres counts 😀 as one character, JS as two units.
    expect(codePointsToIndex(text, 13)).toBe(15);
    expect(text.slice(codePointsToIndex(text, 13))).toBe('x');
    expect(codePointsToIndex('abc', 10)).toBe(3);
  });

  it('gives 1-based lines and columns, columns in characters', () => {
    expect(locationOf('select 1;\nselect x', 17)).toEqual({ index: 17, line: 2, column: 8 });
    expect(locationOf('a😀b', 3)).toEqual({ index: 3, line: 1, column: 3 });
    expect(locationOf('', 0)).toEqual({ index: 0, line: 1, column: 1 });
  });

  it('places a position of a selection run in the whole document', () => {
    const doc = 'select 1;\nselect 2;\n  select * from nope;';
    const from = doc.indexOf('select * from');
    const sent = { text: doc.slice(from), offset: from };
    // "nope" is character 15 of the text sent.
    expect(errorLocation(doc, sent, 15)).toEqual({ index: doc.indexOf('nope'), line: 3, column: 17 });
    // Past the end (an unfinished statement): the end of the text.
    expect(errorLocation(doc, sent, 999).index).toBe(doc.length);
  });
});

describe('statements of a text', () => {
  const texts = (sqlText: string) => splitStatements(sqlText).map((s) => s.text);

  it('splits at semicolons outside strings, identifiers, dollar quotes and comments', () => {
    expect(texts("select 'a;b'; select \"x;y\" from t;")).toEqual(["select 'a;b'", 'select "x;y" from t']);
    expect(texts("select 'it''s; fine'; select 2")).toEqual(["select 'it''s; fine'", 'select 2']);
    expect(texts("select E'a\\';b'; select 2")).toEqual(["select E'a\\';b'", 'select 2']);
    expect(texts('create function f() returns int as $body$ select 1; $body$ language sql; select f()')).toEqual([
      'create function f() returns int as $body$ select 1; $body$ language sql',
      'select f()',
    ]);
    expect(texts('do $$ begin raise notice $q$;$q$; end $$;')).toEqual(['do $$ begin raise notice $q$;$q$; end $$']);
    expect(texts('select 1 /* a; /* nested; */ still; */; -- x;\nselect 2')).toEqual(['select 1', 'select 2']);
    expect(texts('select /* ; */ 1; select 2 -- ;')).toEqual(['select /* ; */ 1', 'select 2']);
    expect(texts('select 1 -- x\r; select 2')).toEqual(['select 1', 'select 2']);
    expect(texts('prepare p as select $1; execute p(1)')).toEqual(['prepare p as select $1', 'execute p(1)']);
    expect(texts('select a$b$c from t; select 2')).toEqual(['select a$b$c from t', 'select 2']);
  });

  it('leaves out statements of blanks and comments, and finds texts with none', () => {
    expect(texts(';; -- only a comment\n ; /* and this */ ;')).toEqual([]);
    expect(isEmptySql('  \n -- nothing\n;')).toBe(true);
    expect(isEmptySql('/* a */ select 1')).toBe(false);
    expect(splitStatements('  select 1 ;\n')).toEqual([{ from: 2, to: 10, text: 'select 1' }]);
  });

  it('finds the statement of a result when the counts match, else keeps the text', () => {
    expect(statementOfResult('select 1; select 2;', 2, 1)).toBe('select 2');
    expect(statementOfResult('select 1;', 1, 0)).toBe('select 1');
    expect(statementOfResult('begin atomic select 1; end; select 2', 2, 1)).toBe('begin atomic select 1; end; select 2');
  });

  it('runs the selection, or the whole text without one', () => {
    expect(targetOf('select 1; select 2', { from: 10, to: 18 })).toEqual({ text: 'select 2', from: 10, to: 18, isSelection: true });
    expect(targetOf('select 1', { from: 3, to: 3 })).toEqual({ text: 'select 1', from: 0, to: 8, isSelection: false });
    expect(targetOf('select 1', null).isSelection).toBe(false);
  });

  it('replaces only what changed', () => {
    expect(minimalChange('select 1 from t', 'select 2 from t')).toEqual({ from: 7, to: 8, insert: '2' });
    expect(minimalChange('abc', 'abc')).toBeNull();
    expect(minimalChange('', 'x')).toEqual({ from: 0, to: 0, insert: 'x' });
  });
});

describe('cells and result labels', () => {
  it('copies cells as text and rows as TSV', () => {
    expect(copiedCell(null)).toBe('');
    expect(copiedCell({ a: [1] })).toBe('{"a":[1]}');
    expect(copiedCell(true)).toBe('true');
    expect(tsvField('a\tb')).toBe('"a\tb"');
    expect(tsvField('line\nbreak')).toBe('"line\nbreak"');
    expect(tsvField('"quoted"')).toBe('"""quoted"""');
    expect(tsvField('say "hi"')).toBe('say "hi"');
    const result = select([['a', 'int4'], ['a', 'int4']], [[1, 2], [3, null], [5, 6]]);
    expect(rowsToTsv(result.columns, result.rows, [2, 0])).toBe('a\ta\n5\t6\n1\t2');
  });

  it('labels results by number, command and rows', () => {
    const labels = multiStatement.results.map(resultLabel);
    expect(labels).toEqual(['1 DO', '2 CREATE', '3 INSERT · 3 rows', '4 SELECT · 3 rows', '5 SELECT · 1 row']);
    expect(resultLabel(select([['n', 'int4']], [], { rowCount: 0 }), 0)).toBe('1 SELECT · 0 rows');
    expect(resultLabel({ ...select([['n', 'int4']], [[1]]), command: 'INSERT', rowCount: 1 }, 1)).toBe('2 INSERT · 1 row');
    expect(commandOutcome(writesOnly.results[1]!)).toBe('3 rows affected');
    expect(commandOutcome(writesOnly.results[0]!)).toBe('Success. No rows returned');
    expect(commandOutcome({ command: 'DELETE', columns: [], rows: [], rowCount: 1, truncated: false })).toBe('1 row affected');
  });

  it('opens the last result with columns, else the last one', () => {
    expect(defaultResultIndex(multiStatement.results)).toBe(4);
    expect(defaultResultIndex([...multiStatement.results.slice(3), ...writesOnly.results])).toBe(1);
    expect(defaultResultIndex(writesOnly.results)).toBe(1);
    expect(defaultResultIndex([])).toBe(-1);
  });
});

describe('plans', () => {
  it('finds the node that costs most by itself', () => {
    expect(ownCost(plan.plan, false)).toBeCloseTo(40.5 - 32.6 - 1.04);
    expect(mostExpensivePath(plan.plan, false)).toBe('0');
    expect(mostExpensivePath(analyzedPlan.plan, true)).toBe('0');
    // With loops: a node run 100 times at 0.05 ms each costs 5 ms.
    const looped: PlanNode = {
      'Node Type': 'Nested Loop',
      'Startup Cost': 0,
      'Total Cost': 10,
      'Plan Rows': 1,
      'Plan Width': 4,
      'Actual Total Time': 6,
      'Actual Loops': 1,
      Plans: [
        { 'Node Type': 'Seq Scan', 'Startup Cost': 0, 'Total Cost': 9, 'Plan Rows': 1, 'Plan Width': 4, 'Actual Total Time': 0.5, 'Actual Loops': 1 },
        { 'Node Type': 'Index Scan', 'Startup Cost': 0, 'Total Cost': 0.5, 'Plan Rows': 1, 'Plan Width': 4, 'Actual Total Time': 0.05, 'Actual Loops': 100 },
      ],
    };
    expect(ownCost(looped, true)).toBeCloseTo(0.5);
    expect(mostExpensivePath(looped, true)).toBe('1');
    expect(mostExpensivePath(looped, false)).toBe('0');
  });

  it('names nodes and what they read as EXPLAIN does', () => {
    const node = (extra: Record<string, unknown>): PlanNode => ({ 'Node Type': 'Seq Scan', 'Startup Cost': 0, 'Total Cost': 1, 'Plan Rows': 1, 'Plan Width': 1, ...extra });
    expect(nodeTitle(node({ 'Node Type': 'Hash Join', 'Join Type': 'Left' }))).toBe('Hash Left Join');
    expect(nodeTitle(node({ 'Node Type': 'Nested Loop', 'Join Type': 'Anti' }))).toBe('Nested Loop Anti Join');
    expect(nodeTitle(node({ 'Node Type': 'Aggregate', Strategy: 'Hashed' }))).toBe('HashAggregate');
    expect(nodeTitle(node({ 'Parallel Aware': true }))).toBe('Parallel Seq Scan');
    expect(nodeTitle(node({ 'Node Type': 'Index Scan', 'Scan Direction': 'Backward' }))).toBe('Index Scan Backward');
    expect(relationOf(node({ 'Relation Name': 'orders', Schema: 'public', Alias: 'orders' }))).toBe('on public.orders');
    expect(relationOf(node({ 'Node Type': 'Index Scan', 'Index Name': 'orders_pkey', 'Relation Name': 'orders', Schema: 'public', Alias: 'o' }))).toBe(
      'using orders_pkey on public.orders o',
    );
    expect(relationOf(node({ 'Node Type': 'CTE Scan', 'CTE Name': 'daily', Alias: 'daily' }))).toBe('on daily');
    expect(relationOf(node({ 'Node Type': 'Result' }))).toBeUndefined();
  });
});

describe('the role a query runs as', () => {
  it('sends no runAs for postgres, the role for anon and service_role, claims for authenticated', () => {
    expect(runAsOf(DEFAULT_ROLE_CHOICE)).toBeUndefined();
    expect(runAsOf({ role: 'anon', sub: SUB, email: 'x@y.z' })).toEqual({ role: 'anon' });
    expect(runAsOf({ role: 'service_role', sub: '', email: '' })).toEqual({ role: 'service_role' });
    expect(runAsOf({ role: 'authenticated', sub: ` ${SUB} `, email: '' })).toEqual({ role: 'authenticated', claims: { aud: 'authenticated', sub: SUB } });
    expect(runAsOf({ role: 'authenticated', sub: '', email: '' })).toEqual({ role: 'authenticated', claims: { aud: 'authenticated' } });
  });

  it('wants a UUID as the sub, and names the choice', () => {
    expect(roleChoiceProblem({ role: 'authenticated', sub: 'abc', email: '' })).toBe(INVALID_SUB);
    expect(roleChoiceProblem({ role: 'authenticated', sub: SUB.toUpperCase(), email: '' })).toBeUndefined();
    expect(roleChoiceProblem({ role: 'anon', sub: 'abc', email: '' })).toBeUndefined();
    expect(roleLabel({ role: 'authenticated', sub: SUB, email: '' })).toBe('authenticated (4d3c2b1a…)');
    expect(roleLabel({ role: 'authenticated', sub: SUB, email: 'ada@example.com' })).toBe('authenticated (ada@example.com)');
  });
});

describe('run ids and failures', () => {
  it('makes a v4 UUID with or without crypto.randomUUID (plain http)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newRunId()).toMatch(uuid);
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 50 }, newRunId));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(uuid);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('reads statement errors, other replies and network failures', () => {
    expect(failureOf({ status: 400, data: { statusCode: 400, error: 'Bad Request', message: 'boom', code: '42601', position: 3, hint: 'h' } })).toEqual({
      message: 'boom',
      code: '42601',
      position: 3,
      hint: 'h',
    });
    expect(failureOf({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toEqual({ message: 'TypeError: Failed to fetch' });
    expect(failureOf({ status: 502, data: '<html>' })).toEqual({ message: 'The request failed (HTTP 502)' });
    expect(failureOf({ status: 400, data: { message: 'x', position: 0 } })).toEqual({ message: 'x' });
  });
});

describe('completion from the catalog', () => {
  const complete = (source: (c: CompletionContext) => CompletionResult | null | Promise<CompletionResult | null>, doc: string, pos = doc.length) => {
    const state = EditorState.create({ doc, extensions: [sql({ dialect: PostgreSQL })] });
    return source(new CompletionContext(state, pos, true)) as CompletionResult | null;
  };
  const labels = (result: CompletionResult | null) => (result?.options ?? []).map((o: Completion) => o.label).sort();
  const schemaSource = schemaCompletionSource({ dialect: PostgreSQL, schema: catalogNamespace(catalog), defaultSchema: 'public' });

  it('offers schemas and the public tables at the top, and a table’s columns after its name', () => {
    const top = labels(complete(schemaSource, 'select * from '));
    expect(top).toEqual(expect.arrayContaining(['auth', 'public', 'orders', 'Customers', 'daily_totals']));
    expect(labels(complete(schemaSource, 'select orders.'))).toEqual(['id', 'total']);
    expect(labels(complete(schemaSource, 'select * from auth.'))).toEqual(['users']);
    expect(labels(complete(schemaSource, 'select auth.users.'))).toEqual(['email']);
    // An alias of the FROM clause leads to its table's columns.
    expect(labels(complete(schemaSource, 'select o. from orders o', 'select o.'.length))).toEqual(['id', 'total']);
  });

  it('quotes names Postgres would fold, and shows types as details', () => {
    const top = complete(schemaSource, 'select * from ')!.options;
    expect(top.find((o) => o.label === 'Customers')).toMatchObject({ apply: '"Customers"', detail: 'table' });
    expect(top.find((o) => o.label === 'daily_totals')).toMatchObject({ detail: 'view' });
    expect(top.find((o) => o.label === 'orders')!.apply).toBeUndefined();
    const columns = complete(schemaSource, 'select "Customers".')!.options;
    expect(columns[0]).toMatchObject({ label: 'Full Name', detail: 'text' });
    expect(sqlIdentifier('a"b')).toBe('"a""b"');
    expect(sqlIdentifier('snake_case1')).toBe('snake_case1');
  });

  it('offers functions: public ones unqualified, a schema’s after its name, overloads once', () => {
    const source = functionCompletionSource(catalog.functions);
    const plain = complete(source, 'select order_');
    expect(labels(plain)).toEqual(['order_total']);
    expect(plain!.options[0]).toMatchObject({ type: 'function', detail: '2 overloads' });
    expect(plain!.from).toBe('select '.length);
    expect(labels(complete(source, 'select auth.'))).toEqual(['uid']);
    expect(complete(source, 'select auth.')!.options[0]!.detail).toBe('() → uuid');
    expect(complete(source, "select 'order_")).toBeNull();
    expect(complete(source, 'select nothing.x')).toBeNull();
  });

  it('offers the columns of the tables a statement names, or of every public table before it names one', () => {
    const source = columnCompletionSource(catalog);
    // No FROM yet (the select list first): every public table's columns, with their tables.
    const early = complete(source, 'select to');
    expect(labels(early)).toEqual(['Full Name', 'day', 'id', 'total']);
    expect(early!.options.find((o) => o.label === 'total')).toMatchObject({ detail: 'numeric · orders', type: 'property' });
    expect(early!.options.find((o) => o.label === 'Full Name')).toMatchObject({ apply: '"Full Name"' });
    // With FROM: only the columns of the named tables, ranked above keywords.
    const named = complete(source, 'select em from auth.users u; select 2', 'select em'.length);
    expect(labels(named)).toEqual(['email']);
    expect(named!.options[0]!.boost).toBe(1);
    expect(labels(complete(source, 'select  from orders join "Customers" c on true', 'select '.length))).toEqual(['Full Name', 'id', 'total']);
    // Qualified names and strings are someone else's business.
    expect(complete(source, 'select orders.to')).toBeNull();
    expect(complete(source, "select 'to")).toBeNull();
  });

  it('reads the relations a statement names', () => {
    expect(referencedRelations('select * from orders o join auth.users u on true')).toEqual(['public.orders', 'auth.users']);
    expect(referencedRelations('insert into "My"."Table" values (1); update Orders set x = 1')).toEqual(['My.Table', 'public.orders']);
    expect(referencedRelations('select 1')).toEqual([]);
  });
});
