import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, Spinner } from '@dash/shell-sdk/ui';
import { Permission, ROLE_LABELS, roleHasPermission, type Project } from '@dash/contracts';
import { useListOrganizationsQuery } from '../api/organizations';
import { useListProjectsQuery } from '../api/projects';
import { describeError, errorStatus } from '../api/errors';
import { FullPageError } from '../errors/FullPageError';
import { TopBar } from '../layout/TopBar';
import { OrganizationLinks } from '../org/OrganizationLinks';
import { ProjectStatusBadge } from '../projects/ProjectStatusBadge';
import { useRegistry } from '../registry/context';

/** `/projects`: every project the user is a member of, as cards. */
export function ProjectsPage() {
  const { data, error, isLoading } = useListProjectsQuery();
  const { remotes } = useRegistry();
  // Open the table editor when it is published; otherwise the project's first area.
  const landing = remotes.some((r) => r.mount === 'editor') ? '/editor' : '';
  // Owners and administrators create projects: the button opens their first such organization.
  const organizations = useListOrganizationsQuery();
  const creatable = organizations.data?.organizations.find((o) => roleHasPermission(o.role, Permission.ProjectAdminWrite));

  useDocumentTitle('Projects | Dashboard');

  if (error && errorStatus(error) !== 401) {
    const { code, message } = describeError(error);
    return <FullPageError code={code} message={message} />;
  }

  return (
    <div className="shell-frame">
      <TopBar />
      <main className="shell-page">
        <div className="shell-page__inner">
          <header className="dash-page-header">
            <div>
              <h1>Projects</h1>
              <p>Postgres projects you are a member of.</p>
            </div>
            {creatable && (
              <div className="dash-page-header__actions">
                <Link className="dash-btn dash-btn--primary dash-btn--md" to={`/new/${creatable.slug}`}>
                  New project
                </Link>
              </div>
            )}
          </header>
          <OrganizationLinks />
          {isLoading || !data ? (
            <Spinner label="Loading projects" />
          ) : data.projects.length === 0 ? (
            <EmptyState
              title="No projects yet"
              description={
                creatable
                  ? `Create the first project of ${creatable.name}.`
                  : 'You are not a member of any project. Ask an owner of your organization to invite you.'
              }
            />
          ) : (
            <ul className="shell-projects" aria-label="Projects">
              {data.projects.map((project) => (
                <li key={project.ref}>
                  <ProjectCard project={project} to={`/project/${project.ref}${project.status === 'COMING_UP' ? '/building' : landing}`} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </main>
    </div>
  );
}

function ProjectCard({ project, to }: { project: Project; to: string }) {
  return (
    <Link to={to} className="shell-project-card" aria-label={`Open project ${project.name}`}>
      <div className="shell-project-card__head">
        <h2 className="shell-project-card__name">{project.name}</h2>
        <ProjectStatusBadge status={project.status} />
      </div>
      <p className="shell-project-card__org">{project.organization_name}</p>
      <div className="shell-project-card__meta">
        <code className="shell-project-card__ref" title="Project ref">
          {project.ref}
        </code>
        <span className="shell-project-card__role">{ROLE_LABELS[project.role] ?? project.role}</span>
      </div>
    </Link>
  );
}

function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
