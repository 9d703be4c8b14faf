import { useProjectRef } from '@dash/shell-sdk';
import type { SchemaMigrations } from '@dash/contracts';
import { useDatabaseMigrationsQuery } from '../../api/migrations';
import { DatabasePage, ListState } from '../common';

/** A CLI version is the UTC time the migration was written (`20240301120000`): shown as a date when it is one. */
function versionTime(version: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(version);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]} UTC` : null;
}

const HOW_TO = (
  <>
    The Supabase CLI records every migration it applies in <code>supabase_migrations.schema_migrations</code>. Write migrations in your
    project's <code>supabase/migrations</code> folder, then run <code>supabase db push --db-url "&lt;your database's connection string&gt;"</code>:
    each one applied shows here with its version, name and number of statements.
  </>
);

function emptyState(reply: SchemaMigrations | undefined) {
  if (!reply || reply.migrations.length > 0) return null;
  if (reply.table === 'unreadable') {
    return {
      title: 'Migrations cannot be read',
      description: (
        <>
          <code>supabase_migrations.schema_migrations</code> exists, but the dashboard's database role may not read it. Grant it <code>usage</code> on
          the schema and <code>select</code> on the table to list them here.
        </>
      ),
    };
  }
  return { title: reply.table === 'absent' ? 'No migrations yet' : 'The migrations table is empty', description: HOW_TO };
}

/** Migrations the Supabase CLI applied to this database, newest first. */
export function MigrationsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useDatabaseMigrationsQuery({ ref }, { refetchOnMountOrArgChange: true });
  return (
    <DatabasePage title="Migrations" description="Schema changes applied with the Supabase CLI's db push, newest first.">
      <ListState what="migrations" isLoading={isLoading} error={error} onRetry={refetch} retrying={isFetching} empty={emptyState(data)}>
        <table className="dash-table" aria-label="Migrations">
          <thead>
            <tr>
              <th>Version</th>
              <th>Name</th>
              <th className="db-num">Statements</th>
            </tr>
          </thead>
          <tbody>
            {data?.migrations.map((m) => (
              <tr key={m.version}>
                <td className="db-nowrap">
                  <code>{m.version}</code>
                  {versionTime(m.version) && <div className="db-muted db-note">{versionTime(m.version)}</div>}
                </td>
                <td className="db-strong">{m.name ?? <span className="db-muted">–</span>}</td>
                <td className="db-num">{m.statements.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </DatabasePage>
  );
}
