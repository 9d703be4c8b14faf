import { Navigate } from 'react-router-dom';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { formatBytes, ProjectMessages } from '@dash/contracts';
import { useGetProjectQuery } from '../api/projects';
import { useProjectInfrastructureQuery } from '../api/project-lifecycle';
import './projects.css';

/**
 * Project settings, Infrastructure: the Postgres version and database size, read from the project's
 * database. While the project is coming up the page is its progress (§2); a paused project has nothing
 * to read.
 */
export function InfrastructurePage() {
  const ref = useProjectRef();
  const project = useGetProjectQuery({ ref });
  const active = project.data?.status === 'ACTIVE_HEALTHY';
  const infrastructure = useProjectInfrastructureQuery({ ref }, { skip: !active });

  if (project.data?.status === 'COMING_UP') return <Navigate to={`/project/${ref}/building`} replace />;
  const header = <PageHeader title="Infrastructure" description="The database server behind this project." />;
  if (project.data?.status === 'INACTIVE') {
    return (
      <div className="shell-settings">
        {header}
        <EmptyState title={ProjectMessages.pausedBanner} description={ProjectMessages.infrastructureUnavailable} />
      </div>
    );
  }
  const error = project.error ?? infrastructure.error;
  if (error) {
    return (
      <div className="shell-settings">
        {header}
        <ErrorPanel title="Failed to read the project's infrastructure" message={errorMessage(error)} onRetry={() => void infrastructure.refetch()} />
      </div>
    );
  }
  if (!infrastructure.data) return <Spinner label="Reading the database" />;
  return (
    <div className="shell-settings">
      {header}
      <section className="dash-card shell-settings__card" aria-labelledby="shell-infrastructure-database">
        <header className="dash-card__header">
          <h2 id="shell-infrastructure-database">Database</h2>
        </header>
        <dl className="dash-card__body shell-settings__facts">
          <div className="shell-settings__row">
            <dt className="shell-settings__label">Postgres version</dt>
            <dd className="shell-settings__value shell-settings__mono">{infrastructure.data.postgres_version}</dd>
          </div>
          <div className="shell-settings__row">
            <dt className="shell-settings__label">Database size</dt>
            <dd className="shell-settings__value">{formatBytes(infrastructure.data.database_size_bytes)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
