import { NoAccess, PageHeader } from '@dash/shell-sdk/ui';
import { OrganizationMessages, OrgPermission, orgRoleCan, type OrganizationDetail } from '@dash/contracts';
import { useOrganizationAuditQuery } from '../api/audit';
import { AuditLog } from './AuditLog';

/** `/org/:slug/audit`: what was changed in the organization and its projects, by whom (owners and administrators). */
export function OrgAuditPage({ org }: { org: OrganizationDetail }) {
  if (!orgRoleCan(org.role, OrgPermission.AuditRead)) return <NoAccess what={OrganizationMessages.auditManagersOnly} />;
  const useAuditPage = ({ before }: { before?: string }) => useOrganizationAuditQuery({ slug: org.slug, before });
  return (
    <div className="ps-page org-page--wide">
      <PageHeader title="Audit" description="Changes to members, projects, tokens, buckets and policies in this organization, newest first." />
      <AuditLog label="Audit log" usePage={useAuditPage} />
    </div>
  );
}
