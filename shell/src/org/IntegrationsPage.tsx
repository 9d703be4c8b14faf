import { EmptyState, PageHeader } from '@dash/shell-sdk/ui';

/** Integrations: none can be connected in this deployment yet; the page says so rather than pretending. */
export function IntegrationsPage() {
  return (
    <div className="ps-page org-page--wide">
      <PageHeader title="Integrations" description="Connect your organization to other services." />
      <EmptyState
        title="No integrations connected"
        description="Integrations (Git providers, deploy hooks) are not available in this deployment yet. To let an application sign users in with this organization, register it under OAuth Apps."
      />
    </div>
  );
}
