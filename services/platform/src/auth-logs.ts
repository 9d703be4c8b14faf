import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LogEventInput, LogMetadata, PlatformAuthAction } from '@dash/contracts';
import { LogShipper, throttledDropWarning } from '@dash/service-kit';
import { projectRolesOf } from './db/projects';
import type { Database } from './db/schema';

type Action = PlatformAuthAction;

export interface AuthLogEntry {
  action: Action;
  status: number;
  /** The account concerned, when known (a failed sign-in to an unknown email has none). */
  user: { id: string; email: string } | null;
  /** The email as typed, for a failed sign-in without a user. */
  email?: string;
  ip: string | null;
  message: string;
}

const LEVELS: Record<Action, LogMetadata['auth']['level']> = {
  login: 'info',
  logout: 'info',
  mfa_challenge: 'info',
  mfa_verified: 'info',
  token_created: 'info',
  token_revoked: 'info',
  token_used: 'info',
  login_failed: 'warning',
  mfa_failed: 'warning',
};

/**
 * auth_logs: the platform's sign-in, sign-out, MFA and token events. Accounts belong to organizations,
 * not projects, so an event is written once for every project its user can see at that moment (each
 * project's Auth logs then show its members' activity); an event with no known user (a failed sign-in
 * to an unknown email) is stored with no project and appears on no project's page. Recording never
 * waits or fails the request: the fan-out query and the post run in the background.
 */
export class AuthLogWriter {
  private readonly shipper: LogShipper | null;
  private log: FastifyBaseLogger | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    options: { logsUrl?: string; secret: string },
  ) {
    this.shipper = options.logsUrl
      ? new LogShipper({
          logsUrl: options.logsUrl,
          secret: options.secret,
          caller: 'platform',
          flushIntervalMs: 500,
          batchSize: 100,
          maxBuffered: 10_000,
          onDrop: throttledDropWarning((fields, message) => this.log?.warn(fields, message), 'auth log events'),
        })
      : null;
  }

  /** Starts the periodic flush; warnings go to `log`. */
  start(log: FastifyBaseLogger): void {
    this.log = log;
    this.shipper?.start();
  }

  close(): Promise<void> {
    return this.shipper?.close() ?? Promise.resolve();
  }

  record(entry: AuthLogEntry): void {
    if (!this.shipper) return;
    const shipper = this.shipper;
    const at = new Date().toISOString();
    const metadata: LogMetadata['auth'] = {
      action: entry.action,
      status: entry.status,
      user_email: entry.user?.email ?? entry.email?.slice(0, 320) ?? null,
      user_id: entry.user?.id ?? null,
      ip: entry.ip,
      level: LEVELS[entry.action],
    };
    const event = (ref: string | null): LogEventInput => ({ source: 'auth', project_ref: ref, timestamp: at, event_message: entry.message, metadata });
    void (entry.user ? projectRolesOf(this.db, entry.user.id) : Promise.resolve({}))
      .then((roles) => {
        const refs = Object.keys(roles);
        shipper.push(...(refs.length > 0 ? refs.map(event) : [event(null)]));
      })
      .catch((error: unknown) => this.log?.warn({ err: error }, 'auth log event not recorded'));
  }
}
