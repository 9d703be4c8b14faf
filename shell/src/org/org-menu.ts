import { canSeeInvoices, type DashMode, type OrganizationDetail } from '@dash/contracts';
import type { AreaNavSection } from '@dash/shell-sdk/ui';

/**
 * The organization menu (spec §2): billing, usage and invoices are hosted only, and invoices need the
 * billing-invoices permission and billing that is not via a partner.
 */
export function orgMenu(slug: string, org: Pick<OrganizationDetail, 'role' | 'billing_via_partner'> | undefined, mode: DashMode): AreaNavSection[] {
  const base = `/org/${slug}`;
  const hosted = mode === 'hosted';
  const items = [
    { label: 'General', to: `${base}/general` },
    { label: 'Team', to: `${base}/team` },
    { label: 'Integrations', to: `${base}/integrations` },
    ...(hosted ? [{ label: 'Billing', to: `${base}/billing` }, { label: 'Usage', to: `${base}/usage` }] : []),
    ...(hosted && org && canSeeInvoices(org.role, org.billing_via_partner) ? [{ label: 'Invoices', to: `${base}/invoices` }] : []),
    { label: 'OAuth Apps', to: `${base}/apps` },
    { label: 'Audit', to: `${base}/audit` },
    { label: 'Legal Documents', to: `${base}/documents` },
  ];
  return [{ items }];
}
