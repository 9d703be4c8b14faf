import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access } from './permissions';
import { FEATURE_FLAGS, type FeatureFlag } from './registry';

/** `hosted` (default) or `self-hosted`: the self-hosted variant hides the account menu and hosted-only items. */
export const DASH_MODES = ['hosted', 'self-hosted'] as const;
export type DashMode = (typeof DASH_MODES)[number];

export const FeatureFlags = Type.Object(Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, Type.Boolean()])) as Record<FeatureFlag, ReturnType<typeof Type.Boolean>>, {
  additionalProperties: false,
});
export type FeatureFlags = Record<FeatureFlag, boolean>;

/** What every page needs to know of the deployment: its variant, and the flags of the organization in view. */
export const DashConfig = Type.Object({
  mode: Type.Union(DASH_MODES.map((m) => Type.Literal(m))),
  flags: FeatureFlags,
});
export type DashConfig = Static<typeof DashConfig>;

export const dashConfigRoutes = {
  /**
   * The flags are those of the project's organization (`project`), or of `organization`, or none (all
   * off). A project or organization the caller is not a member of reads as none: nothing is revealed.
   */
  dashConfig: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/config',
    querystring: Type.Object({
      project: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,64}$' })),
      organization: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,64}$' })),
    }),
    response: DashConfig,
    access: access.signedIn,
  }),
  /**
   * Internal: the flags of a project's organization, deployment overrides applied (as `dashConfig` gives
   * them to its members). Services ask it to enforce a route's `featureFlag`.
   */
  projectFeatureFlags: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/feature-flags',
    params: RefParams,
    response: FeatureFlags,
    access: access.internal,
  }),
  /** Internal (operators): turns an organization's flags on or off; the flags not named keep their setting. */
  setOrganizationFlags: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/internal/organizations/:slug/feature-flags',
    params: Type.Object({ slug: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }) }),
    body: Type.Partial(FeatureFlags, { additionalProperties: false, minProperties: 1 }),
    response: FeatureFlags,
    access: access.internal,
  }),
};

/** The incident banner's text while the `ongoingIncident` flag is on. */
export const INCIDENT_BANNER_TEXT = 'We are investigating an ongoing incident. Some services may be degraded.';
