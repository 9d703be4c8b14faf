import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge } from '@dash/shell-sdk/ui';
import type { FdwOption, ForeignDataWrapper } from '@dash/contracts';
import { useDatabaseWrappersQuery } from '../../api/wrappers';
import { editorPaths } from '../../paths';
import { DatabasePage, ListState } from '../common';
import '../platform.css';

/** `name=value` chips; a secret's value is never sent, so it shows as hidden. */
function Options({ options }: { options: FdwOption[] }) {
  if (options.length === 0) return <span className="db-muted">–</span>;
  return (
    <span className="db-chips">
      {options.map((o) => (
        <code key={o.name} className="pw-option" title={o.value === null ? 'A secret: its value is not shown' : undefined}>
          {o.name}={o.value ?? <span className="db-muted">hidden</span>}
        </code>
      ))}
    </span>
  );
}

function WrapperSection({ wrapper }: { wrapper: ForeignDataWrapper }) {
  const ref = useProjectRef();
  return (
    <section className="pw-wrapper" aria-label={`Wrapper ${wrapper.name}`}>
      <header className="pw-wrapper__header">
        <h2 className="pw-wrapper__title">{wrapper.name}</h2>
        {wrapper.extension && <Badge tone="brand">extension {wrapper.extension}</Badge>}
        <span className="db-muted pw-wrapper__meta">
          handler {wrapper.handler ?? 'none'} · validator {wrapper.validator ?? 'none'} · owner {wrapper.owner}
        </span>
      </header>
      {wrapper.options.length > 0 && (
        <p className="pw-wrapper__options">
          <span className="db-muted">Options </span>
          <Options options={wrapper.options} />
        </p>
      )}
      {wrapper.servers.length === 0 ? (
        <p className="db-muted pw-wrapper__empty">No servers use this wrapper yet: create one with <code>create server … foreign data wrapper {wrapper.name}</code>.</p>
      ) : (
        <table className="dash-table" aria-label={`Servers of ${wrapper.name}`}>
          <thead>
            <tr>
              <th>Server</th>
              <th>Type / version</th>
              <th>Options</th>
              <th>Foreign tables</th>
            </tr>
          </thead>
          <tbody>
            {wrapper.servers.map((server) => (
              <tr key={server.id}>
                <td className="db-strong">{server.name}</td>
                <td className="db-muted">{[server.type, server.version].filter(Boolean).join(' ') || '–'}</td>
                <td>
                  <Options options={server.options} />
                </td>
                <td>
                  {server.foreign_tables.length === 0 ? (
                    <span className="db-muted">None</span>
                  ) : (
                    <ul className="pw-list">
                      {server.foreign_tables.map((table) => (
                        <li key={table.id}>
                          <Link to={editorPaths.table(ref, table.id, table.schema)}>
                            {table.schema}.{table.name}
                          </Link>
                          {table.options.length > 0 && (
                            <>
                              {' '}
                              <Options options={table.options} />
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The database's foreign data wrappers, each with its servers and their foreign tables. */
export function WrappersPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useDatabaseWrappersQuery({ ref }, { refetchOnMountOrArgChange: true });
  const wrappers = data ?? [];
  return (
    <DatabasePage
      title="Foreign Data Wrappers"
      description="Wrappers let Postgres read and write data that lives elsewhere (another database, files, an API) through foreign tables."
    >
      <ListState
        what="wrappers"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={
          wrappers.length > 0
            ? null
            : {
                title: 'No foreign data wrappers',
                description: (
                  <>
                    A wrapper connects Postgres to an outside source: another Postgres database with <code>postgres_fdw</code>, files with{' '}
                    <code>file_fdw</code>, or APIs with Supabase Wrappers. Wrappers come from extensions that a superuser installs; the servers
                    and foreign tables made for them then show here with their options (secrets such as keys and passwords are never shown).
                  </>
                ),
              }
        }
      >
        {wrappers.map((wrapper) => (
          <WrapperSection key={wrapper.id} wrapper={wrapper} />
        ))}
      </ListState>
    </DatabasePage>
  );
}
