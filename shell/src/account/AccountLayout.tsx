import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import type { AreaNavSection } from '@dash/shell-sdk/ui';
import { SectionLayout } from '../layout/SectionLayout';
import './account.css';

/** The account menu (§2): preferences, access tokens, security, and the user's own audit log. */
export const ACCOUNT_SECTIONS: AreaNavSection[] = [
  {
    title: 'Account settings',
    items: [
      { label: 'Preferences', to: '/account/me' },
      { label: 'Access Tokens', to: '/account/tokens' },
      { label: 'Security', to: '/account/security' },
    ],
  },
  { title: 'Logs', items: [{ label: 'Audit logs', to: '/account/audit' }] },
];

/** `/account/*`: the top bar, the account menu and the page. */
export function AccountLayout() {
  const { pathname } = useLocation();
  const page = ACCOUNT_SECTIONS.flatMap((section) => section.items).find((item) => item.to === pathname)?.label;
  useEffect(() => {
    document.title = [page, 'Account', 'Dashboard'].filter(Boolean).join(' | ');
  }, [page]);
  return (
    <SectionLayout title="Account" sections={ACCOUNT_SECTIONS}>
      <div className="account-page">
        <Outlet />
      </div>
    </SectionLayout>
  );
}
