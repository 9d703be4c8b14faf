/**
 * The only module that talks to the Module Federation runtime. Jest never runs the federation plugin, so
 * tests replace this module (`jest.mock('../src/federation/loader')`); everything else imports from here.
 */
import { loadRemote as mfLoadRemote, registerRemotes as mfRegisterRemotes } from '@module-federation/enhanced/runtime';

export interface RemoteEntry {
  name: string;
  /** mf-manifest.json URL. */
  entry: string;
}

/**
 * Tells the runtime where remotes live. `force` replaces an existing registration and clears what the
 * runtime cached for it (manifest, container, a failed load), so the next `loadRemote` starts afresh.
 */
export function registerRemotes(remotes: RemoteEntry[], options?: { force?: boolean }): void {
  // The runtime normalises the objects it is given in place: hand it copies.
  mfRegisterRemotes(
    remotes.map((r) => ({ name: r.name, entry: r.entry })),
    options,
  );
}

/** Loads an exposed module, e.g. `mfe_logs/module`; resolves to its module namespace object. */
export function loadRemote(id: string): Promise<unknown> {
  return mfLoadRemote<unknown>(id);
}

/**
 * A remote's mf-manifest.json, read by the shell before the runtime loads the remote (to check the SDK
 * range it needs). Versioned manifests are served immutable, so the runtime's own fetch that follows is
 * answered from the browser's cache. Resolves to null when it cannot be read: the runtime then reports why.
 */
export async function loadManifest(entry: string): Promise<unknown> {
  try {
    const response = await fetch(entry, { credentials: 'omit' });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
