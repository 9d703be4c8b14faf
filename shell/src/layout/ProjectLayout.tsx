import { useEffect } from 'react';
import { Link, Navigate, Route, Routes, useParams } from 'react-router-dom';
import { EmptyState, Spinner } from '@dash/shell-sdk';
import { RefParams, ServiceMessages, type RegistryRemote } from '@dash/contracts';
import { useGetProjectQuery } from '../api/projects';
import { describeError, errorStatus } from '../api/errors';
import { RemoteArea } from '../areas/RemoteArea';
import { FullPageError } from '../errors/FullPageError';
import { useRegistry } from '../registry/context';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';

/** Addresses of the spec that a remote serves at another path of its own area. */
const ADDRESS_ALIASES: Record<string, string> = { 'settings/storage': 'storage/settings' };

const REF_PATTERN = new RegExp(RefParams.properties.ref.pattern ?? '^[a-z0-9-]{1,64}$');

/** The remote whose mount the rest of the path (`editor/123`, `auth/policies`) falls under. */
export function remoteForPath(remotes: RegistryRemote[], rest: string): RegistryRemote | undefined {
  return remotes
    .filter((r) => rest === r.mount || rest.startsWith(`${r.mount}/`))
    .sort((a, b) => b.mount.length - a.mount.length)[0];
}

/** `/project/:ref/*`: top bar, the side menu from the registry, and the area of the current remote. */
export function ProjectLayout() {
  const params = useParams();
  const ref = params.ref ?? '';
  const rest = (params['*'] ?? '').replace(/\/+$/, '');
  const { remotes } = useRegistry();
  const validRef = REF_PATTERN.test(ref);
  const project = useGetProjectQuery({ ref }, { skip: !validRef });
  const current = remoteForPath(remotes, rest);

  useEffect(() => {
    const parts = [current?.title, project.data?.name, 'Dashboard'].filter(Boolean);
    document.title = parts.join(' | ');
  }, [current?.title, project.data?.name]);

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
  const alias = ADDRESS_ALIASES[rest];
  if (alias) return <Navigate to={`/project/${ref}/${alias}`} replace />;
  if (rest && !current) return <FullPageError code={404} message="Page not found" />;

  return (
    <div className="shell-frame">
      <TopBar>
        {project.data ? (
          <>
            <span className="shell-topbar__crumb">{project.data.organization_name}</span>
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
        <SideMenu projectRef={ref} remotes={remotes} />
        <main className="shell-content">
          {project.data ? (
            <Routes>
              {remotes.map((remote) => (
                <Route key={remote.name} path={`${remote.mount}/*`} element={<RemoteArea key={remote.name} remote={remote} />} />
              ))}
              <Route
                index
                element={
                  remotes[0] ? (
                    <Navigate to={remotes[0].mount} replace />
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
