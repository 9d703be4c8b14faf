import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { EmailsPage } from './emails/EmailsPage';
import { PoliciesPage } from './pages/PoliciesPage';
import { policyPaths } from './paths';
import { HooksPage, ProvidersPage, RateLimitsPage, TemplatesPage, UrlConfigurationPage } from './settings/AuthSettingsPages';
import { UsersPage } from './users/UsersPage';
import './policies.css';
import './users/auth-pages.css';

function ToIndex() {
  return <Navigate to={policyPaths.index(useProjectRef())} replace />;
}

/** Descendant routes under /project/:ref/auth (the Authentication area); the shell draws its menu. */
export function PoliciesRoutes() {
  return (
    <div className="pol-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route path="users" element={<UsersPage />} />
        <Route path="emails" element={<EmailsPage />} />
        <Route path="policies" element={<PoliciesPage />} />
        <Route path="providers" element={<ProvidersPage />} />
        <Route path="rate-limits" element={<RateLimitsPage />} />
        <Route path="templates" element={<TemplatesPage />} />
        <Route path="url-configuration" element={<UrlConfigurationPage />} />
        <Route path="hooks" element={<HooksPage />} />
        <Route path="*" element={<ToIndex />} />
      </Routes>
    </div>
  );
}
