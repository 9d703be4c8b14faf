import type { Kysely } from 'kysely';
import { SQL_EDITOR_STATEMENT_TIMEOUT_MS, type SqlEditorSettings } from '@dash/contracts';
import type { Database } from './schema';

/** The project's SQL editor settings (the default timeout until they are first changed). */
export async function getSqlEditorSettings(db: Kysely<Database>, projectId: number): Promise<SqlEditorSettings> {
  const row = await db
    .selectFrom('project_sql_editor_config')
    .select('statement_timeout_ms')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return { statementTimeoutMs: row?.statement_timeout_ms ?? SQL_EDITOR_STATEMENT_TIMEOUT_MS };
}

/** One statement (an upsert); the contract and a check constraint keep the timeout within its bounds. */
export async function setSqlEditorSettings(db: Kysely<Database>, projectId: number, settings: SqlEditorSettings): Promise<SqlEditorSettings> {
  const timeout = settings.statementTimeoutMs;
  const row = await db
    .insertInto('project_sql_editor_config')
    .values({ project_id: projectId, statement_timeout_ms: timeout })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ statement_timeout_ms: timeout, updated_at: eb.fn('now') })))
    .returning('statement_timeout_ms')
    .executeTakeFirstOrThrow();
  return { statementTimeoutMs: row.statement_timeout_ms };
}
