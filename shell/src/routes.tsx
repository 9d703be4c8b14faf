import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { NotFoundPage, RouteErrorPage } from './errors/RouteErrorPage';
import { ProjectLayout } from './layout/ProjectLayout';
import { PrivacyPage, TermsPage } from './pages/LegalPages';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignInPage } from './pages/SignInPage';
import { SupportPage } from './pages/SupportPage';
import { SessionWatcher } from './session/SessionWatcher';

function Root() {
  return (
    <>
      <SessionWatcher />
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
          { path: 'projects', element: <ProjectsPage /> },
          { path: 'project/:ref/*', element: <ProjectLayout /> },
          { path: 'support/new', element: <SupportPage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
