import { PageHeader } from '@dash/shell-sdk/ui';
import { useAccountAuditQuery } from '../api/audit';
import { AuditLog } from './AuditLog';

/** `/account/audit` (mounted by the account pages): the signed-in user's own actions, in every organization. */
export function AccountAuditPage() {
  return (
    <div className="ps-page org-page--wide">
      <PageHeader title="Audit logs" description="What you changed, in every organization you belong to, newest first." />
      <AuditLog label="Your audit log" showOrganization usePage={useAccountAuditQuery} />
    </div>
  );
}
