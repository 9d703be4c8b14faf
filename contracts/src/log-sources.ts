import { Permission, type PermissionName } from './permissions';

/**
 * The log sources (shell spec §2, Logs). Each is a table of events (timestamp, event_message, metadata)
 * that the explorer reads under `table`, and a page under /project/{ref}/logs/{page}. `source` is the value
 * stored in logs.events.source.
 */
export const LOG_SOURCES = [
  { source: 'edge', table: 'edge_logs', page: 'edge-logs', label: 'API Gateway' },
  { source: 'postgres', table: 'postgres_logs', page: 'postgres-logs', label: 'Postgres' },
  { source: 'postgrest', table: 'postgrest_logs', page: 'postgrest-logs', label: 'PostgREST' },
  { source: 'pooler', table: 'pooler_logs', page: 'pooler-logs', label: 'Pooler', hostedOnly: true },
  { source: 'auth', table: 'auth_logs', page: 'auth-logs', label: 'Auth', permission: Permission.ProjectAuthAll },
  { source: 'storage', table: 'storage_logs', page: 'storage-logs', label: 'Storage', permission: Permission.ProjectStorageAll },
  { source: 'realtime', table: 'realtime_logs', page: 'realtime-logs', label: 'Realtime', permission: Permission.RealtimeAll },
] as const satisfies ReadonlyArray<{ source: string; table: string; page: string; label: string; permission?: PermissionName; hostedOnly?: boolean }>;

export type LogSourceName = (typeof LOG_SOURCES)[number]['source'];
export type LogSourceTable = (typeof LOG_SOURCES)[number]['table'];

/**
 * The metadata keys each source writes (beyond timestamp and event_message). Templates, reports and the
 * source pages' filters read these; a writer that adds a key adds it here.
 */
export interface LogMetadata {
  /** The gateway, one event per request it served. */
  edge: { method: string; path: string; status: number; duration_ms: number; response_bytes: number | null; query: string | null; user_agent: string | null };
  /** The project's Postgres server (jsonlog), one event per log line. */
  postgres: { error_severity: string; sql_state_code: string | null; user_name: string | null; database_name: string | null; backend_type: string | null; statement: string | null; detail: string | null; hint: string | null; duration_ms: number | null };
  /**
   * The project's data API (`/rest/v1`, the rest service), one event per request. `role` is the database
   * role it ran as (anon, authenticated, service_role), null when it was refused before one was known;
   * `query` the query string with credentials redacted.
   */
  postgrest: { method: string; path: string; status: number; duration_ms: number; role: string | null; query: string | null };
  pooler: { level: string; client: string | null };
  /**
   * The project's auth service, one event per request (`method`, `path`, `duration_ms`, and the GoTrue audit
   * action it did, if any), and the platform's sign-in, sign-out, MFA and token events of members.
   */
  auth: {
    action: PlatformAuthAction | AuthAuditAction | null;
    status: number;
    user_email: string | null;
    user_id: string | null;
    ip: string | null;
    level: 'info' | 'warning' | 'error';
    method?: string;
    path?: string;
    duration_ms?: number;
  };
  /** The storage service, one event per request. `bytes` is what moved: in for uploads, out for downloads. */
  storage: { method: string; path: string; status: number; duration_ms: number; bucket: string | null; object: string | null; operation: string; bytes: number; direction: 'in' | 'out' | null; role: string | null };
  realtime: { level: string; channel: string | null };
}

/** What the platform records of members' sign-ins and tokens. */
export type PlatformAuthAction = 'login' | 'login_failed' | 'logout' | 'mfa_challenge' | 'mfa_verified' | 'mfa_failed' | 'token_created' | 'token_revoked' | 'token_used';
/** The actions of GoTrue's audit trail (`auth.audit_log_entries.payload.action`) that a project's auth service records. */
export const AUTH_AUDIT_ACTIONS = [
  'login', 'logout', 'invite_accepted', 'user_signedup', 'user_invited', 'user_deleted', 'user_modified', 'user_recovery_requested',
  'user_reauthenticate_requested', 'user_confirmation_requested', 'user_repeated_signup', 'user_updated_password', 'token_revoked',
  'token_refreshed', 'generate_recovery_codes', 'factor_in_progress', 'factor_unenrolled', 'challenge_created', 'verification_attempted',
  'factor_deleted', 'identity_unlinked', 'login_failed',
] as const;
export type AuthAuditAction = (typeof AUTH_AUDIT_ACTIONS)[number];
