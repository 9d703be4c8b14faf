import {
  registryAreas,
  roleHasPermission,
  type AreaMenuSection,
  type DashConfig,
  type OrgRole,
  type PermissionName,
  type RegistryArea,
  type RegistryRemote,
} from '@dash/contracts';

/** What decides whether a gated menu entry shows: the member's role, the variant, the flags. */
export interface MenuContext {
  /** Undefined while the member's permissions load: gated entries stay hidden until then. */
  role: OrgRole | undefined;
  mode: DashConfig['mode'];
  flags: DashConfig['flags'];
}

export interface Gates {
  permission?: string;
  hostedOnly?: boolean;
  featureFlag?: keyof DashConfig['flags'];
}

export function passesGates(gates: Gates, context: MenuContext): boolean {
  if (gates.hostedOnly && context.mode !== 'hosted') return false;
  if (gates.featureFlag && !context.flags[gates.featureFlag]) return false;
  if (gates.permission && !roleHasPermission(context.role, gates.permission as PermissionName)) return false;
  return true;
}

/** The shell's own areas (not from a remote): the project settings. Remotes may add sub-areas under them. */
export const SHELL_AREAS = ['settings'] as const;

/** The project menu's order, as the product has it; an unknown area goes after the known ones. */
export const PRODUCT_ORDER = ['editor', 'sql', 'database', 'auth', 'storage', 'logs', 'reports', 'advisors', 'api', 'settings'];

export interface ProjectMenuItem extends RegistryArea {
  /** The remote serving the area; undefined for the shell's own. */
  remote?: RegistryRemote;
}

export interface AreaRoute {
  area: RegistryArea;
  remote: RegistryRemote;
}

/** Every area the registry's remotes serve, each with its remote (the routes under /project/:ref). */
export function areaRoutes(remotes: RegistryRemote[]): AreaRoute[] {
  return remotes.flatMap((remote) => registryAreas(remote).map((area) => ({ area, remote })));
}

const topSegment = (mount: string) => mount.split('/')[0] ?? mount;
const isUnderShellArea = (mount: string) => mount.includes('/') && (SHELL_AREAS as readonly string[]).includes(topSegment(mount));

function position(mount: string): number {
  const index = PRODUCT_ORDER.indexOf(topSegment(mount));
  return index === -1 ? PRODUCT_ORDER.length : index;
}

/**
 * The project side menu: one item per area a remote serves (a sub-area of a shell area, like
 * `settings/storage`, shows in that area's menu instead), plus Project settings, in the product's order,
 * without the items the member's role, the variant or a flag hides.
 */
export function projectMenu(remotes: RegistryRemote[], context: MenuContext): ProjectMenuItem[] {
  const items: ProjectMenuItem[] = areaRoutes(remotes)
    .filter(({ area }) => !isUnderShellArea(area.mount))
    .map(({ area, remote }) => ({ ...area, remote }));
  // Self-hosted deployments have no settings pages (§2), so no item either.
  items.push({ mount: 'settings', title: 'Project Settings', hostedOnly: true });
  return items
    .filter((item) => passesGates(item, context))
    .map((item, index) => ({ item, index }))
    .sort((a, b) => position(a.item.mount) - position(b.item.mount) || a.index - b.index)
    .map(({ item }) => item);
}

/** Sub-areas remotes add under a shell area (`settings/storage` under `settings`) that the member may see. */
export function subAreasOf(parent: string, remotes: RegistryRemote[], context: MenuContext): RegistryArea[] {
  return areaRoutes(remotes)
    .map(({ area }) => area)
    .filter((area) => topSegment(area.mount) === parent && area.mount !== parent && passesGates(area, context));
}

export interface ResolvedMenuItem {
  label: string;
  to: string;
  badge?: RegistryArea['badge'];
  end?: boolean;
}

/** An area's declared menu as links under `/project/{ref}/{mount}`, without the hidden items and empty sections. */
export function areaMenu(sections: AreaMenuSection[], base: string, context: MenuContext): Array<{ title?: string; items: ResolvedMenuItem[] }> {
  return sections
    .map((section) => ({
      ...(section.title ? { title: section.title } : {}),
      items: section.items
        .filter((item) => passesGates(item, context))
        .map((item) => ({
          label: item.label,
          to: item.path ? `${base}/${item.path}` : base,
          ...(item.badge ? { badge: item.badge } : {}),
          ...(item.matchDeeper === false ? { end: true } : {}),
        })),
    }))
    .filter((section) => section.items.length > 0);
}

/** The area (and its remote) the rest of the path (`editor/123`, `settings/storage`) falls under: the longest mount. */
export function areaForPath(remotes: RegistryRemote[], rest: string): AreaRoute | undefined {
  return areaRoutes(remotes)
    .filter(({ area }) => rest === area.mount || rest.startsWith(`${area.mount}/`))
    .sort((a, b) => b.area.mount.length - a.area.mount.length)[0];
}
