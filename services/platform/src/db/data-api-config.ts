import type { Kysely } from 'kysely';
import { DATA_API_SETTINGS_DEFAULT, type DataApiSettings } from '@dash/contracts';
import type { Database } from './schema';

/** The project's data API settings (the contracts' defaults until they are first changed). */
export async function getDataApiSettings(db: Kysely<Database>, projectId: number): Promise<DataApiSettings> {
  const row = await db.selectFrom('project_data_api_config').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return structuredClone(DATA_API_SETTINGS_DEFAULT);
  return {
    schemas: row.schemas,
    extraSearchPath: row.extra_search_path,
    maxRows: row.max_rows,
    aggregatesEnabled: row.aggregates_enabled,
    preRequest: row.pre_request,
  };
}

/** Replaces the settings (one upsert); the caller has validated them. */
export async function setDataApiSettings(db: Kysely<Database>, projectId: number, settings: DataApiSettings): Promise<DataApiSettings> {
  const values = {
    schemas: settings.schemas,
    extra_search_path: settings.extraSearchPath,
    max_rows: settings.maxRows,
    aggregates_enabled: settings.aggregatesEnabled,
    pre_request: settings.preRequest,
  };
  await db
    .insertInto('project_data_api_config')
    .values({ project_id: projectId, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ ...values, updated_at: eb.fn('now') })))
    .execute();
  return getDataApiSettings(db, projectId);
}
