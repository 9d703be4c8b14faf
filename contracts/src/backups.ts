import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { Project } from './platform';

/*
 * Database backups (hosted only): logical backups of the project database, made with the server's own
 * pg_dump as plain SQL, on demand and once a day; listed, downloaded, and restored into a new project.
 *
 * Who may do what:
 * - every member lists the backups (when they were made, how big, whether they worked): no data;
 * - owners and administrators (`project_admin_write`) make one, download one and restore one. A backup
 *   file is every row of every table, the auth schema's password hashes and tokens included, in a copy
 *   that leaves the dashboard's access control for good; and a restore makes a new project, which only
 *   they may do. Developers write the schema and run SQL, but exporting the whole database stays with
 *   the people accountable for the project, as deleting it does.
 */

/** `point-in-time`: the database as it was at `recovery_target`, recovered from the WAL archive (see pitrRoutes). */
export const BACKUP_KINDS = ['on-demand', 'scheduled', 'point-in-time'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];
export const BACKUP_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

/** Days a scheduled backup is kept; on-demand backups stay until the project is deleted. */
export const SCHEDULED_BACKUP_RETENTION_DAYS = 7;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const DatabaseBackup = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  created_at: Timestamp,
  /** When the dump finished or failed; null while it runs. */
  completed_at: Nullable(Timestamp),
  kind: Type.Union(BACKUP_KINDS.map((k) => Type.Literal(k))),
  status: Type.Union(BACKUP_STATUSES.map((s) => Type.Literal(s))),
  /** Bytes of the SQL file, once completed. */
  size_bytes: Nullable(Type.Integer({ minimum: 0 })),
  /** Why it failed (pg_dump's own words, or what is missing to run it). */
  error: Nullable(Type.String()),
  /** The moment a point-in-time backup holds the database as of; null for the other kinds. */
  recovery_target: Nullable(Timestamp),
});
export type DatabaseBackup = Static<typeof DatabaseBackup>;

export const BackupList = Type.Object({
  /** Newest first. */
  backups: Type.Array(DatabaseBackup),
  pg_dump: Type.Object({
    /** The pg_dump backups are made with (`17.5`), or null when none can run. */
    version: Nullable(Type.String()),
    /** Why no backup can be made of this project now (no pg_dump, or one too old for its server), or null. */
    problem: Nullable(Type.String()),
  }),
});
export type BackupList = Static<typeof BackupList>;

export const BackupParams = Type.Object({ ref: RefParams.properties.ref, id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }) });

export const BackupRestore = Type.Object(
  {
    /** The new project's name. */
    name: Type.String({ maxLength: 1000 }),
    /** The password of the new project's admin database role. */
    db_pass: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);
export type BackupRestore = Static<typeof BackupRestore>;

export const BackupMessages = {
  hostedOnly: 'Backups are only available on the hosted platform',
  notFound: 'Backup not found',
  alreadyRunning: 'A backup of this project is already running',
  notCompleted: 'Only a completed backup can be downloaded or restored',
  projectNotActive: 'Backups are made of active projects only: restore the project first',
  sourceMissing: 'The backup this project is restored from no longer exists',
  sourceFailed: (message: string) => `The backup this project is restored from failed: ${message}`,
  interrupted: 'The platform restarted while this backup was running',
  needPermissions: 'You need additional permissions to manage backups',
  created: 'Backup started',
  createFailed: (message: string) => `Failed to create backup: ${message}`,
  restoreStarted: (name: string) => `Restoring into new project ${name}`,
  restoreFailed: (message: string) => `Failed to restore backup: ${message}`,
  emptyTitle: 'No backups yet',
  emptyDescription: 'A backup is made every day. Create one now to have a copy of the database as it is.',
} as const;

/*
 * Point-in-time recovery (the `pitr` add-on): the server archives its write-ahead log, the platform takes a
 * base backup of the server every day, and a restore replays a base backup and the log up to the chosen
 * second in a scratch server, dumps the project's database from it (a `point-in-time` backup, listed with
 * the others) and restores that into a new project, as a backup restore does. It needs the files of the
 * server, so only the dashboard's own embedded Postgres offers it.
 */

/** Days back a restore can reach, per variant of the add-on. */
export const PITR_RETENTION_DAYS: Readonly<Record<string, number>> = { pitr_7: 7, pitr_14: 14, pitr_28: 28 };

export const PitrStatus = Type.Object({
  /** Whether the project has the add-on. */
  enabled: Type.Boolean(),
  /** Why no restore can be made now (the server, no base backup yet), or null. */
  problem: Nullable(Type.String()),
  /** The days of the selected variant, or null without the add-on. */
  retention_days: Nullable(Type.Integer({ minimum: 1 })),
  /** The earliest and latest moments a restore can reach; null while none can be made. */
  earliest_recovery_time: Nullable(Timestamp),
  latest_recovery_time: Nullable(Timestamp),
  /** Base backups of the server kept for recovery, newest first. */
  base_backups: Type.Array(Type.Object({ completed_at: Timestamp, size_bytes: Type.Integer({ minimum: 0 }) })),
});
export type PitrStatus = Static<typeof PitrStatus>;

export const PitrRestore = Type.Object(
  {
    /** The moment to restore to (ISO 8601 with its offset), within the recovery window. */
    recovery_time_target: Type.String({ format: 'date-time', maxLength: 64 }),
    name: BackupRestore.properties.name,
    db_pass: BackupRestore.properties.db_pass,
  },
  { additionalProperties: false },
);
export type PitrRestore = Static<typeof PitrRestore>;

export const PitrMessages = {
  notEnabled: 'Point in time recovery is not enabled for this project: select it in Add-ons',
  needsEmbeddedServer:
    "Point in time recovery needs the files of the database server: it is available with the dashboard's own Postgres (npm start without DATABASE_URL)",
  archiveOff: 'The database server does not archive its write-ahead log (archive_mode is off), so there is nothing to recover from',
  noBaseBackup: 'The first base backup is being made: the recovery window opens when it is done',
  baseBackupFailed: (message: string) => `The base backup failed, so the recovery window cannot open (it is tried again every hour): ${message}`,
  outsideWindow: (earliest: string, latest: string) => `Choose a time between ${earliest} and ${latest}`,
  restoreStarted: (name: string, at: string) => `Restoring the database as of ${at} into new project ${name}`,
  restoreFailed: (message: string) => `Failed to start the point in time restore: ${message}`,
} as const;

const read = access.project(Permission.TenantSqlAdminRead);
const admin = access.project(Permission.ProjectAdminWrite);

export const backupRoutes = {
  listBackups: defineRoute({ service: 'platform', method: 'GET', url: '/projects/:ref/database/backups', params: RefParams, response: BackupList, access: read }),
  /** Starts an on-demand backup; it is RUNNING until the dump ends. */
  createBackup: defineRoute({ service: 'platform', method: 'POST', url: '/projects/:ref/database/backups', params: RefParams, response: DatabaseBackup, status: 201, access: admin }),
  /** The SQL file (`application/sql`, an attachment). */
  downloadBackup: defineRoute({ service: 'platform', method: 'GET', url: '/projects/:ref/database/backups/:id/download', params: BackupParams, response: Type.String(), access: admin }),
  /**
   * Creates a project in the same organization, as the create-project route does, and restores the backup
   * into its database before it comes up; answers with the new project (COMING_UP).
   */
  restoreBackup: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/database/backups/:id/restore',
    params: BackupParams,
    body: BackupRestore,
    response: Project,
    status: 201,
    access: admin,
  }),
};

export const pitrRoutes = {
  pitrStatus: defineRoute({ service: 'platform', method: 'GET', url: '/projects/:ref/database/backups/pitr', params: RefParams, response: PitrStatus, access: read }),
  /**
   * Starts a point-in-time backup at the chosen moment and a new project restored from it (COMING_UP until
   * the recovery, the dump and the restore are done; its building page follows it).
   */
  restorePitr: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/database/backups/pitr/restore',
    params: RefParams,
    body: PitrRestore,
    response: Project,
    status: 201,
    access: admin,
  }),
};
