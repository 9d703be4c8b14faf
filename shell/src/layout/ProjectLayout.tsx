import { lazy, Suspense, useEffect } from 'react';
import { Link, Navigate, NavLink, Route, Routes, useParams } from 'react-router-dom';
import { EmptyState, Spinner } from '@dash/shell-sdk/ui';
import { RefParams, ServiceMessages } from '@dash/contracts';
import { useGetProjectQuery } from '../api/projects';
import { describeError, errorStatus } from '../api/errors';
import { RemoteArea } from '../areas/RemoteArea';
import { FullPageError } from '../errors/FullPageError';
import { useRegistry } from '../registry/context';
import { BuildingPage } from '../projects/BuildingPage';
import { ProjectStatusBanner } from '../projects/ProjectStatusBanner';
import { AreaIcon } from './icons';
import { areaForPath, areaRoutes, projectMenu, SHELL_AREAS } from './menu-model';
import { TopBar } from './TopBar';
import { useMenuContext } from './useMenuContext';

/** The project's settings pages load when first opened, not with every project page. */
const ProjectSettingsArea = lazy(() => import('../settings/ProjectSettingsArea').then((m) => ({ default: m.ProjectSettingsArea })));

const REF_PATTERN = new RegExp(RefParams.properties.ref.pattern ?? '^[a-z0-9-]{1,64}$');

/** Pages of the project the shell serves itself (the rest come from the registry's remotes). */
const SHELL_PAGES = [...SHELL_AREAS, 'building'];

const isShellPath = (rest: string) => SHELL_PAGES.some((page) => rest === page || rest.startsWith(`${page}/`));

/**
 * `/project/:ref/*`: the top bar, the project menu built from the registry's areas in the product's order
 * (gated by the member's role, the variant and the flags), and the area of the current path.
 */
export function ProjectLayout() {
  const params = useParams();
  const ref = params.ref ?? '';
  const rest = (params['*'] ?? '').replace(/\/+$/, '');
  const { remotes } = useRegistry();
  const validRef = REF_PATTERN.test(ref);
  const project = useGetProjectQuery({ ref }, { skip: !validRef });
  const context = useMenuContext(validRef ? ref : '');
  const menu = projectMenu(remotes, context);
  const current = areaForPath(remotes, rest);
  const currentTitle = current?.area.title ?? menu.find((item) => rest === item.mount || rest.startsWith(`${item.mount}/`))?.title;

  useEffect(() => {
    const parts = [currentTitle, project.data?.name, 'Dashboard'].filter(Boolean);
    document.title = parts.join(' | ');
  }, [currentTitle, project.data?.name]);

  if (!validRef) return <FullPageError code={404} message={ServiceMessages.projectNotFound} />;
  if (project.error) {
    const status = errorStatus(project.error);
    if (status === 404) return <FullPageError code={404} message={ServiceMessages.projectNotFound} />;
    // 401: SessionWatcher is already on its way to sign-in.
    if (status !== 401) {
      const { code, message } = describeError(project.error);
      return <FullPageError code={code} message={message} />;
    }
  }
  if (rest && !current && !isShellPath(rest)) return <FullPageError code={404} message="Page not found" />;

  return (
    <div className="shell-frame">
      <TopBar>
        {project.data ? (
          <>
            {context.mode === 'hosted' ? (
              <Link to={`/org/${project.data.organization_slug}`} className="shell-topbar__crumb">
                {project.data.organization_name}
              </Link>
            ) : (
              <span className="shell-topbar__crumb">{project.data.organization_name}</span>
            )}
            <span className="shell-topbar__sep" aria-hidden>
              /
            </span>
            <Link to={`/project/${ref}`} className="shell-topbar__crumb is-current" aria-current="page">
              {project.data.name}
            </Link>
          </>
        ) : (
          <span className="shell-topbar__crumb shell-skeleton" aria-label="Loading project" />
        )}
      </TopBar>
      <div className="shell-frame__body">
        <aside className="shell-menu" aria-label="Project menu">
          <nav>
            <ul>
              {menu.map((item) => (
                <li key={item.mount}>
                  <NavLink to={`/project/${ref}/${item.mount}`} className={({ isActive }) => `shell-menu__link${isActive ? ' is-active' : ''}`}>
                    <AreaIcon mount={item.mount} />
                    <span>{item.title}</span>
                    {item.badge && <span className="shell-menu__badge">{item.badge}</span>}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <main className="shell-content">
          {project.data && <ProjectStatusBanner project={project.data} />}
          {project.data ? (
            <Routes>
              {areaRoutes(remotes)
                .filter(({ area }) => !SHELL_AREAS.some((shellArea) => area.mount.startsWith(`${shellArea}/`)))
                .map(({ area, remote }) => (
                  <Route key={area.mount} path={`${area.mount}/*`} element={<RemoteArea key={`${remote.name}:${area.mount}`} remote={remote} area={area} />} />
                ))}
              <Route
                path="settings/*"
                element={
                  <Suspense fallback={<Spinner label="Loading settings" />}>
                    <ProjectSettingsArea project={project.data} />
                  </Suspense>
                }
              />
              <Route path="building" element={<BuildingPage />} />
              <Route
                index
                element={
                  menu[0] && menu[0].mount !== 'settings' ? (
                    <Navigate to={menu[0].mount} replace />
                  ) : context.isLoading ? (
                    <Spinner label="Loading project" />
                  ) : (
                    <div className="shell-content__empty">
                      <EmptyState title="No areas are published yet" description="Publish a remote to the registry and reload the page." />
                    </div>
                  )
                }
              />
            </Routes>
          ) : (
            <Spinner label="Loading project" />
          )}
        </main>
      </div>
    </div>
  );
}
