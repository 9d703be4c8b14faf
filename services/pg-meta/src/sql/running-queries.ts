import type { SqlQuery } from '@dash/service-kit';

/*
 * The running-queries panel: the project database's active queries (the spec's pg_stat_activity query,
 * limited to the project's own database) and ending one of its backends.
 */

/**
 * Active queries on the project's database, oldest first, without the backend asking. Backends of roles
 * the caller may not see (another role's session without pg_read_all_stats shows no query and no
 * query_start) are left out: they cannot be shown, nor ended by this role.
 */
export function listRunningQueriesQuery(): SqlQuery {
  return {
    text: `
select a.pid, a.query, a.query_start
from pg_catalog.pg_stat_activity a
where a.state = 'active'
  and a.datname = current_database()
  and a.pid <> pg_catalog.pg_backend_pid()
  and a.query_start is not null
order by a.query_start, a.pid`,
    values: [],
  };
}

/** How long `pg_terminate_backend` waits for the backend to be gone, so the list no longer shows it. */
export const TERMINATE_WAIT_MS = 3_000;

/**
 * Ends backend `pid`, only if it is a backend of the project's own database (and not the one asking):
 * no row when it is not, `terminated` false when Postgres could not end it (gone meanwhile, or still
 * going after the wait). Postgres refuses a backend of a role the caller is not a member of (42501).
 */
export function terminateBackendQuery(pid: number): SqlQuery {
  return {
    text: `
select a.pid, pg_catalog.pg_terminate_backend(a.pid, $2::int8) as terminated
from pg_catalog.pg_stat_activity a
where a.pid = $1::int4
  and a.datname = current_database()
  and a.pid <> pg_catalog.pg_backend_pid()`,
    values: [pid, TERMINATE_WAIT_MS],
  };
}
