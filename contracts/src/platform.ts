import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, RefParams, Timestamp } from './route';
import { access, ALL_PERMISSIONS, Permission } from './permissions';
import { OrgRoleSchema } from './identity';
import { Registry, RegistryRemote } from './registry';
import { MAX_UPLOAD_LIMIT_BYTES } from './constants';
import { AuthJwtExpiry, AuthSiteUrl, DataApiSettings } from './project-settings';

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
});
export type User = Static<typeof User>;

/**
 * Authenticator assurance level of a session: `aal1` after the password, `aal2` after a second factor.
 * `nextLevel` is what the user needs: `aal2` once they have a verified factor, else the current level;
 * when the two differ the session is waiting for its MFA code and the APIs refuse it.
 */
export const AssuranceLevel = Type.Union([Type.Literal('aal1'), Type.Literal('aal2')]);
export type AssuranceLevel = Static<typeof AssuranceLevel>;
export const SessionAssurance = Type.Object({ aal: AssuranceLevel, nextLevel: AssuranceLevel });
export type SessionAssurance = Static<typeof SessionAssurance>;

export const ProjectStatus = Type.Union([
  Type.Literal('ACTIVE_HEALTHY'),
  Type.Literal('COMING_UP'),
  Type.Literal('INACTIVE'),
]);

export const Project = Type.Object({
  id: Type.Integer(),
  ref: Type.String(),
  name: Type.String(),
  status: ProjectStatus,
  organization_slug: Type.String(),
  organization_name: Type.String(),
  role: OrgRoleSchema,
  inserted_at: Timestamp,
});
export type Project = Static<typeof Project>;

export const Organization = Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String(), role: OrgRoleSchema });
export type Organization = Static<typeof Organization>;

/**
 * A project's auth configuration: the external anonymous users flag (anonymous sign-ins), the site URL
 * and the access tokens' lifetime in seconds (see project-settings.ts).
 */
export const AuthConfig = Type.Object({ external_anonymous_users_enabled: Type.Boolean(), site_url: AuthSiteUrl, jwt_expiry: AuthJwtExpiry });
export type AuthConfig = Static<typeof AuthConfig>;
export const AuthConfigUpdate = Type.Object(
  {
    external_anonymous_users_enabled: Type.Optional(Type.Boolean()),
    site_url: Type.Optional(AuthSiteUrl),
    jwt_expiry: Type.Optional(AuthJwtExpiry),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AuthConfigUpdate = Static<typeof AuthConfigUpdate>;

/**
 * A project's storage configuration: the upload limit in bytes for every file (buckets may set a lower
 * one). Every project starts at 50 MB; on the free plan it stays there, paid plans go up to 5 GB.
 */
export const StorageConfig = Type.Object({ fileSizeLimit: Type.Integer({ minimum: 1 }), isFreeTier: Type.Boolean() });
export type StorageConfig = Static<typeof StorageConfig>;
export const StorageConfigUpdate = Type.Object(
  { fileSizeLimit: Type.Integer({ minimum: 1, maximum: MAX_UPLOAD_LIMIT_BYTES }) },
  { additionalProperties: false },
);
export type StorageConfigUpdate = Static<typeof StorageConfigUpdate>;

/**
 * The project's API keys: HS256 JWTs signed with the project's secret, naming the `anon` and the
 * `service_role` database role, as Supabase clients expect them; `storageUrl` is the storage API's base
 * (what `@supabase/storage-js` takes), on the dashboard's own origin.
 */
export const ProjectApiKeys = Type.Object({ storageUrl: Type.String(), anon: Type.String(), service_role: Type.String() });
export type ProjectApiKeys = Static<typeof ProjectApiKeys>;

export const PermissionNameSchema = Type.Union(ALL_PERMISSIONS.map((p) => Type.Literal(p)));

const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });

export const platformRoutes = {
  signIn: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/auth/sign-in',
    body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) }),
    response: Type.Composite([Type.Object({ user: User }), SessionAssurance]),
    access: access.public,
  }),
  signOut: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/auth/sign-out',
    response: Ok,
    access: access.public,
  }),
  session: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/auth/session',
    response: Type.Composite([Type.Object({ user: User }), SessionAssurance]),
    access: access.signedIn,
  }),
  listProjects: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects',
    response: Type.Object({ projects: Type.Array(Project) }),
    access: access.signedIn,
  }),
  getProject: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref',
    params: RefParams,
    response: Project,
    access: access.signedIn,
  }),
  projectPermissions: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/permissions',
    params: RefParams,
    response: Type.Object({ role: OrgRoleSchema, permissions: Type.Array(PermissionNameSchema) }),
    access: access.signedIn,
  }),
  listOrganizations: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations',
    response: Type.Object({ organizations: Type.Array(Organization) }),
    access: access.signedIn,
  }),

  // Internal: called by the gateway, other services and the `npm run remote` command, never by browsers.
  resolveSession: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/internal/sessions/resolve',
    /** `kind`: a session cookie (default) or a personal access token from `Authorization: Bearer`. */
    body: Type.Object({
      token: Type.String({ minLength: 1, maxLength: 200 }),
      kind: Type.Optional(Type.Union([Type.Literal('session'), Type.Literal('access_token')], { default: 'session' })),
    }),
    response: Type.Composite([Type.Object({ user: User, projects: Type.Record(Type.String(), OrgRoleSchema) }), SessionAssurance]),
    access: access.internal,
  }),
  projectConnection: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/connection',
    params: RefParams,
    /** Which of the project's login roles (see the kit's project bootstrap); the admin role by default. */
    querystring: Type.Object({
      role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('read_only'), Type.Literal('storage'), Type.Literal('api'), Type.Literal('auth')], { default: 'admin' })),
    }),
    response: Type.Object({ ref: Type.String(), connectionString: Type.String() }),
    access: access.internal,
  }),
  registry: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/registry',
    response: Registry,
    access: access.internal,
  }),
  listRemoteVersions: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/registry/versions',
    response: Type.Object({
      versions: Type.Array(
        Type.Composite([RegistryRemote, Type.Object({ active: Type.Boolean(), published_at: Timestamp })]),
      ),
    }),
    access: access.internal,
  }),
  publishRemote: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/internal/registry/versions',
    body: RegistryRemote,
    response: RegistryRemote,
    status: 201,
    access: access.internal,
  }),
  rollbackRemote: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/internal/registry/rollback',
    body: Type.Object({ name: Type.String({ minLength: 1 }) }),
    response: Type.Object({ from: RegistryRemote, to: RegistryRemote }),
    access: access.internal,
  }),
  /** Read by project members: it decides the policies page's anonymous sign-ins warning. */
  getAuthConfig: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/config/auth',
    params: RefParams,
    response: AuthConfig,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  updateAuthConfig: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/config/auth',
    params: RefParams,
    body: AuthConfigUpdate,
    response: AuthConfig,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  getStorageConfig: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/config/storage',
    params: RefParams,
    response: StorageConfig,
    access: access.project(Permission.ProjectStorageAll),
  }),
  /** On the free plan only the fixed 50 MB is accepted; a paid plan takes up to 5 GB (400 otherwise). */
  updateStorageConfig: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/config/storage',
    params: RefParams,
    body: StorageConfigUpdate,
    response: StorageConfig,
    access: access.project(Permission.StorageAdminWrite),
  }),
  projectApiKeys: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/api-keys',
    params: RefParams,
    response: ProjectApiKeys,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** What the storage service needs of a project: the JWT secret to verify keys, and the upload limit. */
  projectStorageSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/storage-settings',
    params: RefParams,
    response: Type.Object({ jwtSecret: Type.String({ minLength: 32 }), fileSizeLimit: Type.Integer({ minimum: 1 }) }),
    access: access.internal,
  }),
  /**
   * What the data API (rest and graphql services) needs of a project: the JWT secret that verifies keys and
   * user tokens, and Settings → API's data API settings.
   */
  projectDataApiSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/data-api-settings',
    params: RefParams,
    response: Type.Object({ jwtSecret: Type.String({ minLength: 32 }), dataApi: DataApiSettings }),
    access: access.internal,
  }),
};
