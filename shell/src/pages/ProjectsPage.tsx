import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { Badge, EmptyState, Spinner } from '@dash/shell-sdk';
import { ROLE_LABELS, type Project } from '@dash/contracts';
import { useListProjectsQuery } from '../api/projects';
import { describeError, errorStatus } from '../api/errors';
import { FullPageError } from '../errors/FullPageError';
import { TopBar } from '../layout/TopBar';
import { useRegistry } from '../registry/context';

const STATUS: Record<Project['status'], { label: string; tone: 'success' | 'warning' | 'neutral' }> = {
  ACTIVE_HEALTHY: { label: 'Healthy', tone: 'success' },
  COMING_UP: { label: 'Coming up', tone: 'warning' },
  INACTIVE: { label: 'Paused', tone: 'neutral' },
};

/** `/projects`: every project the user is a member of, as cards. */
export function ProjectsPage() {
  const { data, error, isLoading } = useListProjectsQuery();
  const { remotes } = useRegistry();
  // Open the table editor when it is published; otherwise the project's first area.
  const landing = remotes.some((r) => r.mount === 'editor') ? '/editor' : '';

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
          </header>
          {isLoading || !data ? (
            <Spinner label="Loading projects" />
          ) : data.projects.length === 0 ? (
            <EmptyState
              title="No projects yet"
              description="You are not a member of any project. Ask an owner of your organization to invite you."
            />
          ) : (
            <ul className="shell-projects" aria-label="Projects">
              {data.projects.map((project) => (
                <li key={project.ref}>
                  <ProjectCard project={project} to={`/project/${project.ref}${landing}`} />
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
  const status = STATUS[project.status] ?? { label: project.status, tone: 'neutral' as const };
  return (
    <Link to={to} className="shell-project-card" aria-label={`Open project ${project.name}`}>
      <div className="shell-project-card__head">
        <h2 className="shell-project-card__name">{project.name}</h2>
        <Badge tone={status.tone}>{status.label}</Badge>
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
