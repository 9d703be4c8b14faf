import { Type, type Static } from '@sinclair/typebox';
import type { PermissionName } from './permissions';

/**
 * Version of the `RemoteModule` contract a remote is built against. The shell loads every version in
 * `SUPPORTED_REMOTE_CONTRACTS`: v1 (one area: `routes`, `nav`, `requiredPermissions`) and v2 (`areas`).
 */
export const REMOTE_CONTRACT_VERSION = 2;
export const SUPPORTED_REMOTE_CONTRACTS: readonly number[] = [1, 2];
export const REGISTRY_SCHEMA_VERSION = 1;

/** Flags the platform turns on per organization (with a file or environment override). */
export const FEATURE_FLAGS = ['warehouse', 'navigationLayoutV2', 'ongoingIncident', 'columnLevelPrivileges'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export const FeatureFlagSchema = Type.Union(FEATURE_FLAGS.map((f) => Type.Literal(f)));

export const MENU_BADGES = ['BETA', 'ALPHA', 'NEW'] as const;
export type MenuBadge = (typeof MENU_BADGES)[number];

/** Where an area mounts under /project/:ref: `logs`, `auth`, or a sub-area of another one (`settings/storage`). */
const Mount = Type.String({ pattern: '^[a-z]+(/[a-z-]+)*$' });

/**
 * The gates of a menu entry: shown only to members with the permission, only in the hosted variant, only
 * with the feature flag on. The services still check their routes; a hidden item is a courtesy.
 */
const MenuGates = {
  permission: Type.Optional(Type.String({ minLength: 1 })),
  hostedOnly: Type.Optional(Type.Boolean()),
  featureFlag: Type.Optional(FeatureFlagSchema),
  badge: Type.Optional(Type.Union(MENU_BADGES.map((b) => Type.Literal(b)))),
};

/** An area as the registry lists it: enough for the project menu before the remote's code is loaded. */
export const RegistryArea = Type.Object({ mount: Mount, title: Type.String({ minLength: 1 }), ...MenuGates }, { additionalProperties: false });
export type RegistryArea = Static<typeof RegistryArea>;

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
    /**
     * Every area the remote serves (contract 2), `mount`'s first. Absent for a v1 remote: its one area is
     * `mount` with `title`.
     */
    areas: Type.Optional(Type.Array(RegistryArea, { minItems: 1, maxItems: 20 })),
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

/** The areas a registry entry serves: its `areas`, or the one `mount` of a v1 entry. */
export function registryAreas(remote: RegistryRemote): RegistryArea[] {
  return remote.areas ?? [{ mount: remote.mount, title: remote.title }];
}

export interface RemoteNavItem {
  label: string;
  /** Relative to the area's mount, e.g. `edge-logs`. */
  path: string;
}

/** A menu entry of an area: `path` is relative to the area's mount (`''` is the mount itself). */
export interface AreaMenuItem {
  label: string;
  path: string;
  permission?: PermissionName;
  hostedOnly?: boolean;
  featureFlag?: FeatureFlag;
  badge?: MenuBadge;
  /** Also active on deeper paths (default true); false for an item whose path prefixes others. */
  matchDeeper?: boolean;
}

export interface AreaMenuSection {
  title?: string;
  items: AreaMenuItem[];
}

/** One area of a v2 remote: its routes (descendant `<Routes>` under the mount) and its menu. */
export interface RemoteAreaModule<Component = unknown> {
  mount: string;
  title: string;
  routes: Component;
  /** Sections of the area's own menu, drawn by the shell. Absent when the area draws its own sidebar. */
  menu?: AreaMenuSection[];
  /**
   * Drawn by the shell inside the area's menu, below `menu`'s sections: entries only the remote knows at
   * run time (the logs area's event collections). Ignored without `menu`.
   */
  menuExtra?: Component;
  /** Permissions the whole area needs; without them the shell shows a no-access notice. */
  requiredPermissions?: PermissionName[];
}

/** Contract 1: one area, mounted where the registry says. Still loaded by the v2 shell. */
export interface RemoteModuleV1<Component = unknown> {
  contractVersion: 1;
  name: string;
  routes: Component;
  nav?: RemoteNavItem[];
  requiredPermissions?: PermissionName[];
}

/** Contract 2: a remote declares its areas. */
export interface RemoteModuleV2<Component = unknown> {
  contractVersion: 2;
  name: string;
  areas: RemoteAreaModule<Component>[];
}

/**
 * What a remote's `./module` must export as default. Kept free of React types so contracts depends on
 * nothing but TypeBox; the shell narrows `Component` to a component type.
 */
export type RemoteModule<Component = unknown> = RemoteModuleV1<Component> | RemoteModuleV2<Component>;

/** A v1 module read as v2: one area at the registry's mount, its `nav` as the area's menu. */
export function remoteAreasOf<C>(mod: RemoteModule<C>, registry: Pick<RegistryRemote, 'mount' | 'title'>): RemoteAreaModule<C>[] {
  if (mod.contractVersion === 2) return mod.areas;
  return [
    {
      mount: registry.mount,
      title: registry.title,
      routes: mod.routes,
      ...(mod.nav ? { menu: [{ items: mod.nav.map((item) => ({ label: item.label, path: item.path })) }] } : {}),
      ...(mod.requiredPermissions ? { requiredPermissions: mod.requiredPermissions } : {}),
    },
  ];
}

const isComponent = (value: unknown) =>
  typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value);

const isStringList = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

function menuProblems(menu: unknown, where: string): string[] {
  if (menu === undefined) return [];
  if (!Array.isArray(menu)) return [`${where}.menu must be a list of sections`];
  const problems: string[] = [];
  menu.forEach((section: unknown, i) => {
    const items = (section as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) {
      problems.push(`${where}.menu[${i}].items must be a list`);
      return;
    }
    items.forEach((item: unknown, j) => {
      const it = item as Partial<AreaMenuItem> | null;
      if (typeof it?.label !== 'string' || typeof it.path !== 'string') problems.push(`${where}.menu[${i}].items[${j}] needs a label and a path`);
      else if (it.badge !== undefined && !(MENU_BADGES as readonly string[]).includes(it.badge)) problems.push(`${where}.menu[${i}].items[${j}].badge "${it.badge}" is unknown`);
      // A flag this shell does not know yet (a remote built later) is not a fault: the shell's flags do not
      // have it, so the item stays hidden, as with any flag that is off.
      else if (it.featureFlag !== undefined && typeof it.featureFlag !== 'string') problems.push(`${where}.menu[${i}].items[${j}].featureFlag must be a flag name`);
    });
  });
  return problems;
}

/**
 * Checks a loaded module against its contract version and the registry entry it was loaded for; returns
 * the problems, empty when it conforms. A v2 module must serve every area the registry lists for it.
 */
export function checkRemoteModule(candidate: unknown, registry: Pick<RegistryRemote, 'name'> & Partial<RegistryRemote>): string[] {
  const problems: string[] = [];
  if (typeof candidate !== 'object' || candidate === null) return ['the module has no default export object'];
  const mod = candidate as Record<string, unknown>;
  if (!SUPPORTED_REMOTE_CONTRACTS.includes(mod.contractVersion as number)) {
    problems.push(`contractVersion is ${String(mod.contractVersion)}, the shell loads ${SUPPORTED_REMOTE_CONTRACTS.join(' and ')}`);
    return problems;
  }
  if (mod.name !== registry.name) problems.push(`name is ${String(mod.name)}, the registry says ${registry.name}`);
  if (mod.contractVersion === 1) {
    if (!isComponent(mod.routes)) problems.push('routes is not a React component');
    if (mod.nav !== undefined) {
      const ok =
        Array.isArray(mod.nav) &&
        mod.nav.every((item: unknown) => typeof (item as RemoteNavItem | null)?.label === 'string' && typeof (item as RemoteNavItem).path === 'string');
      if (!ok) problems.push('nav must be a list of { label, path }');
    }
    if (mod.requiredPermissions !== undefined && !isStringList(mod.requiredPermissions)) problems.push('requiredPermissions must be a list');
    return problems;
  }
  if (!Array.isArray(mod.areas) || mod.areas.length === 0) return [...problems, 'areas must be a non-empty list'];
  const mounts = new Set<string>();
  mod.areas.forEach((area: unknown, i) => {
    const a = area as Partial<RemoteAreaModule> | null;
    const where = `areas[${i}]`;
    if (typeof a?.mount !== 'string' || typeof a.title !== 'string') {
      problems.push(`${where} needs a mount and a title`);
      return;
    }
    mounts.add(a.mount);
    if (!isComponent(a.routes)) problems.push(`${where}.routes is not a React component`);
    if (a.requiredPermissions !== undefined && !isStringList(a.requiredPermissions)) problems.push(`${where}.requiredPermissions must be a list`);
    if (a.menuExtra !== undefined && !isComponent(a.menuExtra)) problems.push(`${where}.menuExtra is not a React component`);
    problems.push(...menuProblems(a.menu, where));
  });
  if (registry.mount !== undefined) {
    const listed = registry.areas?.map((area) => area.mount) ?? [registry.mount];
    for (const mount of listed) if (!mounts.has(mount)) problems.push(`the registry lists the area "${mount}", the module does not serve it`);
  }
  return problems;
}
