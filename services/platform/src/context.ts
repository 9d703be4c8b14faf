import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { SIGN_IN_MAX_ATTEMPTS, SIGN_IN_WINDOW_MS, type DashMode } from '@dash/contracts';
import type { FlagOverrides } from './feature-flags';
import { createDb, createPool, migrateSchema } from '@dash/service-kit';
import { ConnectionCipher, hashPassword } from './crypto';
import { AttemptLimiter } from './rate-limit';
import { AuthLogWriter } from './auth-logs';
import { platformMigrations } from './db/migrations';
import { PLATFORM_SCHEMA, type Database } from './db/schema';

export interface PlatformConfig {
  /** The platform database (schema `platform` is created and migrated in it). */
  databaseUrl: string;
  /** A server admin URL, used to CREATE DATABASE for projects; its database part is replaced per project. */
  adminUrl: string;
  /** Project databases are named `${projectDbPrefix}${ref}`. Default `dash_project_`. */
  projectDbPrefix?: string;
  /** HMAC secret of signed identities. */
  secret: string;
  /** 64 hex characters: the AES-256-GCM key of stored connection strings. */
  encryptionKey: string;
  /** Adds `Secure` to the session cookie. */
  cookieSecure?: boolean;
  /** The deployment's variant (`DASH_MODE`). Default hosted. */
  mode?: DashMode;
  /** Feature flags forced on or off for every organization (file or environment). */
  flagOverrides?: FlagOverrides;
  /** The logs service's origin (`DASH_LOGS_URL`): usage reads egress there. Without it usage is a 502. */
  logsUrl?: string;
  logger?: boolean;
  /**
   * The point-in-time recovery archive (`DASH_PITR_DIR`): the WAL the server archives there and the base
   * backups the platform takes (backups/pitr.ts). Without it, recovery is not offered.
   */
  pitrDir?: string;
  signIn?: {
    /** Failed attempts per window per (email, client address). Default SIGN_IN_MAX_ATTEMPTS. */
    maxPerEmailAndIp?: number;
    /** Failed attempts per window per client address, over all emails. Default 5 × SIGN_IN_MAX_ATTEMPTS. */
    maxPerIp?: number;
    windowMs?: number;
  };
}

export const DEFAULT_PROJECT_DB_PREFIX = 'dash_project_';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Everything the routes and the project/seed functions share. */
export interface PlatformContext {
  pool: pg.Pool;
  /** Queries: every table name resolves in the `platform` schema. */
  db: Kysely<Database>;
  adminUrl: string;
  projectDbPrefix: string;
  cipher: ConnectionCipher;
  cookieSecure: boolean;
  mode: DashMode;
  flagOverrides: FlagOverrides;
  signInLimiter: AttemptLimiter;
  signInLimits: { maxPerEmailAndIp: number; maxPerIp: number };
  /** A real scrypt hash of a random password: unknown emails are checked against it for even timing. */
  dummyPasswordHash: string;
  /** auth_logs events, posted to the logs service (nowhere without `logsUrl`). */
  authLogs: AuthLogWriter;
  /** See PlatformConfig.pitrDir. */
  pitrDir: string | null;
}

/** Connects to the platform database and migrates the `platform` schema. */
export async function createPlatformContext(config: PlatformConfig): Promise<PlatformContext> {
  const cipher = new ConnectionCipher(config.encryptionKey);
  const pool = createPool(config.databaseUrl);
  try {
    const base = createDb<Database>(pool);
    await migrateSchema(base as unknown as Kysely<unknown>, PLATFORM_SCHEMA, platformMigrations);
    const windowMs = config.signIn?.windowMs ?? SIGN_IN_WINDOW_MS;
    return {
      pool,
      db: base.withSchema(PLATFORM_SCHEMA),
      adminUrl: config.adminUrl,
      projectDbPrefix: config.projectDbPrefix ?? DEFAULT_PROJECT_DB_PREFIX,
      cipher,
      cookieSecure: config.cookieSecure ?? false,
      mode: config.mode ?? 'hosted',
      pitrDir: config.pitrDir ?? null,
      flagOverrides: config.flagOverrides ?? {},
      signInLimiter: new AttemptLimiter(windowMs),
      signInLimits: {
        maxPerEmailAndIp: config.signIn?.maxPerEmailAndIp ?? SIGN_IN_MAX_ATTEMPTS,
        maxPerIp: config.signIn?.maxPerIp ?? 5 * SIGN_IN_MAX_ATTEMPTS,
      },
      dummyPasswordHash: await hashPassword(randomBytes(32).toString('base64url')),
      authLogs: new AuthLogWriter(base.withSchema(PLATFORM_SCHEMA), { logsUrl: config.logsUrl, secret: config.secret }),
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
