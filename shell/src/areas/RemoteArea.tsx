import { Component, Suspense, use, type ComponentType, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { platformApi } from '@dash/shell-sdk';
import { AreaLayout, ErrorPanel, NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { remoteAreasOf, roleHasPermission, type PermissionName, type RegistryArea, type RegistryRemote, type RemoteAreaModule } from '@dash/contracts';
import { areaMenu } from '../layout/menu-model';
import { useMenuContext } from '../layout/useMenuContext';
import {
  getRemoteModule,
  RemoteContractError,
  RemoteLoadError,
  RemoteNeedsNewerShellError,
  resetRemoteModule,
} from '../federation/remoteModules';

/**
 * One area of a remote in the content column. Loads `<name>/module` on first visit, checks it against the
 * contract and renders the area's routes, in the area's menu when it declares one. Whatever goes wrong
 * stays in here, with Retry; the menu and the top bar keep working. Browser tests find the area by
 * `data-remote` / `data-remote-version` / `data-area`.
 */
export function RemoteArea({ remote, area }: { remote: RegistryRemote; area: RegistryArea }) {
  const { pathname } = useLocation();
  return (
    <div className="shell-area" data-remote={remote.name} data-remote-version={remote.version} data-area={area.mount}>
      <AreaBoundary remote={remote} title={area.title} resetKey={pathname}>
        <Suspense fallback={<Spinner label={`Loading ${area.title}`} />}>
          <RemoteRoutes remote={remote} area={area} />
        </Suspense>
      </AreaBoundary>
    </div>
  );
}

function RemoteRoutes({ remote, area }: { remote: RegistryRemote; area: RegistryArea }) {
  const mod = use(getRemoteModule(remote));
  const served = remoteAreasOf(mod, remote).find((candidate) => candidate.mount === area.mount);
  // The module was checked against the registry's areas when it loaded; this guards a mount it lost since.
  if (!served) throw new RemoteContractError([`the module does not serve the area "${area.mount}"`]);
  return (
    <PermissionGate required={served.requiredPermissions ?? []} title={served.title}>
      <AreaFrame area={served} />
    </PermissionGate>
  );
}

/** The area's routes, inside the menu it declares (drawn by the shell, gated like the project menu). */
function AreaFrame({ area }: { area: RemoteAreaModule<ComponentType> }) {
  const { ref = '' } = useParams();
  const context = useMenuContext(ref);
  const Routes = area.routes;
  const MenuExtra = area.menuExtra;
  if (!area.menu) return <Routes />;
  return (
    <AreaLayout title={area.title} sections={areaMenu(area.menu, `/project/${ref}/${area.mount}`, context)} menuExtra={MenuExtra && <MenuExtra />}>
      <Routes />
    </AreaLayout>
  );
}

/**
 * An area may name permissions it needs as a whole. Without them the member sees a no-access notice
 * instead of a page of failing calls (a courtesy: each service checks its own routes).
 */
function PermissionGate({ required, title, children }: { required: PermissionName[]; title: string; children: ReactNode }) {
  if (required.length === 0) return children;
  return (
    <RequiredPermissions required={required} title={title}>
      {children}
    </RequiredPermissions>
  );
}

function RequiredPermissions({ required, title, children }: { required: PermissionName[]; title: string; children: ReactNode }) {
  const { ref = '' } = useParams();
  const { data, isLoading } = platformApi.useProjectPermissionsQuery({ ref });
  if (isLoading) return <Spinner label={`Loading ${title}`} />;
  // If the permissions could not be read, let the area render: its services still decide.
  if (data && !required.every((p) => roleHasPermission(data.role, p))) return <NoAccess what={`open ${title} in this project`} />;
  return children;
}

interface BoundaryProps {
  remote: RegistryRemote;
  title: string;
  resetKey: string;
  children: ReactNode;
}
interface BoundaryState {
  error: unknown;
  resetKey: string;
}

/**
 * Catches a failed load (rejected `use`), a contract failure and a crash while rendering. React itself
 * logs the caught error with its component stack.
 */
class AreaBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    // Moving to another page of the area clears a render crash (not a failed load: that needs Retry).
    if (props.resetKey !== state.resetKey) {
      const keep =
        state.error instanceof RemoteLoadError || state.error instanceof RemoteContractError || state.error instanceof RemoteNeedsNewerShellError;
      return { resetKey: props.resetKey, error: keep ? state.error : null };
    }
    return null;
  }

  private retry = () => {
    // Code that never loaded or broke the contract is fetched again; code that loaded but threw while
    // rendering is simply rendered again (its module is fine, re-running it would not help).
    if (this.state.error instanceof RemoteLoadError || this.state.error instanceof RemoteContractError) {
      resetRemoteModule(this.props.remote);
    }
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <AreaError title={this.props.title} error={error} onRetry={this.retry} />;
  }
}

function AreaError({ title: areaTitle, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  // Retrying cannot help here: only a newer shell (a page reload after it is deployed) can.
  if (error instanceof RemoteNeedsNewerShellError) return <ErrorPanel title={`${areaTitle} needs a newer dashboard`} message={error.message} />;
  const loadFailed = error instanceof RemoteLoadError || error instanceof RemoteContractError;
  const title = loadFailed ? `Failed to load ${areaTitle}` : `${areaTitle} failed`;
  const message = error instanceof Error ? error.message : String(error);
  // Retry resets the boundary at once: the Suspense spinner shows while the remote loads again.
  return <ErrorPanel title={title} message={message} onRetry={onRetry} />;
}
