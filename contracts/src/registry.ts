import { Type, type Static } from '@sinclair/typebox';
import type { PermissionName } from './permissions';

/** Version of the `RemoteModule` contract. A remote built against another version is refused. */
export const REMOTE_CONTRACT_VERSION = 1;
export const REGISTRY_SCHEMA_VERSION = 1;

export const RegistryRemote = Type.Object(
  {
    /** Module Federation name, e.g. `mfe_logs`; the shell loads `<name>/module`. */
    name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
    version: Type.String({ minLength: 1, maxLength: 100 }),
    /** Versioned mf-manifest.json URL on the remote's own origin. */
    entry: Type.String({ pattern: '^https?://.+/mf-manifest\\.json$' }),
    contract: Type.Integer({ minimum: 1 }),
    /** Route under /project/:ref where the area mounts, e.g. `logs` or `auth/policies`. */
    mount: Type.String({ pattern: '^[a-z]+(/[a-z-]+)*$' }),
    /** Side-menu label. */
    title: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type RegistryRemote = Static<typeof RegistryRemote>;

export const Registry = Type.Object(
  {
    schemaVersion: Type.Literal(REGISTRY_SCHEMA_VERSION),
    remotes: Type.Array(RegistryRemote),
  },
  { additionalProperties: false, $id: 'Registry' },
);
export type Registry = Static<typeof Registry>;

export interface RemoteNavItem {
  label: string;
  /** Relative to the area's mount, e.g. `edge-logs`. */
  path: string;
}

/**
 * What a remote's `./module` must export as default. `routes` is a React component that renders
 * descendant `<Routes>` under the area's mount. Kept free of React types so contracts depends on
 * nothing but TypeBox; the shell narrows `routes` to a component type.
 */
export interface RemoteModule<Component = unknown> {
  contractVersion: number;
  name: string;
  routes: Component;
  nav?: RemoteNavItem[];
  requiredPermissions?: PermissionName[];
}

/** Checks a loaded module against the contract; returns the problems, empty when it conforms. */
export function checkRemoteModule(candidate: unknown, expectedName: string): string[] {
  const problems: string[] = [];
  if (typeof candidate !== 'object' || candidate === null) return ['the module has no default export object'];
  const mod = candidate as Record<string, unknown>;
  if (mod.contractVersion !== REMOTE_CONTRACT_VERSION) {
    problems.push(`contractVersion is ${String(mod.contractVersion)}, the shell expects ${REMOTE_CONTRACT_VERSION}`);
  }
  if (mod.name !== expectedName) problems.push(`name is ${String(mod.name)}, the registry says ${expectedName}`);
  const routes = mod.routes;
  const isComponent =
    typeof routes === 'function' || (typeof routes === 'object' && routes !== null && '$$typeof' in routes);
  if (!isComponent) problems.push('routes is not a React component');
  if (mod.nav !== undefined) {
    const ok =
      Array.isArray(mod.nav) &&
      mod.nav.every(
        (item: unknown) =>
          typeof item === 'object' &&
          item !== null &&
          typeof (item as RemoteNavItem).label === 'string' &&
          typeof (item as RemoteNavItem).path === 'string',
      );
    if (!ok) problems.push('nav must be a list of { label, path }');
  }
  if (mod.requiredPermissions !== undefined && !Array.isArray(mod.requiredPermissions)) {
    problems.push('requiredPermissions must be a list');
  }
  return problems;
}
