import { useSearchParams } from 'react-router-dom';
import { errorMessage } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { formatBytes, type OrganizationDetail, PLAN_PRICES, type ProjectUsage, USAGE_METRIC_LABELS, USAGE_METRICS } from '@dash/contracts';
import { useListProjectsQuery } from '../api/projects';
import { useGetUsageQuery } from '../api/usage';

/**
 * Usage (hosted only): this month's database size, stored bytes and egress of each project against its
 * plan's quota. `?projectRef=` narrows to one project (the project settings link here that way).
 */
export function UsagePage({ org }: { org: OrganizationDetail }) {
  const [params, setParams] = useSearchParams();
  const projectRef = params.get('projectRef') ?? undefined;
  const usage = useGetUsageQuery({ slug: org.slug, projectRef });
  const projects = useListProjectsQuery();
  const choices = (projects.data?.projects ?? []).filter((p) => p.organization_slug === org.slug);
  const period = usage.data && `${new Date(usage.data.period_start).toLocaleDateString()} – ${new Date(Date.parse(usage.data.period_end) - 1).toLocaleDateString()}`;

  return (
    <div className="ps-page org-page--wide">
      <PageHeader
        title="Usage"
        description={period ? `This month's usage (${period}), per project.` : "This month's usage, per project."}
        actions={
          <select
            className="dash-select"
            aria-label="Project"
            value={projectRef ?? ''}
            onChange={(event) => setParams(event.target.value ? { projectRef: event.target.value } : {}, { replace: true })}
          >
            <option value="">All projects</option>
            {choices.map((p) => (
              <option key={p.ref} value={p.ref}>
                {p.name}
              </option>
            ))}
          </select>
        }
      />
      {usage.error ? (
        <ErrorPanel title="Failed to load usage" message={errorMessage(usage.error)} onRetry={() => void usage.refetch()} retrying={usage.isFetching} />
      ) : !usage.data ? (
        <Spinner label="Measuring usage" />
      ) : usage.data.projects.length === 0 ? (
        <EmptyState title="No projects" description={projectRef ? `${org.name} has no project ${projectRef}.` : `${org.name} has no projects yet.`} />
      ) : (
        usage.data.projects.map((project) => <ProjectUsageCard key={project.ref} project={project} />)
      )}
    </div>
  );
}

function ProjectUsageCard({ project }: { project: ProjectUsage }) {
  const plan = PLAN_PRICES[project.plan];
  return (
    <section className="dash-card org-usage" aria-label={`Usage of ${project.name}`}>
      <header className="ps-card__header org-usage__header">
        <h2>{project.name}</h2>
        <code className="shell-project-card__ref">{project.ref}</code>
        <Badge tone={project.plan === 'pro' ? 'success' : 'neutral'}>{plan.label} plan</Badge>
      </header>
      <div className="org-usage__metrics">
        {USAGE_METRICS.map((metric) => {
          const used = project[metric];
          const quota = plan.included[metric];
          const over = used > quota;
          return (
            <div key={metric} className="org-meter">
              <div className="org-meter__label">{USAGE_METRIC_LABELS[metric]}</div>
              <div className="org-meter__value">
                <strong>{formatBytes(used)}</strong> <span className="org-muted">of {formatBytes(quota)} included</span>
              </div>
              <div
                className={`org-meter__bar${over ? ' is-over' : ''}`}
                role="meter"
                aria-label={`${USAGE_METRIC_LABELS[metric]} of ${project.name}`}
                aria-valuemin={0}
                aria-valuemax={quota}
                aria-valuenow={Math.min(used, quota)}
              >
                <span style={{ width: `${Math.min(100, (used / quota) * 100)}%` }} />
              </div>
              {over && (
                <div className="org-meter__note">
                  {formatBytes(used - quota)} over the quota{plan.billsOverage ? ', billed as overage' : `: the ${plan.label} plan is not billed for it`}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
