import { quoteIdent, type SqlQuery } from '@dash/service-kit';
import { REPORT_TOP_ROWS, type QueryPerformanceOrder } from '@dash/contracts';

/*
 * The database report's statements: fixed SQL over the statistics views of the project database, run
 * as the project admin role (which sees its own roles' backends and statements, never the server's other
 * databases: every view is filtered to the current database).
 */

/** Size, connection limit and the cache hit ratios of tables and indexes (null before any block read). */
export function databaseOverviewQuery(): SqlQuery {
  return {
    text: `select pg_catalog.pg_database_size(pg_catalog.current_database())::int8 as database_size_bytes,
  pg_catalog.current_setting('max_connections')::int as max_connections,
  (select sum(heap_blks_hit)::float8 / nullif(sum(heap_blks_hit) + sum(heap_blks_read), 0) from pg_catalog.pg_statio_user_tables) as tables_hit,
  (select sum(idx_blks_hit)::float8 / nullif(sum(idx_blks_hit) + sum(idx_blks_read), 0) from pg_catalog.pg_statio_user_indexes) as indexes_hit`,
    values: [],
  };
}

/** Client backends on the project database per state; a backend whose state is hidden counts as `unknown`. */
export function connectionsByStateQuery(): SqlQuery {
  return {
    text: `select coalesce(state, 'unknown') as state, count(*)::int8 as count
from pg_catalog.pg_stat_activity
where datname = pg_catalog.current_database() and backend_type = 'client backend'
group by 1
order by count desc, state`,
    values: [],
  };
}

/** The largest tables and materialized views (with their indexes and TOAST), outside the system schemas. */
export function largestTablesQuery(): SqlQuery {
  return {
    text: `select n.nspname as schema, c.relname as name,
  pg_catalog.pg_total_relation_size(c.oid)::int8 as total_bytes,
  pg_catalog.pg_relation_size(c.oid)::int8 as table_bytes,
  pg_catalog.pg_indexes_size(c.oid)::int8 as index_bytes,
  c.reltuples::int8 as row_estimate
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_toast'
order by total_bytes desc, schema, name
limit $1::int`,
    values: [REPORT_TOP_ROWS],
  };
}

/**
 * Whether pg_stat_statements counts (the library defines its settings only when the server preloaded
 * it) and in which schema of this database the extension is, if it is created.
 */
export function statStatementsStateQuery(): SqlQuery {
  return {
    text: `select pg_catalog.current_setting('pg_stat_statements.max', true) is not null as loaded,
  (select n.nspname from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
   where e.extname = 'pg_stat_statements') as schema,
  pg_catalog.to_regprocedure('extensions.dash_statements()') is not null as scoped`,
    values: [],
  };
}

/**
 * The statements of this database with the highest mean (or total) execution time, from
 * `extensions.dash_statements()` (`scoped`: this database's rows, as the project bootstrap gives them)
 * or, in a database bootstrapped before it existed, from the view. Rows whose text the role may not see
 * (another role's statements, through the view) are left out: they could not be shown.
 */
export function slowestStatementsQuery(schema: string, order: QueryPerformanceOrder = 'mean', limit: number = REPORT_TOP_ROWS, scoped = true): SqlQuery {
  const column = order === 'mean' ? 's.mean_exec_time' : 's.total_exec_time';
  return {
    text: `select s.query, coalesce(r.rolname, '') as role, s.calls::int8 as calls,
  s.total_exec_time as total_ms, s.mean_exec_time as mean_ms, s.max_exec_time as max_ms, s.rows::int8 as rows
from ${scoped ? 'extensions.dash_statements()' : `${quoteIdent(schema)}.pg_stat_statements`} s
left join pg_catalog.pg_roles r on r.oid = s.userid
where s.dbid = (select oid from pg_catalog.pg_database where datname = pg_catalog.current_database())
  and s.query <> '<insufficient privilege>'
order by ${column} desc, s.queryid
limit $1::int`,
    values: [limit],
  };
}

/**
 * Forgets this database's statement statistics through the bootstrap's `extensions.dash_reset_statements()`
 * (pg_stat_statements_reset is the superuser's; the function resets the current database only).
 */
export function resetStatementsQuery(): SqlQuery {
  return { text: 'select extensions.dash_reset_statements()', values: [] };
}

/** Whether the project role may call the reset function (an older project's bootstrap did not make it). */
export function canResetStatementsQuery(): SqlQuery {
  return {
    text: `select coalesce(pg_catalog.has_function_privilege(pg_catalog.to_regprocedure('extensions.dash_reset_statements()'), 'execute'), false) as can_reset`,
    values: [],
  };
}
