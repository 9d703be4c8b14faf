import pg from 'pg';
import { BackupMessages } from '@dash/contracts';
import { bootstrapProjectDatabase, databaseOf, inTransaction, projectRoleName, quoteIdent } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { backupContent, backupFailure } from '../db/backups';
import { backupRunnerOf } from './runner';
import type { ProjectRow } from '../db/schema';
import { decryptConnection, decryptRolePasswords, projectRoleConnection } from '../projects';

/**
 * An event trigger in a plain dump, under pg_dump's own header. Only a superuser makes event triggers, so
 * every one in a project's dump is the bootstrap's (the data API's schema reload), which the restored
 * project's bootstrap makes again, and which its admin role could not create.
 */
const EVENT_TRIGGER = /^-- Name: [^\n]*; Type: EVENT TRIGGER; Schema: -; Owner: [^\n]*\n--\n\n(?:CREATE|ALTER) EVENT TRIGGER [\s\S]*?;\n/gm;

/**
 * The SQL of a backup file, ready to run as statements. pg_dump 17.6 and later frame a plain dump in
 * `\restrict <key>` … `\unrestrict <key>` (psql meta-commands that stop a tampered file from running
 * other ones); they are not SQL, so those two lines, with the file's own random key, are dropped. So are
 * the platform's event triggers (see above).
 */
export function dumpStatements(file: string): string {
  const statements = file.replace(EVENT_TRIGGER, '');
  const key = /^\\restrict ([A-Za-z0-9]+)$/m.exec(statements)?.[1];
  if (!key) return statements;
  const lines = new Set([`\\restrict ${key}`, `\\unrestrict ${key}`]);
  return statements
    .split('\n')
    .filter((line) => !lines.has(line))
    .join('\n');
}

/**
 * Replaces the contents of a project's database with a backup's, as its admin role, in one transaction:
 * first everything the admin and storage roles own goes (the new project's starter schemas, or a
 * previous attempt's half), then the backup's statements run. The file runs with the admin role's rights
 * only, so it can do nothing the project's own SQL editor could not.
 */
export async function restoreScript(adminConnection: string, database: string, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminConnection });
  client.on('error', () => {});
  await client.connect();
  try {
    await inTransaction(client, async () => {
      await client.query(`drop owned by ${quoteIdent(projectRoleName(database, 'admin'))}, ${quoteIdent(projectRoleName(database, 'storage'))}`);
      await client.query(statements);
    });
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The provisioning step of a project made from a backup (`restore_from`), after its bootstrap: the
 * backup's contents go in, then the bootstrap runs again to give the restored schemas the platform's
 * ownership and grants (the file carries none, see pg-dump.ts).
 */
export async function restoreProjectFromBackup(ctx: PlatformContext, project: ProjectRow & { restore_from: number }): Promise<void> {
  // A point-in-time backup is made as its project comes up: the restore waits for it.
  await backupRunnerOf(ctx).finished(project.restore_from);
  const content = await backupContent(ctx.db, project.restore_from);
  if (!content) {
    const failure = await backupFailure(ctx.db, project.restore_from);
    throw new Error(failure ? BackupMessages.sourceFailed(failure) : BackupMessages.sourceMissing);
  }
  const serverUrl = decryptConnection(ctx, project);
  await restoreScript(projectRoleConnection(ctx, project, 'admin'), databaseOf(serverUrl), dumpStatements(content.toString('utf8')));
  await bootstrapProjectDatabase(serverUrl, decryptRolePasswords(ctx, project));
}
