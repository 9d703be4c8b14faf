import type pg from 'pg';
import { PLATFORM_ROLES, type Impersonation } from '@dash/contracts';
import { badRequest, type ProjectPools, connectProject, isConnectionFailure, projectDbError } from '@dash/service-kit';
import { ident, literal } from '../sql/ddl/names';

/**
 * Roles the dashboard never assumes, whatever their attributes: the owner role and the roles that run
 * the platform. Superusers and Postgres's predefined `pg_*` roles are refused as well (checked below):
 * acting as a role must only ever narrow what the dashboard's own connection may do.
 */
const NEVER_ASSUMED = new Set(['postgres', 'pgbouncer', 'authenticator', ...PLATFORM_ROLES]);

/** How long the impersonated request's claims are valid, as a real access token would be. */
const CLAIMS_TTL_SECONDS = 3600;

/**
 * The JWT claims `auth.jwt()`, `auth.uid()` and `auth.role()` read: the role, the user's id as `sub`
 * when one is given, and `aud: authenticated` for signed-in users.
 */
export function jwtClaims(role: Impersonation, nowMs = Date.now()): Record<string, unknown> {
  const iat = Math.floor(nowMs / 1000);
  return {
    role: role.role,
    ...(role.role === 'authenticated' ? { aud: 'authenticated' } : {}),
    ...(role.userId ? { sub: role.userId } : {}),
    iat,
    exp: iat + CLAIMS_TTL_SECONDS,
  };
}

/** Refuses roles that do not exist or that the dashboard must not assume. */
export async function checkImpersonatedRole(client: pg.ClientBase, name: string): Promise<void> {
  if (NEVER_ASSUMED.has(name) || name.startsWith('pg_')) throw badRequest(`The dashboard cannot act as role "${name}"`);
  const { rows } = await client.query<{ rolsuper: boolean }>('select rolsuper from pg_catalog.pg_roles where rolname = $1', [name]);
  if (rows.length === 0) throw badRequest(`Role "${name}" does not exist`);
  if (rows[0]!.rolsuper) throw badRequest(`The dashboard cannot act as role "${name}": it is a superuser`);
}

/** The statements that make the open transaction act as the role (both settings end with it). */
export function impersonationSql(role: Impersonation, nowMs = Date.now()): string {
  return `set local role ${ident(role.role)}; select set_config('request.jwt.claims', ${literal(JSON.stringify(jwtClaims(role, nowMs)))}, true)`;
}

/**
 * One pooled client of a project for one request. `begin` opens the request's transaction, acting as
 * a role when one is given; `close` commits (or rolls back after an error) and releases the client.
 * Role and claims are `local` to the transaction, so ending it resets the session before the client
 * goes back to the pool; a client whose state is unknown (lost connection, COPY cut short, failed
 * rollback) is destroyed instead of released.
 */
export class RowSession {
  private inTransaction = false;
  private closed = false;
  private lost: Error | undefined;
  // A checked-out client has no error listener of the pool's: a socket error must not crash the service.
  private readonly onClientError = (error: Error) => (this.lost = error);

  private constructor(readonly client: pg.PoolClient) {
    client.on('error', this.onClientError);
  }

  static async open(pools: ProjectPools, ref: string): Promise<RowSession> {
    return new RowSession(await connectProject(pools, ref));
  }

  async begin(role?: Impersonation): Promise<void> {
    if (role) await checkImpersonatedRole(this.client, role.role);
    await this.client.query('begin');
    this.inTransaction = true;
    if (role) await this.client.query(impersonationSql(role));
  }

  /**
   * Ends the session. `error` is the failure that ended the work (rolls back), `broken` says the
   * connection is in an unknown protocol state and must be destroyed. A failed commit is thrown.
   */
  async close(error?: unknown, broken = false): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let destroy: Error | undefined = this.lost ?? (broken ? new Error('session ended mid-statement') : undefined);
    if (!destroy && error !== undefined && isConnectionFailure(error)) destroy = error as Error;
    let commitError: unknown;
    if (!destroy && this.inTransaction) {
      try {
        await this.client.query(error === undefined ? 'commit' : 'rollback');
      } catch (e) {
        destroy = e as Error;
        commitError = e;
      }
    }
    this.client.removeListener('error', this.onClientError);
    this.client.release(destroy);
    if (error === undefined && commitError !== undefined) throw projectDbError(commitError);
  }
}

export interface SessionOptions {
  /** Act as this role inside one transaction. */
  role?: Impersonation;
  /** Run in one transaction even without a role (multi-step writes). */
  transaction?: boolean;
}

/**
 * Runs `work` on a session; `prepare` runs first on the plain connection (catalog lookups as the
 * dashboard's own role), then the transaction begins as the role. Errors of Postgres become 4xx replies.
 */
export async function withSession<P, T>(
  pools: ProjectPools,
  ref: string,
  options: SessionOptions,
  prepare: (client: pg.PoolClient) => Promise<P>,
  work: (client: pg.PoolClient, prepared: P) => Promise<T>,
  mapError: (error: unknown) => unknown = projectDbError,
): Promise<T> {
  const session = await RowSession.open(pools, ref);
  let result: T;
  try {
    const prepared = await prepare(session.client);
    if (options.role || options.transaction) await session.begin(options.role);
    result = await work(session.client, prepared);
  } catch (error) {
    await session.close(error);
    throw mapError(error);
  }
  await session.close();
  return result;
}
