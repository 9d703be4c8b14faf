import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { EmptyState, PageHeader } from '@dash/shell-sdk/ui';
import { useGetProjectQuery } from '../api/projects';
import './settings-pages.css';

/**
 * `/project/:ref/settings/integrations` (hosted only): the integrations connected to this project. None
 * can be connected to a project yet; the organization's integrations page is where they are installed.
 */
export function IntegrationsPage() {
  const ref = useProjectRef();
  const slug = useGetProjectQuery({ ref }).data?.organization_slug;
  return (
    <div className="ps-page">
      <PageHeader title="Integrations" description="Services your organization connects to this project." />
      <EmptyState
        title="No integrations are connected to this project"
        description="Integrations are installed for the whole organization, then connected to its projects."
        action={slug && <Link to={`/org/${slug}/integrations`}>Organization integrations</Link>}
      />
    </div>
  );
}
