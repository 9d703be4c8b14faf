import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { EmptyState, PageHeader } from '@dash/shell-sdk/ui';
import './settings-pages.css';

/**
 * `/project/:ref/settings/functions` (hosted, with the edge functions permission): the settings of the
 * project's edge functions. The project has none to configure; their secrets belong in the vault.
 */
export function FunctionsSettingsPage() {
  const ref = useProjectRef();
  return (
    <div className="ps-page">
      <PageHeader title="Edge Functions" description="Settings shared by the edge functions of this project." />
      <EmptyState
        title="No edge functions are deployed to this project"
        description="Their settings appear here once the project has functions. Keep the secrets they will need in the vault."
        action={<Link to={`/project/${ref}/settings/vault/secrets`}>Open the vault</Link>}
      />
    </div>
  );
}
