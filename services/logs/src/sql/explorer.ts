import type { LogExplorerTable } from '@dash/contracts';
import { EXPLORER_SESSION_SETTINGS, quoteIdent, quoteLiteral, type SqlQuery } from '@dash/service-kit';

/** The role explorer queries run as (migration 0010_explorer): it can read the `log_tables` views only. */
export const EXPLORER_ROLE = 'dash_logs_reader';
export const EXPLORER_SCHEMA = 'log_tables';

/** Histogram buckets start on multiples of the interval since this origin (whole minutes, hours, days in UTC). */
const BUCKET_ORIGIN = `timestamptz '2000-01-01 00:00:00+00'`;

export interface ExplorerSession {
  ref: string;
  from: Date;
  to: Date;
  statementTimeoutMs: number;
}

/**
 * Opens the explorer's read-only transaction and makes its settings, all local to it, in one round trip
 * (a simple query of two statements; every value is a quoted literal): the project and range the
 * `log_tables` views filter on, the statement timeout and the memory of each sort or hash (the login
 * role's settings hold them too, and the temporary disk space, where `ensureServiceRoles` made that
 * role), a search path where unqualified names are the log tables (then the catalog's functions;
 * temporary objects last), UTC for time functions, and the reader role (`set_config('role', …, true)`
 * is `set local role`).
 */
export function explorerBeginSql(session: ExplorerSession): string {
  const settings: Array<[string, string]> = [
    ['dash.project_ref', session.ref],
    ['dash.range_from', session.from.toISOString()],
    ['dash.range_to', session.to.toISOString()],
    ['statement_timeout', String(Math.trunc(session.statementTimeoutMs))],
    ['work_mem', EXPLORER_SESSION_SETTINGS.work_mem],
    ['search_path', `${EXPLORER_SCHEMA}, pg_catalog, pg_temp`],
    ['TimeZone', 'UTC'],
    ['role', EXPLORER_ROLE],
  ];
  return `begin read only; select ${settings.map(([name, value]) => `set_config(${quoteLiteral(name)}, ${quoteLiteral(value)}, true)`).join(', ')}`;
}

/**
 * The guarded statement with the rows it may return capped, one more than the browser sees to tell
 * whether there were more. A plain query, not a cursor, so Postgres may plan it in parallel. The line
 * breaks keep a trailing comment from swallowing the wrapper's end.
 */
export const EXPLORER_WRAP_PREFIX = 'select * from (\n';
export function cappedQuerySql(statement: string, maxRows: number): string {
  return `${EXPLORER_WRAP_PREFIX}${statement}\n) as explorer_query limit ${Math.trunc(maxRows) + 1}`;
}

/**
 * Events per interval over [from, to) in the given log tables together, one row per interval (0 when
 * empty). It runs in the explorer's transaction, so the views already hold only the project and range.
 */
export function histogramSql(tables: readonly LogExplorerTable[], from: Date, to: Date, intervalSeconds: number): SqlQuery {
  if (tables.length === 0) throw new Error('histogramSql needs at least one table');
  const events = tables.map((t) => `select "timestamp" from ${quoteIdent(EXPLORER_SCHEMA)}.${quoteIdent(t)}`).join(' union all ');
  return {
    text: `with counts as (
        select date_bin($3::interval, "timestamp", ${BUCKET_ORIGIN}) as start, count(*) as n
        from (${events}) as e group by 1
      )
      select s.start, coalesce(c.n, 0)::int8 as count
      from generate_series(date_bin($3::interval, $1::timestamptz, ${BUCKET_ORIGIN}), $2::timestamptz, $3::interval) as s(start)
      left join counts c on c.start = s.start
      where s.start < $2::timestamptz
      order by s.start`,
    values: [from.toISOString(), to.toISOString(), `${intervalSeconds} seconds`],
  };
}

/** The names of result column types. */
export function columnTypesSql(oids: readonly number[]): SqlQuery {
  return { text: `select oid::int as oid, format_type(oid, null) as name from pg_catalog.pg_type where oid = any($1::oid[])`, values: [[...new Set(oids)]] };
}

/**
 * Records a query the user ran (one run before moves to the top) and forgets all but their newest
 * `keep` in the project, in one statement. The delete reads the table as it was before the insert, so
 * it keeps the recorded query and the newest `keep - 1` others.
 */
export function recordRecentSql(userId: string, ref: string, sql: string, keep: number): SqlQuery {
  return {
    text: `with recorded as (
        insert into logs.explorer_recent (user_id, project_ref, sql) values ($1, $2, $3)
        on conflict (user_id, project_ref, sql_hash) do update set ran_at = now()
        returning id
      ), kept as (
        select id from recorded
        union all
        (select id from logs.explorer_recent
          where user_id = $1 and project_ref = $2 and id not in (select id from recorded)
          order by ran_at desc, id limit $4 - 1)
      )
      delete from logs.explorer_recent where user_id = $1 and project_ref = $2 and id not in (select id from kept)`,
    values: [userId, ref, sql, keep],
  };
}

export function listRecentSql(userId: string, ref: string, limit: number): SqlQuery {
  return {
    text: `select id, sql, ran_at from logs.explorer_recent where user_id = $1 and project_ref = $2 order by ran_at desc, id limit $3`,
    values: [userId, ref, limit],
  };
}
