import { useEffect } from 'react';
import { Link, Navigate, Route, Routes, useParams } from 'react-router-dom';
import { useDashConfig } from '@dash/shell-sdk';
import { EmptyState, Spinner } from '@dash/shell-sdk/ui';
import { OrganizationMessages, OrgSlugParams } from '@dash/contracts';
import { describeError, errorStatus } from '../api/errors';
import { useGetOrganizationQuery } from '../api/organization';
import { FullPageError } from '../errors/FullPageError';
import { HostedOnly } from '../layout/HostedOnly';
import { SectionLayout } from '../layout/SectionLayout';
import { OrgAuditPage } from '../audit/OrgAuditPage';
import { BillingPage } from './BillingPage';
import { GeneralPage } from './GeneralPage';
import { IntegrationsPage } from './IntegrationsPage';
import { InvoicesPage } from './InvoicesPage';
import { LegalDocumentsPage } from './LegalDocumentsPage';
import { OAuthAppsPage } from './OAuthAppsPage';
import { orgMenu } from './org-menu';
import { TeamPage } from './TeamPage';
import { UsagePage } from './UsagePage';
import './org.css';

const SLUG = new RegExp(OrgSlugParams.properties.slug.pattern ?? '^[a-z0-9-]{1,64}$');

/** `/org/:slug/*`: the organization's menu and pages. Someone who is not a member sees "not found". */
export function OrgLayout() {
  const { slug = '', '*': rest = '' } = useParams();
  const valid = SLUG.test(slug);
  const org = useGetOrganizationQuery({ slug }, { skip: !valid });
  const { mode } = useDashConfig();
  const page = orgMenu(slug, org.data, mode)[0]!.items.find((item) => item.to === `/org/${slug}/${rest.split('/')[0]}`)?.label;

  useEffect(() => {
    document.title = [page, org.data?.name, 'Dashboard'].filter(Boolean).join(' | ');
  }, [page, org.data?.name]);

  if (!valid) return <FullPageError code={404} message={OrganizationMessages.organizationNotFound} />;
  if (org.error) {
    const status = errorStatus(org.error);
    if (status === 404) return <FullPageError code={404} message={OrganizationMessages.organizationNotFound} />;
    // 401: SessionWatcher is already on its way to sign-in.
    if (status !== 401) {
      const { code, message } = describeError(org.error);
      return <FullPageError code={code} message={message} />;
    }
  }

  const crumbs = (
    <>
      <Link to="/projects" className="shell-topbar__crumb">
        Projects
      </Link>
      <span className="shell-topbar__sep" aria-hidden>
        /
      </span>
      {org.data ? (
        <Link to={`/org/${slug}`} className="shell-topbar__crumb is-current" aria-current="page">
          {org.data.name}
        </Link>
      ) : (
        <span className="shell-topbar__crumb shell-skeleton" aria-label="Loading organization" />
      )}
    </>
  );

  return (
    <SectionLayout title={org.data?.name ?? 'Organization'} sections={orgMenu(slug, org.data, mode)} crumbs={crumbs}>
      {org.data ? (
        <Routes>
          <Route index element={<Navigate to="general" replace />} />
          <Route path="general" element={<GeneralPage org={org.data} />} />
          <Route path="team" element={<TeamPage org={org.data} />} />
          <Route path="integrations" element={<IntegrationsPage />} />
          <Route path="billing" element={<HostedOnly><BillingPage org={org.data} /></HostedOnly>} />
          <Route path="usage" element={<HostedOnly><UsagePage org={org.data} /></HostedOnly>} />
          <Route path="invoices" element={<HostedOnly><InvoicesPage org={org.data} /></HostedOnly>} />
          <Route path="apps" element={<OAuthAppsPage org={org.data} />} />
          <Route path="audit" element={<OrgAuditPage org={org.data} />} />
          <Route path="documents" element={<LegalDocumentsPage />} />
          <Route path="*" element={<EmptyState title="Page not found" description="This organization has no such page." />} />
        </Routes>
      ) : (
        <Spinner label="Loading organization" />
      )}
    </SectionLayout>
  );
}
