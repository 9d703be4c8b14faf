import pg from 'pg';
import type { Kysely } from 'kysely';
import type { ProjectUsage } from '@dash/contracts';
import { databaseUnavailable, isConnectionFailure } from '@dash/service-kit';
import type { Database } from './schema';

/**
 * What one project database holds, read as the project's own admin role (never the superuser): its size,
 * and the bytes of its stored files as the storage service records them in each object's metadata
 * (rows written with SQL may lack a size; they count as 0).
 */
const PROJECT_SIZES_SQL = `select pg_database_size(current_database()) as database_bytes,
  coalesce((select sum(case when jsonb_typeof(metadata -> 'size') = 'number' then (metadata ->> 'size')::numeric else 0 end)
            from storage.objects), 0)::int8 as storage_bytes`;

export async function measureProjectDatabase(connectionString: string): Promise<{ database_bytes: number; storage_bytes: number }> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ database_bytes: string | number; storage_bytes: string | number }>(PROJECT_SIZES_SQL);
    return { database_bytes: Number(rows[0]!.database_bytes), storage_bytes: Number(rows[0]!.storage_bytes) };
  } catch (error) {
    if (isConnectionFailure(error)) throw databaseUnavailable();
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `YYYY-MM` of a date, in UTC. */
export const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** Keeps the month's latest figures of each project (the statement of a past month is its last reading). */
export async function saveUsageReadings(db: Kysely<Database>, orgId: number, month: string, projects: readonly ProjectUsage[]): Promise<void> {
  if (projects.length === 0) return;
  await db
    .insertInto('usage_readings')
    .values(
      projects.map((p) => ({
        org_id: orgId,
        month,
        project_ref: p.ref,
        project_name: p.name,
        plan: p.plan,
        database_bytes: p.database_bytes,
        storage_bytes: p.storage_bytes,
        egress_bytes: p.egress_bytes,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['org_id', 'month', 'project_ref']).doUpdateSet((eb) => ({
        project_name: eb.ref('excluded.project_name'),
        plan: eb.ref('excluded.plan'),
        database_bytes: eb.ref('excluded.database_bytes'),
        storage_bytes: eb.ref('excluded.storage_bytes'),
        egress_bytes: eb.ref('excluded.egress_bytes'),
        measured_at: new Date(),
      })),
    )
    .execute();
}

/** Every reading of the organization, newest month first. */
export async function listUsageReadings(db: Kysely<Database>, orgId: number): Promise<Array<ProjectUsage & { month: string }>> {
  const rows = await db
    .selectFrom('usage_readings')
    .select(['month', 'project_ref', 'project_name', 'plan', 'database_bytes', 'storage_bytes', 'egress_bytes'])
    .where('org_id', '=', orgId)
    .orderBy('month', 'desc')
    .orderBy('project_ref')
    .execute();
  return rows.map((r) => ({
    month: r.month,
    ref: r.project_ref,
    name: r.project_name,
    plan: r.plan,
    database_bytes: Number(r.database_bytes),
    storage_bytes: Number(r.storage_bytes),
    egress_bytes: Number(r.egress_bytes),
  }));
}
