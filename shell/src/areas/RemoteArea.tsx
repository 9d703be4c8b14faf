import { Component, Suspense, use, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { ErrorPanel, NoAccess, platformApi, Spinner } from '@dash/shell-sdk';
import { roleHasPermission, type PermissionName, type RegistryRemote } from '@dash/contracts';
import {
  getRemoteModule,
  RemoteContractError,
  RemoteLoadError,
  resetRemoteModule,
  type LoadedRemoteModule,
} from '../federation/remoteModules';

/**
 * One remote's area in the content column. Loads `<name>/module` on first visit, checks it against the
 * contract and renders its routes. Whatever goes wrong stays in here, with Retry; the menu and the top bar
 * keep working. Browser tests find the area by `data-remote` / `data-remote-version`.
 */
export function RemoteArea({ remote }: { remote: RegistryRemote }) {
  const { pathname } = useLocation();
  return (
    <div className="shell-area" data-remote={remote.name} data-remote-version={remote.version}>
      <AreaBoundary remote={remote} resetKey={pathname}>
        <Suspense fallback={<Spinner label={`Loading ${remote.title}`} />}>
          <RemoteRoutes remote={remote} />
        </Suspense>
      </AreaBoundary>
    </div>
  );
}

function RemoteRoutes({ remote }: { remote: RegistryRemote }) {
  const mod = use(getRemoteModule(remote));
  const AreaRoutes = mod.routes;
  return (
    <PermissionGate mod={mod} title={remote.title}>
      <AreaRoutes />
    </PermissionGate>
  );
}

/**
 * A remote may name permissions its whole area needs. Without them the member sees a no-access notice
 * instead of a page of failing calls (a courtesy: each service checks its own routes).
 */
function PermissionGate({ mod, title, children }: { mod: LoadedRemoteModule; title: string; children: ReactNode }) {
  const required = mod.requiredPermissions ?? [];
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
      const keep = state.error instanceof RemoteLoadError || state.error instanceof RemoteContractError;
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
    return <AreaError remote={this.props.remote} error={error} onRetry={this.retry} />;
  }
}

function AreaError({ remote, error, onRetry }: { remote: RegistryRemote; error: unknown; onRetry: () => void }) {
  const loadFailed = error instanceof RemoteLoadError || error instanceof RemoteContractError;
  const title = loadFailed ? `Failed to load ${remote.title}` : `${remote.title} failed`;
  const message = error instanceof Error ? error.message : String(error);
  // Retry resets the boundary at once: the Suspense spinner shows while the remote loads again.
  return <ErrorPanel title={title} message={message} onRetry={onRetry} />;
}
