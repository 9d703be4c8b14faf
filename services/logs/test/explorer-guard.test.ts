import { ExplorerMessages, LOG_EXPLORER_TABLES } from '@dash/contracts';
import { guardExplorerSql, loadExplorerParser } from '../src/sql/explorer-guard';

beforeAll(async () => {
  await loadExplorerParser();
});

const accepted = (sql: string) => {
  const result = guardExplorerSql(sql);
  if (!result.ok) throw new Error(`refused: ${result.message}\n${sql}`);
  return result.tables;
};

const refused = (sql: string) => {
  const result = guardExplorerSql(sql);
  if (result.ok) throw new Error(`accepted: ${sql}`);
  return result;
};

describe('accepted queries', () => {
  it.each([
    ['a plain select', `select id, "timestamp", event_message from edge_logs order by "timestamp" desc limit 10`, ['edge_logs']],
    ['JSON accessors and casts', `select metadata->>'path' as path, (metadata->>'status')::int as status, metadata #>> '{a,b}' from edge_logs where (metadata->>'duration_ms')::float8 > 100`, ['edge_logs']],
    ['group by, having, count distinct', `select metadata->>'path', count(*), count(distinct metadata->>'user_agent') from edge_logs group by 1 having count(*) > 1`, ['edge_logs']],
    ['percentiles within group', `select percentile_cont(0.95) within group (order by (metadata->>'duration_ms')::numeric) from edge_logs`, ['edge_logs']],
    ['window functions', `select id, row_number() over (partition by metadata->>'path' order by "timestamp"), lag("timestamp") over w from edge_logs window w as (order by "timestamp")`, ['edge_logs']],
    ['CTEs naming themselves', `with errors as (select * from postgres_logs where metadata->>'error_severity' = 'ERROR'), by_code as (select metadata->>'sql_state_code' as code, count(*) from errors group by 1) select * from by_code`, ['postgres_logs']],
    ['a CTE shadowing a log table', `with edge_logs as (select 1 as n) select * from edge_logs`, []],
    ['a recursive CTE', `with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r`, []],
    ['unions over several tables', `select 'auth' as source, "timestamp" from auth_logs union all select 'storage', "timestamp" from storage_logs order by 2 desc`, ['auth_logs', 'storage_logs']],
    ['subqueries and joins', `select e.id from edge_logs e join (select id from edge_logs where event_message like '%x%') s on s.id = e.id where exists (select 1 from postgrest_logs p where p.id = e.id) and e.id in (select id from edge_logs)`, ['edge_logs', 'postgrest_logs']],
    ['set-returning functions and lateral', `select k, v from edge_logs, lateral jsonb_each_text(metadata) as kv(k, v)`, ['edge_logs']],
    ['jsonb_to_record with a column list', `select r.* from edge_logs, jsonb_to_record(metadata) as r(path text, status int)`, ['edge_logs']],
    ['generate_series', `select g from generate_series(now() - interval '1 hour', now(), interval '5 minutes') g`, []],
    ['SQL-syntax functions', `select extract(epoch from "timestamp"), trim(both ' ' from event_message), position('a' in event_message), substring(event_message from 1 for 3), "timestamp" at time zone 'UTC', coalesce(metadata->>'x', 'y'), nullif(1, 2), greatest(1, 2), least(1, 2), current_timestamp from realtime_logs`, ['realtime_logs']],
    ['case, like, similar, between, any', `select case when event_message ilike '%err%' then 1 else 0 end from pooler_logs where event_message similar to '%a%' and 1 between 0 and 2 and 1 = any(array[1, 2]) and (1, 2) is distinct from (3, 4)`, ['pooler_logs']],
    ['date_bin and date_trunc', `select date_bin('5 minutes', "timestamp", timestamptz '2000-01-01'), date_trunc('hour', "timestamp"), count(*) from edge_logs group by 1, 2`, ['edge_logs']],
    ['grouping sets', `select metadata->>'method', metadata->>'path', grouping(metadata->>'method'), count(*) from edge_logs group by rollup (1, 2)`, ['edge_logs']],
    ['collection events', `select collection, count(*) from collection_events group by 1`, ['collection_events']],
    ['schema-qualified builtins', `select pg_catalog.now(), pg_catalog.lower('A')`, []],
    ['values and a trailing semicolon', `values (1), (2);`, []],
    ['every log table at once', LOG_EXPLORER_TABLES.map((t) => `select id from ${t}`).join(' union all '), [...LOG_EXPLORER_TABLES]],
  ])('%s', (_name, sql, tables) => {
    expect(accepted(sql)).toEqual(tables);
  });
});

describe('the statement it hands on', () => {
  it('is the statement alone, with where it starts', () => {
    const sql = `-- é first\n  select 1 from edge_logs ; -- trailing`;
    const result = guardExplorerSql(sql);
    expect(result).toMatchObject({ ok: true, statement: 'select 1 from edge_logs ', offset: sql.indexOf('select') });
    expect(guardExplorerSql('select 1')).toMatchObject({ statement: 'select 1', offset: 0 });
  });
});

describe('refused queries', () => {
  it.each([
    ['insert', `insert into edge_logs (event_message) values ('x')`],
    ['update', `update edge_logs set event_message = ''`],
    ['delete', `delete from edge_logs`],
    ['DDL', `create table x (a int)`],
    ['drop', `drop view log_tables.edge_logs`],
    ['set', `set role postgres`],
    ['reset', `reset role`],
    ['explain', `explain select * from edge_logs`],
    ['copy', `copy (select 1) to stdout`],
    ['a transaction statement', `commit`],
    ['do', `do $$ begin perform 1; end $$`],
    ['call', `call p()`],
    ['grant', `grant select on edge_logs to public`],
  ])('%s: "Only SELECT queries are allowed"', (_name, sql) => {
    expect(refused(sql).message).toBe(ExplorerMessages.onlySelect);
  });

  it('refuses data-modifying CTEs', () => {
    for (const verb of ['delete from edge_logs returning *', 'insert into edge_logs default values returning *', `update edge_logs set event_message = '' returning *`]) {
      const result = refused(`with d as (${verb}) select * from d`);
      expect(result.message).toBe(ExplorerMessages.onlySelect);
      expect(result.position).toBe(6);
    }
  });

  it('refuses a second statement and points at it', () => {
    const sql = 'select 1 from edge_logs; select 2';
    expect(refused(sql)).toEqual({ ok: false, message: ExplorerMessages.oneStatement, position: sql.indexOf('select 2') + 1 });
    expect(refused(`select 1; delete from edge_logs`).message).toBe(ExplorerMessages.oneStatement);
  });

  it('refuses an empty query', () => {
    expect(refused('').message).toBe(ExplorerMessages.empty);
    expect(refused('  -- just a comment\n').message).toBe(ExplorerMessages.empty);
  });

  it.each([
    ['another schema', `select * from logs.events`, 'logs.events'],
    ['a view by its own schema', `select * from log_tables.edge_logs`, 'log_tables.edge_logs'],
    ['a catalog table', `select * from pg_authid`, 'pg_authid'],
    ['a qualified catalog table', `select * from pg_catalog.pg_class`, 'pg_catalog.pg_class'],
    ['a platform table', `select * from public.users`, 'public.users'],
    ['an unknown table', `select * from events`, 'events'],
    ['a table in a subquery', `select * from edge_logs where id in (select id from pg_stat_activity)`, 'pg_stat_activity'],
    ['a table in a join', `select * from edge_logs e join logs.events x on x.id = e.id`, 'logs.events'],
    ['a table in a CTE', `with x as (select * from pg_roles) select * from x`, 'pg_roles'],
    ['a database-qualified name', `select * from dash.logs.events`, 'dash.logs.events'],
    ['a table in a union arm', `select id from edge_logs union select oid::text::uuid from pg_class`, 'pg_class'],
  ])('refuses %s and names it', (_name, sql, table) => {
    const result = refused(sql);
    expect(result.message).toBe(ExplorerMessages.notLogTable(table));
    expect(result.message).toContain('use one of edge_logs, postgres_logs');
    expect(sql.slice(result.position! - 1)).toMatch(new RegExp(`^${table.split('.')[0]}`));
  });

  it('does not let a CTE name reach outside its scope', () => {
    // `pg_class` here is the catalog table: the CTE of that name is visible only inside the subquery.
    const sql = `select * from (with pg_class as (select 1) select * from pg_class) s, pg_class`;
    const result = refused(sql);
    expect(result.message).toBe(ExplorerMessages.notLogTable('pg_class'));
    expect(result.position).toBe(sql.lastIndexOf('pg_class') + 1);
    // A plain WITH's query cannot see itself or a later sibling.
    expect(refused(`with a as (select * from b), b as (select 1) select * from a`).message).toBe(ExplorerMessages.notLogTable('b'));
    expect(refused(`with a as (select * from a) select * from a`).message).toBe(ExplorerMessages.notLogTable('a'));
    expect(accepted(`with a as (select 1), b as (select * from a) select * from b`)).toEqual([]);
  });

  it.each([
    ['pg_sleep', `select pg_sleep(10)`],
    ['set_config', `select set_config('role', 'postgres', true)`],
    ['current_setting', `select current_setting('dash.project_ref')`],
    ['pg_read_file', `select pg_read_file('/etc/passwd')`],
    ['dblink', `select * from dblink('host=x', 'select 1') as t(a int)`],
    ['lo_import', `select lo_import('/etc/passwd')`],
    ['query_to_xml', `select query_to_xml('select * from logs.events', true, true, '')`],
    ['pg_catalog.set_config', `select pg_catalog.set_config('a.b', 'c', false)`],
    ['public.lower', `select public.lower('A')`],
    ['pg_terminate_backend', `select pg_terminate_backend(1)`],
    ['nextval', `select nextval('s')`],
    ['txid_current', `select txid_current()`],
    ['repeat', `select repeat('x', 1000000000)`],
  ])('refuses the function %s', (name, sql) => {
    const result = refused(sql);
    expect(result.message).toBe(ExplorerMessages.functionNotAllowed(name));
    expect(sql.slice(result.position! - 1).startsWith(name)).toBe(true);
  });

  it('refuses functions hidden in arguments, filters, windows and FROM', () => {
    expect(refused(`select count(*) filter (where pg_sleep(1) is null) from edge_logs`).message).toBe(ExplorerMessages.functionNotAllowed('pg_sleep'));
    expect(refused(`select lower(pg_read_file('x'))`).message).toBe(ExplorerMessages.functionNotAllowed('pg_read_file'));
    expect(refused(`select row_number() over (order by pg_backend_pid())`).message).toBe(ExplorerMessages.functionNotAllowed('pg_backend_pid'));
    expect(refused(`select * from pg_ls_dir('.')`).message).toBe(ExplorerMessages.functionNotAllowed('pg_ls_dir'));
    expect(refused(`select * from edge_logs order by pg_sleep(1)`).message).toBe(ExplorerMessages.functionNotAllowed('pg_sleep'));
  });

  it('refuses locking clauses and SELECT INTO', () => {
    expect(refused(`select * from edge_logs for update`).message).toBe(ExplorerMessages.lockingNotAllowed);
    expect(refused(`select * from edge_logs for share skip locked`).message).toBe(ExplorerMessages.lockingNotAllowed);
    expect(refused(`select * from (select * from edge_logs for update) s`).message).toBe(ExplorerMessages.lockingNotAllowed);
    expect(refused(`select * into copied from edge_logs`).message).toBe(ExplorerMessages.selectIntoNotAllowed);
  });

  it('refuses casts to types that look up the catalog, and qualified operators', () => {
    expect(refused(`select 'pg_authid'::regclass`).message).toBe(ExplorerMessages.typeNotAllowed('regclass'));
    expect(refused(`select 'now()'::regprocedure`).message).toBe(ExplorerMessages.typeNotAllowed('regprocedure'));
    expect(refused(`select null::public.thing`).message).toBe(ExplorerMessages.typeNotAllowed('public.thing'));
    expect(refused(`select 1 operator(public.+) 1`).message).toBe(ExplorerMessages.notAllowed('Operator public.+'));
    expect(accepted(`select '1'::int, 1::bigint, '{}'::jsonb, now()::date, 1::double precision, ''::varchar(3), '{1}'::int[]`)).toEqual([]);
  });

  it('refuses other constructs by name', () => {
    expect(refused(`select * from edge_logs tablesample bernoulli (10)`).message).toBe(ExplorerMessages.notAllowed('TABLESAMPLE'));
    expect(refused(`select xmlelement(name a)`).message).toBe(ExplorerMessages.notAllowed('An XML function'));
    expect(refused(`select $1`).message).toBe(ExplorerMessages.notAllowed('A parameter ($n)'));
  });

  it("returns the parser's syntax error with its 1-based character position", () => {
    expect(refused('select from where')).toEqual({ ok: false, message: 'syntax error at or near "where"', position: 13 });
    // Positions count characters, not bytes.
    const sql = `select 'été' frm edge_logs`;
    const result = refused(sql);
    expect(result.message).toBe('syntax error at or near "edge_logs"');
    expect(result.position).toBe(sql.indexOf('edge_logs') + 1);
    const after = `select 'été' from pg_class`;
    expect(refused(after).position).toBe(after.indexOf('pg_class') + 1);
  });
});
