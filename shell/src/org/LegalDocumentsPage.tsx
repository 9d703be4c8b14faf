import { Link } from 'react-router-dom';
import { PageHeader } from '@dash/shell-sdk/ui';
import { SettingsCard } from '../settings/parts';

/** Legal Documents: the agreements that apply to the organization. */
export function LegalDocumentsPage() {
  return (
    <div className="ps-page">
      <PageHeader title="Legal Documents" description="The agreements that apply to your organization and its projects." />
      <SettingsCard title="Terms of Service" description="What you and we agree to when your organization uses the dashboard." footer={<Link to="/terms">Read the Terms of Service</Link>} />
      <SettingsCard title="Privacy Policy" description="What we collect when you use the dashboard, why, and the choices you have." footer={<Link to="/privacy">Read the Privacy Policy</Link>} />
    </div>
  );
}
