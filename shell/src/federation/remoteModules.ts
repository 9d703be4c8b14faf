import type { ComponentType } from 'react';
import { checkRemoteModule, SUPPORTED_REMOTE_CONTRACTS, type RegistryRemote, type RemoteModule } from '@dash/contracts';
import { SDK_VERSION } from '@dash/shell-sdk';
import { loadManifest, loadRemote, registerRemotes } from './loader';
import { sdkCompatibility } from './compatibility';

export type LoadedRemoteModule = RemoteModule<ComponentType>;

/** The remote's code could not be fetched or evaluated (manifest, remoteEntry or chunk). */
export class RemoteLoadError extends Error {
  override name = 'RemoteLoadError';
}

/** The remote loaded but does not satisfy the `RemoteModule` contract; `problems` lists why. */
export class RemoteContractError extends Error {
  override name = 'RemoteContractError';
  constructor(readonly problems: string[]) {
    super(`The module does not satisfy the remote contract: ${problems.join('; ')}`);
  }
}

/**
 * The remote was built for a newer SDK core than this shell provides (its manifest says which): its code is
 * not run. It opens once the shell is updated; nothing needs redeploying in a particular order.
 */
export class RemoteNeedsNewerShellError extends Error {
  override name = 'RemoteNeedsNewerShellError';
  constructor(
    readonly needs: string,
    readonly provides: string,
  ) {
    super(`This area was built for dashboard SDK ${needs}; this dashboard provides ${provides}. It will open after the dashboard is updated: reload the page then.`);
  }
}

/** A promise React's `use()` can read synchronously once it has settled (no Suspense flash on revisits). */
type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

const cache = new Map<string, TrackedPromise<LoadedRemoteModule>>();
const keyOf = (remote: RegistryRemote) => `${remote.name}@${remote.version}`;

function track<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked = promise as TrackedPromise<T>;
  tracked.status = 'pending';
  // The handlers must not return `tracked` (Object.assign would): the derived promise would adopt its rejection.
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}

async function load(remote: RegistryRemote): Promise<LoadedRemoteModule> {
  if (!SUPPORTED_REMOTE_CONTRACTS.includes(remote.contract)) {
    // Published for a contract this shell does not know: don't even run its code.
    throw new RemoteContractError([`the registry lists contract ${remote.contract}, the shell loads ${SUPPORTED_REMOTE_CONTRACTS.join(' and ')}`]);
  }
  const compatibility = sdkCompatibility(await loadManifest(remote.entry), SDK_VERSION);
  if (!compatibility.ok) throw new RemoteNeedsNewerShellError(compatibility.needs, SDK_VERSION);
  let namespace: unknown;
  try {
    namespace = await loadRemote(`${remote.name}/module`);
  } catch (error) {
    throw new RemoteLoadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (namespace === null || namespace === undefined) throw new RemoteLoadError(`${remote.name}/module could not be loaded`);
  const candidate = (namespace as { default?: unknown }).default;
  const problems = checkRemoteModule(candidate, remote);
  if (problems.length) throw new RemoteContractError(problems);
  return candidate as LoadedRemoteModule;
}

/** The remote's `./module`, loaded once per name and version (one promise shared by every visit). */
export function getRemoteModule(remote: RegistryRemote): Promise<LoadedRemoteModule> {
  const key = keyOf(remote);
  let promise = cache.get(key);
  if (!promise) {
    promise = track(load(remote));
    cache.set(key, promise);
  }
  return promise;
}

/**
 * Before trying a failed remote again: re-register it with `force`, which clears the runtime's cached
 * manifest and container for it, and forget the failed promise so the next `getRemoteModule` loads anew.
 */
export function resetRemoteModule(remote: RegistryRemote): void {
  cache.delete(keyOf(remote));
  registerRemotes([{ name: remote.name, entry: remote.entry }], { force: true });
}

/** Tests only: forget every loaded remote. */
export function clearRemoteModuleCache(): void {
  cache.clear();
}
