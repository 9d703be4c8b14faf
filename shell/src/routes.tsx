import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { NotFoundPage, RouteErrorPage } from './errors/RouteErrorPage';
import { AccountAuditPage } from './audit/AccountAuditPage';
import { HostedOnly } from './layout/HostedOnly';
import { ProjectLayout } from './layout/ProjectLayout';
import { PrivacyPage, TermsPage } from './pages/LegalPages';
import { NewProjectPage } from './projects/NewProjectPage';
import { JoinPage } from './pages/JoinPage';
import { OrgLayout } from './org/OrgLayout';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignInPage } from './pages/SignInPage';
import { SupportPage } from './pages/SupportPage';
import { SessionWatcher } from './session/SessionWatcher';
import { AccessTokensPage } from './account/AccessTokensPage';
import { AccountLayout } from './account/AccountLayout';
import { PreferencesPage } from './account/PreferencesPage';
import { SecurityPage } from './account/SecurityPage';
import { ThemeSync } from './account/ThemeSync';
import { SignInMfaPage } from './pages/SignInMfaPage';

function Root() {
  return (
    <>
      <SessionWatcher />
      <ThemeSync />
      <Outlet />
    </>
  );
}

/**
 * The shell's routes. Areas are not listed here: `ProjectLayout` renders one descendant route per registry
 * remote (`<mount>/*`), so the shell knows no remote at build time.
 */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        // A crash in any page below keeps the session watcher mounted.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Navigate to="/projects" replace /> },
          { path: 'sign-in', element: <SignInPage /> },
          { path: 'sign-in-mfa', element: <SignInMfaPage /> },
          {
            path: 'account',
            element: (
              <HostedOnly>
                <AccountLayout />
              </HostedOnly>
            ),
            children: [
              { index: true, element: <Navigate to="me" replace /> },
              { path: 'me', element: <PreferencesPage /> },
              { path: 'tokens', element: <AccessTokensPage /> },
              { path: 'security', element: <SecurityPage /> },
              { path: 'audit', element: <AccountAuditPage /> },
            ],
          },
          { path: 'projects', element: <HostedOnly><ProjectsPage /></HostedOnly> },
          { path: 'project/:ref/*', element: <ProjectLayout /> },
          { path: 'org/:slug/*', element: <HostedOnly><OrgLayout /></HostedOnly> },
          { path: 'join', element: <JoinPage /> },
          // `/new` alone opens the first organization the user may create projects in.
          { path: 'new/:slug?', element: <HostedOnly><NewProjectPage /></HostedOnly> },
          { path: 'support/new', element: <SupportPage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
