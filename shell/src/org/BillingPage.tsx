import { Link } from 'react-router-dom';
import { errorMessage } from '@dash/shell-sdk';
import { Badge, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { BILLING_CURRENCY, canSeeInvoices, formatBytes, type OrganizationDetail, OVERAGE_CENTS_PER_GIB, PLAN_PRICES, PROJECT_PLANS, USAGE_METRIC_LABELS, USAGE_METRICS } from '@dash/contracts';
import { useGetUsageQuery } from '../api/usage';
import { SettingsCard } from '../settings/parts';
import { formatCents } from './format';

/** Billing (hosted only): each project's plan, the price table statements are made from, and where to go next. */
export function BillingPage({ org }: { org: OrganizationDetail }) {
  const usage = useGetUsageQuery({ slug: org.slug });
  const invoices = canSeeInvoices(org.role, org.billing_via_partner);

  return (
    <div className="ps-page org-page--wide">
      <PageHeader title="Billing" description={`Plans and prices of ${org.name}'s projects, in ${BILLING_CURRENCY}.`} />
      {org.billing_via_partner && (
        <div className="ps-notice" role="note">
          This organization is billed through a partner marketplace: its invoices come from the partner.
        </div>
      )}
      <SettingsCard
        title="Projects and plans"
        description="Each project has its own plan: a monthly fee with quotas, and overage above them on paid plans."
        footer={
          <div className="ps-links">
            <Link to={`/org/${org.slug}/usage`}>See this month&apos;s usage</Link>
            {invoices && <Link to={`/org/${org.slug}/invoices`}>See invoices</Link>}
          </div>
        }
      >
        {usage.error ? (
          <ErrorPanel title="Failed to load the projects' plans" message={errorMessage(usage.error)} onRetry={() => void usage.refetch()} />
        ) : !usage.data ? (
          <Spinner label="Loading plans" />
        ) : usage.data.projects.length === 0 ? (
          <p className="org-muted">{org.name} has no projects yet.</p>
        ) : (
          <table className="dash-table" aria-label="Projects and plans">
            <thead>
              <tr>
                <th>Project</th>
                <th>Plan</th>
                <th>Monthly fee</th>
              </tr>
            </thead>
            <tbody>
              {usage.data.projects.map((project) => (
                <tr key={project.ref}>
                  <td>
                    {project.name} <code className="org-muted">{project.ref}</code>
                  </td>
                  <td>
                    <Badge tone={project.plan === 'pro' ? 'success' : 'neutral'}>{PLAN_PRICES[project.plan].label}</Badge>
                  </td>
                  <td>{formatCents(PLAN_PRICES[project.plan].monthly_fee_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </SettingsCard>
      <SettingsCard title="Prices" description="Sizes count in GB of 1024³ bytes. Database and storage sizes are the month's last reading; egress is the month's total.">
        <table className="dash-table" aria-label="Prices">
          <thead>
            <tr>
              <th />
              {PROJECT_PLANS.map((plan) => (
                <th key={plan}>{PLAN_PRICES[plan].label}</th>
              ))}
              <th>Overage</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Monthly fee per project</td>
              {PROJECT_PLANS.map((plan) => (
                <td key={plan}>{formatCents(PLAN_PRICES[plan].monthly_fee_cents)}</td>
              ))}
              <td className="org-muted">—</td>
            </tr>
            {USAGE_METRICS.map((metric) => (
              <tr key={metric}>
                <td>{USAGE_METRIC_LABELS[metric]}</td>
                {PROJECT_PLANS.map((plan) => (
                  <td key={plan}>{formatBytes(PLAN_PRICES[plan].included[metric])} included</td>
                ))}
                <td>{formatCents(OVERAGE_CENTS_PER_GIB[metric])} per GB (paid plans)</td>
              </tr>
            ))}
          </tbody>
        </table>
      </SettingsCard>
    </div>
  );
}
