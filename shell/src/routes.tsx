import type { ComponentType } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { Spinner } from '@dash/shell-sdk/ui';
import { NotFoundPage, RouteErrorPage } from './errors/RouteErrorPage';
import { HostedOnly } from './layout/HostedOnly';
import { ProjectLayout } from './layout/ProjectLayout';
import { SignInPage } from './pages/SignInPage';
import { ConnectionBanner } from './session/ConnectionBanner';
import { SessionWatcher } from './session/SessionWatcher';
import { ThemeSync } from './account/ThemeSync';

/**
 * A route whose page loads when first visited: a visit to a project (the table editor, say) downloads
 * neither the organization, account and project-list pages nor what they use (QR codes, their forms).
 * The router waits for the module before rendering the route. `hostedOnly` wraps it as `HostedOnly` does.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, hostedOnly = false): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Page = pick(await load());
      return { element: hostedOnly ? <HostedOnly><Page /></HostedOnly> : <Page /> };
    },
  };
}

function Root() {
  return (
    <>
      <SessionWatcher />
      <ConnectionBanner />
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
    // Shown while the first page's module loads (a lazy page opened by its URL).
    hydrateFallbackElement: <Spinner label="Loading page" />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        // A crash in any page below keeps the session watcher mounted.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Navigate to="/projects" replace /> },
          { path: 'sign-in', element: <SignInPage /> },
          { path: 'sign-in-mfa', ...lazyPage(() => import('./pages/SignInMfaPage'), (m) => m.SignInMfaPage) },
          {
            path: 'account',
            ...lazyPage(() => import('./account/AccountLayout'), (m) => m.AccountLayout, true),
            children: [
              { index: true, element: <Navigate to="me" replace /> },
              { path: 'me', ...lazyPage(() => import('./account/PreferencesPage'), (m) => m.PreferencesPage) },
              { path: 'tokens', ...lazyPage(() => import('./account/AccessTokensPage'), (m) => m.AccessTokensPage) },
              { path: 'security', ...lazyPage(() => import('./account/SecurityPage'), (m) => m.SecurityPage) },
              { path: 'audit', ...lazyPage(() => import('./audit/AccountAuditPage'), (m) => m.AccountAuditPage) },
            ],
          },
          { path: 'projects', ...lazyPage(() => import('./pages/ProjectsPage'), (m) => m.ProjectsPage, true) },
          { path: 'project/:ref/*', element: <ProjectLayout /> },
          { path: 'org/:slug/*', ...lazyPage(() => import('./org/OrgLayout'), (m) => m.OrgLayout, true) },
          { path: 'join', ...lazyPage(() => import('./pages/JoinPage'), (m) => m.JoinPage) },
          // `/new` alone opens the first organization the user may create projects in.
          { path: 'new/:slug?', ...lazyPage(() => import('./projects/NewProjectPage'), (m) => m.NewProjectPage, true) },
          { path: 'support/new', ...lazyPage(() => import('./pages/SupportPage'), (m) => m.SupportPage) },
          { path: 'terms', ...lazyPage(() => import('./pages/LegalPages'), (m) => m.TermsPage) },
          { path: 'privacy', ...lazyPage(() => import('./pages/LegalPages'), (m) => m.PrivacyPage) },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
