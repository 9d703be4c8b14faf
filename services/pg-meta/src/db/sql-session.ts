import pg from 'pg';
import { Messages, type SqlRunAs } from '@dash/contracts';
import {
  connectProject,
  HttpError,
  isConnectionFailure,
  isStatementError,
  projectDbError,
  SqlState,
  type ProjectPools,
  type ProjectRole,
} from '@dash/service-kit';
import { userPosition, type WrappedStatement } from '../sql/editor-text';

/** How the SQL editor's text runs: on which of the project's roles, read only or not, as whom. */
export interface EditorAccess {
  /** The member, who alone may cancel the run or use the export token. */
  sub: string;
  poolRole: Extract<ProjectRole, 'admin' | 'read_only'>;
  /** Read-only members: the transaction is read only (their role has no write privilege either). */
  readOnly: boolean;
  /** The role picked in the editor; `postgres` (or none) is the connection's own role. */
  runAs?: SqlRunAs;
}

/** Postgres's words for the two ways a statement gets cancelled (SQLSTATE 57014), and the editor's. */
const CANCELLED_BY: Record<string, string> = {
  'canceling statement due to user request': Messages.queryCancelled,
  'canceling statement due to statement timeout': Messages.queryTimedOut,
};

/**
 * Who ended the work, when Postgres stopped it rather than the statement failing: a cancel (the member's
 * Cancel or anyone's pg_cancel_backend, or the statement timeout), an administrator's termination of the
 * session (Abort in Running queries, pg_terminate_backend, a shutdown: 57P01) or a crash of another
 * backend (57P02, the server restarts: a 503). Null otherwise; a cancel in words we do not know (another
 * lc_messages) is a statement error as any other.
 */
function stoppedBy(error: unknown): HttpError | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  // Postgres's own words stay, as the detail.
  const stopped = (status: number, message: string) => new HttpError(status, message, error.code, { detail: error.message });
  const cancelled = error.code === SqlState.QueryCanceled ? CANCELLED_BY[error.message] : undefined;
  if (cancelled) return stopped(400, cancelled);
  if (error.code === SqlState.AdminShutdown) return stopped(400, Messages.queryTerminated);
  if (error.code === SqlState.CrashShutdown) return stopped(503, Messages.queryCrashEnded);
  return null;
}

/**
 * A statement error as the editor shows it: Postgres's message with its SQLSTATE, detail, hint and the
 * 1-based position in the text the user sent (`wrapped` maps a position in our statement around theirs).
 * A run stopped by a cancel or a terminated session says so; a lost connection is a 503; anything else
 * passes through.
 */
export function editorError(error: unknown, wrapped?: WrappedStatement): unknown {
  const stopped = stoppedBy(error);
  if (stopped) return stopped;
  if (!isStatementError(error)) return projectDbError(error);
  const sent = Number(error.position);
  const position = Number.isInteger(sent) && sent > 0 ? (wrapped ? userPosition(sent, wrapped) : sent) : undefined;
  return new HttpError(400, error.message, error.code, {
    ...(error.detail ? { detail: error.detail } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
    ...(position !== undefined ? { position } : {}),
  });
}

/** The backend process of a client (pg sets it at connect; its typings do not list it). */
export const backendPid = (client: pg.ClientBase): number => (client as unknown as { processID: number }).processID;

/**
 * One pooled client of a project for one editor request: `begin` opens its transaction with the
 * project's statement timeout, read only when asked, acting as the picked role; `end` closes the
 * transaction, resets the session (`discard all`) so nothing the user's text set (role, settings,
 * temporary tables, prepared statements, listens) reaches the pool's next user, and releases the
 * client. A client whose state is unknown (lost connection, COPY cut short, failed reset) is destroyed.
 */
export class EditorSession {
  private lost: Error | undefined;
  private ended = false;
  // A checked-out client has no error listener of the pool's: a socket error while an export waits for
  // its reader must not end the process.
  private readonly onClientError = (error: Error) => (this.lost = error);

  private constructor(readonly client: pg.PoolClient) {
    client.on('error', this.onClientError);
  }

  static async connect(pools: ProjectPools, ref: string, access: EditorAccess): Promise<EditorSession> {
    return new EditorSession(await connectProject(pools, ref, access.poolRole));
  }

  get pid(): number {
    return backendPid(this.client);
  }

  async begin(access: EditorAccess, statementTimeoutMs: number): Promise<void> {
    // Session settings, not local ones: a text that ends the transaction itself (`commit; select …`)
    // still runs under the timeout and as the chosen role. `discard all` resets them in `end`.
    const settings: Array<[string, string]> = [['statement_timeout', String(Math.max(0, Math.floor(statementTimeoutMs)))]];
    // Behind the parser's check of a read-only text (checkReadOnlyText): a transaction begun after ours
    // would be read only too, and the server reads string literals as that check did.
    if (access.readOnly) settings.push(['default_transaction_read_only', 'on'], ['standard_conforming_strings', 'on']);
    await this.client.query('select pg_catalog.set_config(s.name, s.value, false) from unnest($1::text[], $2::text[]) as s(name, value)', [
      settings.map(([name]) => name),
      settings.map(([, value]) => value),
    ]);
    const role = access.runAs?.role;
    if (role && role !== 'postgres') {
      // set_config('role', …) is `set role` with the name as a parameter, never as SQL text.
      await this.client.query("select set_config('role', $1, false), set_config('request.jwt.claims', $2, false)", [
        role,
        JSON.stringify({ role, ...(access.runAs?.claims ?? {}) }),
      ]);
    }
    await this.client.query(access.readOnly ? 'begin read only' : 'begin');
  }

  /**
   * Ends the session: commits when asked and nothing failed, else rolls back. `failure` is what ended
   * the work early, `broken` says the connection is mid-protocol (a COPY cut short) and must be
   * destroyed. A failed commit (a deferred constraint, say) is thrown, as an editor error.
   */
  async end(outcome: 'commit' | 'rollback', failure?: unknown, broken = false): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    let destroy: Error | undefined = this.lost ?? (broken ? new Error('The session ended mid-statement') : undefined);
    if (!destroy && failure !== undefined && isConnectionFailure(failure)) destroy = failure as Error;
    let commitError: unknown;
    if (!destroy) {
      // Outside a transaction (the text ended it itself) these only warn.
      await this.client.query(outcome === 'commit' && failure === undefined ? 'commit' : 'rollback').catch((e: unknown) => (commitError = e));
      if (commitError !== undefined && !isStatementError(commitError)) destroy = commitError as Error;
    }
    if (!destroy) await this.client.query('discard all').catch((e: Error) => (destroy = e));
    this.client.removeListener('error', this.onClientError);
    this.client.release(destroy);
    if (commitError !== undefined && failure === undefined) throw editorError(commitError);
  }
}

/**
 * Runs `work` in an editor session's transaction, then ends it (`commit`, or `rollback` when asked or
 * when `work` throws). Errors become the editor's replies; `wrapped` maps their positions.
 */
export async function withEditorSession<T>(
  pools: ProjectPools,
  ref: string,
  access: EditorAccess,
  options: { statementTimeoutMs: number; outcome: 'commit' | 'rollback'; wrapped?: WrappedStatement },
  work: (session: EditorSession) => Promise<T>,
): Promise<T> {
  const session = await EditorSession.connect(pools, ref, access);
  let result: T;
  try {
    await session.begin(access, options.statementTimeoutMs);
    result = await work(session);
  } catch (error) {
    await session.end('rollback', error);
    throw editorError(error, options.wrapped);
  }
  await session.end(options.outcome);
  return result;
}
