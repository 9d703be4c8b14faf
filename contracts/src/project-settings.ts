import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/*
 * Project settings (/project/{ref}/settings/*): the database's connection details and its password, the
 * project URL and the JWT secret behind the API keys (the keys themselves are `platformRoutes.projectApiKeys`),
 * the auth settings' site URL and JWT expiry (on `platformRoutes.getAuthConfig`/`updateAuthConfig`),
 * vault secrets and add-ons. All of it is the platform service's.
 *
 * Who may do what: every member reads the settings (`tenant_sql_admin_read`); the API keys and vault
 * secrets are for members who may change the database anyway (`tenant_sql_admin_write`: reveal, create,
 * delete); rotating the JWT secret, resetting the database password and choosing add-ons (which change the
 * bill) are for owners and administrators (`project_admin_write`).
 */

// ---------------------------------------------------------------------------------------------
// Auth settings: the fields `AuthConfig` adds to the anonymous sign-ins switch.
// ---------------------------------------------------------------------------------------------

/** Where auth sends users after they confirm an email or sign in with a link, until changed. */
export const AUTH_SITE_URL_DEFAULT = 'http://localhost:3000';
export const AUTH_SITE_URL_MAX_LENGTH = 2048;
/** Lifetime of the access tokens the project's auth issues, in seconds: an hour until changed, at most a week. */
export const AUTH_JWT_EXPIRY_DEFAULT_SECONDS = 3600;
export const AUTH_JWT_EXPIRY_MIN_SECONDS = 30;
export const AUTH_JWT_EXPIRY_MAX_SECONDS = 604800;

export const AuthSiteUrl = Type.String({ minLength: 1, maxLength: AUTH_SITE_URL_MAX_LENGTH, pattern: '^https?://[^\\s/?#]+[^\\s]*$' });
export const AuthJwtExpiry = Type.Integer({ minimum: AUTH_JWT_EXPIRY_MIN_SECONDS, maximum: AUTH_JWT_EXPIRY_MAX_SECONDS });

/** The site URL's rule in words, for forms (the contract's pattern says the same). */
export function siteUrlProblem(value: string): string | undefined {
  const url = value.trim();
  if (!url) return ProjectSettingsMessages.siteUrlRequired;
  if (url.length > AUTH_SITE_URL_MAX_LENGTH || !new RegExp(AuthSiteUrl.pattern!).test(url)) return ProjectSettingsMessages.siteUrlInvalid;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Database
// ---------------------------------------------------------------------------------------------

export const DATABASE_PASSWORD_MIN_LENGTH = 12;
export const DATABASE_PASSWORD_MAX_LENGTH = 128;

/**
 * What is wrong with a new database password, or undefined. Printable ASCII only: clients apply SASLprep
 * (or not) to other characters differently, and a password one client cannot reproduce locks it out.
 */
export function databasePasswordProblem(password: string): string | undefined {
  if (password.length < DATABASE_PASSWORD_MIN_LENGTH) return ProjectSettingsMessages.passwordTooShort;
  if (password.length > DATABASE_PASSWORD_MAX_LENGTH) return ProjectSettingsMessages.passwordTooLong;
  if (!/^[\x20-\x7e]+$/.test(password)) return ProjectSettingsMessages.passwordCharacters;
  return undefined;
}

/** How to reach the project database as its admin role; the password is never sent back. */
export const DatabaseSettings = Type.Object({
  host: Type.String(),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  database: Type.String(),
  user: Type.String(),
  /** `postgresql://user:[YOUR-PASSWORD]@host:port/database`, with the password left for the reader to fill in. */
  connectionString: Type.String(),
  /** When the password was last reset from the dashboard; null if never. */
  passwordResetAt: Type.Union([Timestamp, Type.Null()]),
});
export type DatabaseSettings = Static<typeof DatabaseSettings>;

export const DatabasePasswordReset = Type.Object(
  { password: Type.String({ minLength: DATABASE_PASSWORD_MIN_LENGTH, maxLength: DATABASE_PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type DatabasePasswordReset = Static<typeof DatabasePasswordReset>;

// ---------------------------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------------------------

/** How many rows one data API response holds at most, until changed (Settings → API's max rows). */
export const DATA_API_MAX_ROWS_DEFAULT = 1000;
export const DATA_API_MAX_ROWS_LIMIT = 1_000_000;

/**
 * Settings → API's data API settings: what PostgREST calls `db-schemas`, `db-extra-search-path`,
 * `db-max-rows`, `db-aggregates-enabled` and `db-pre-request`. The first exposed schema is the default one.
 */
export const DataApiSettings = Type.Object({
  /** Schemas the data API serves, in order; empty turns the data API off (every request is PGRST106). */
  schemas: Type.Array(Type.String({ minLength: 1, maxLength: 63 }), { maxItems: 100 }),
  /** Schemas put on the search path after the request's schema (where extensions' types and functions live). */
  extraSearchPath: Type.Array(Type.String({ minLength: 1, maxLength: 63 }), { maxItems: 100 }),
  maxRows: Type.Integer({ minimum: 1, maximum: DATA_API_MAX_ROWS_LIMIT }),
  /** `count()`, `sum()`, `avg()`, `min()`, `max()` in `select=`; off, they are PGRST123. */
  aggregatesEnabled: Type.Boolean(),
  /** A function (`schema.name`) run before every request, in its transaction; null for none. */
  preRequest: Type.Union([Type.String({ minLength: 1, maxLength: 127 }), Type.Null()]),
});
export type DataApiSettings = Static<typeof DataApiSettings>;

export const DATA_API_SETTINGS_DEFAULT: DataApiSettings = {
  schemas: ['public'],
  extraSearchPath: ['public', 'extensions'],
  maxRows: DATA_API_MAX_ROWS_DEFAULT,
  aggregatesEnabled: false,
  preRequest: null,
};

/** Schemas the data API never exposes: the catalog and the schemas the platform and its services own. */
export const DATA_API_RESERVED_SCHEMAS = ['pg_catalog', 'information_schema', 'auth', 'storage', 'extensions'] as const;

/** A pre-request function's name as Settings → API takes it: `schema.function`, neither part quoted. */
const PRE_REQUEST_NAME = /^([^\s."]{1,63})\.([^\s."]{1,63})$/;

/** A pre-request name's schema and function, or undefined when it is not `schema.function`. */
export function parsePreRequest(name: string): { schema: string; name: string } | undefined {
  const match = PRE_REQUEST_NAME.exec(name);
  return match ? { schema: match[1]!, name: match[2]! } : undefined;
}

/**
 * What is wrong with data API settings that needs no database to tell, or undefined: reserved or repeated
 * schemas, max rows out of bounds, a pre-request name that is not `schema.function`. The platform also
 * checks that the schemas and the function exist.
 */
export function dataApiSettingsProblem(settings: DataApiSettings): string | undefined {
  const reserved = settings.schemas.find((schema) => (DATA_API_RESERVED_SCHEMAS as readonly string[]).includes(schema) || schema.startsWith('pg_'));
  if (reserved !== undefined) return ProjectSettingsMessages.dataApiReservedSchema(reserved);
  for (const [list, label] of [[settings.schemas, 'exposed schemas'], [settings.extraSearchPath, 'extra search path']] as const) {
    const repeated = list.find((schema, i) => list.indexOf(schema) !== i);
    if (repeated !== undefined) return ProjectSettingsMessages.dataApiRepeatedSchema(repeated, label);
  }
  if (!Number.isInteger(settings.maxRows) || settings.maxRows < 1 || settings.maxRows > DATA_API_MAX_ROWS_LIMIT) return ProjectSettingsMessages.dataApiMaxRowsRange;
  if (settings.preRequest !== null && !parsePreRequest(settings.preRequest)) return ProjectSettingsMessages.dataApiPreRequestName;
  return undefined;
}

export const ApiSettings = Type.Object({
  /** The base of the project's APIs on the dashboard's origin (`{projectUrl}/storage/v1` is storage). */
  projectUrl: Type.String(),
  /** When the JWT secret was last rotated; null if it is the project's first. */
  jwtSecretRotatedAt: Type.Union([Timestamp, Type.Null()]),
});
export type ApiSettings = Static<typeof ApiSettings>;

// ---------------------------------------------------------------------------------------------
// Vault
// ---------------------------------------------------------------------------------------------

export const VAULT_SECRET_NAME_MAX_LENGTH = 128;
export const VAULT_SECRET_VALUE_MAX_LENGTH = 65536;
export const VAULT_SECRET_DESCRIPTION_MAX_LENGTH = 500;

/** What is wrong with a secret's name, or undefined. */
export function vaultSecretNameProblem(name: string): string | undefined {
  if (!name.trim()) return ProjectSettingsMessages.secretNameRequired;
  if (name.length > VAULT_SECRET_NAME_MAX_LENGTH) return ProjectSettingsMessages.secretNameTooLong;
  if (name.trim() !== name) return ProjectSettingsMessages.secretNameWhitespace;
  return undefined;
}

/** A vault secret as listed: never its value. */
export const VaultSecret = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type VaultSecret = Static<typeof VaultSecret>;

export const VaultSecretCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: VAULT_SECRET_NAME_MAX_LENGTH }),
    secret: Type.String({ minLength: 1, maxLength: VAULT_SECRET_VALUE_MAX_LENGTH }),
    description: Type.Optional(Type.String({ maxLength: VAULT_SECRET_DESCRIPTION_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type VaultSecretCreate = Static<typeof VaultSecretCreate>;

export const VaultSecretParams = Type.Object({ ref: RefParams.properties.ref, id: Type.String({ format: 'uuid' }) });

// ---------------------------------------------------------------------------------------------
// Add-ons
// ---------------------------------------------------------------------------------------------

export const ADDON_TYPES = ['pitr', 'custom_domain', 'ipv4'] as const;
export type AddonType = (typeof ADDON_TYPES)[number];
export const AddonTypeSchema = Type.Union(ADDON_TYPES.map((t) => Type.Literal(t)));

export const AddonVariant = Type.Object({
  identifier: Type.String(),
  name: Type.String(),
  /** US dollars per month. */
  price: Type.Number({ minimum: 0 }),
});
export type AddonVariant = Static<typeof AddonVariant>;

/** What a project can add, one variant per type at a time, on a paid plan. */
export const ADDON_CATALOG: ReadonlyArray<{ type: AddonType; name: string; description: string; variants: AddonVariant[] }> = [
  {
    type: 'pitr',
    name: 'Point in time recovery',
    description: 'Restore the database to any second within the retention period.',
    variants: [
      { identifier: 'pitr_7', name: '7 days', price: 100 },
      { identifier: 'pitr_14', name: '14 days', price: 200 },
      { identifier: 'pitr_28', name: '28 days', price: 400 },
    ],
  },
  {
    type: 'custom_domain',
    name: 'Custom domain',
    description: "Serve the project's APIs from a domain of your own.",
    variants: [{ identifier: 'cd_default', name: 'Custom domain', price: 10 }],
  },
  {
    type: 'ipv4',
    name: 'Dedicated IPv4 address',
    description: 'Reach the database directly over IPv4.',
    variants: [{ identifier: 'ipv4_default', name: 'Dedicated IPv4 address', price: 4 }],
  },
];

export const SelectedAddon = Type.Object({ type: AddonTypeSchema, variant: AddonVariant });
export type SelectedAddon = Static<typeof SelectedAddon>;

export const ProjectAddons = Type.Object({
  ref: Type.String(),
  selected_addons: Type.Array(SelectedAddon),
  available_addons: Type.Array(
    Type.Object({ type: AddonTypeSchema, name: Type.String(), description: Type.String(), variants: Type.Array(AddonVariant) }),
  ),
  /** Whether the project is on the free plan, where add-ons cannot be selected. */
  isFreeTier: Type.Boolean(),
});
export type ProjectAddons = Static<typeof ProjectAddons>;

export const AddonSelect = Type.Object(
  { addon_type: AddonTypeSchema, addon_variant: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

export const ProjectSettingsMessages = {
  passwordTooShort: `The password must be at least ${DATABASE_PASSWORD_MIN_LENGTH} characters long`,
  passwordTooLong: `The password must be at most ${DATABASE_PASSWORD_MAX_LENGTH} characters long`,
  passwordCharacters: 'Use only letters, digits, spaces and the punctuation of a US keyboard',
  passwordReset: 'Database password reset',
  passwordResetFailed: (message: string) => `Failed to reset the database password: ${message}`,
  needPermissionsPassword: 'You need additional permissions to reset the database password',
  jwtSecretRotated: 'JWT secret rotated. The previous API keys no longer work.',
  jwtSecretRotateFailed: (message: string) => `Failed to rotate the JWT secret: ${message}`,
  needPermissionsJwtSecret: 'You need additional permissions to rotate the JWT secret',
  needPermissionsApiKeys: 'You need additional permissions to view API keys',
  copied: (what: string) => `Copied ${what} to the clipboard`,
  copyFailed: (message: string) => `Failed to copy to the clipboard: ${message}`,
  siteUrlRequired: 'Please provide a site URL',
  siteUrlInvalid: 'Please provide a URL that starts with http:// or https://',
  jwtExpiryRange: `JWT expiry must be between ${AUTH_JWT_EXPIRY_MIN_SECONDS} and ${AUTH_JWT_EXPIRY_MAX_SECONDS} seconds`,
  authSettingsSaved: 'Auth settings saved',
  authSettingsFailed: (message: string) => `Failed to update auth settings: ${message}`,
  needPermissionsAuthSettings: 'You need additional permissions to update auth settings',
  secretNameRequired: 'Please provide a name for your secret',
  secretNameTooLong: `The name of a secret is at most ${VAULT_SECRET_NAME_MAX_LENGTH} characters long`,
  secretNameWhitespace: 'The name of a secret cannot start or end with whitespace',
  secretValueRequired: 'Please provide a value for your secret',
  secretNameTaken: (name: string) => `A secret named "${name}" already exists`,
  secretNotFound: 'Secret not found',
  secretCreated: (name: string) => `Secret "${name}" created`,
  secretCreateFailed: (message: string) => `Failed to create secret: ${message}`,
  secretDeleted: (name: string) => `Secret "${name}" deleted`,
  secretDeleteFailed: (message: string) => `Failed to delete secret: ${message}`,
  secretRevealFailed: (message: string) => `Failed to reveal secret: ${message}`,
  noSecrets: 'No secrets found',
  needPermissionsSecrets: 'You need additional permissions to manage secrets',
  addonSelected: (name: string) => `${name} added to the project`,
  addonRemoved: (name: string) => `${name} removed from the project`,
  addonUpdateFailed: (message: string) => `Failed to update add-ons: ${message}`,
  addonNeedsPaidPlan: "Add-ons need a paid plan. Upgrade the organization's plan in billing first.",
  addonUnknownVariant: (variant: string, type: string) => `"${variant}" is not a variant of the ${type} add-on`,
  addonNotSelected: (variant: string) => `The add-on "${variant}" is not selected for this project`,
  needPermissionsAddons: 'You need additional permissions to change add-ons',
  settingsLoadFailed: (what: string) => `Failed to load ${what}`,
  dataApiReservedSchema: (schema: string) =>
    `The schema "${schema}" cannot be exposed: ${DATA_API_RESERVED_SCHEMAS.join(', ')} and pg_* schemas belong to Postgres and the platform`,
  dataApiRepeatedSchema: (schema: string, list: string) => `The schema "${schema}" is listed twice in the ${list}`,
  dataApiMissingSchemas: (schemas: readonly string[]) =>
    `${schemas.length === 1 ? 'This schema does' : 'These schemas do'} not exist in the project database: ${schemas.join(', ')}`,
  dataApiMaxRowsRange: `Max rows must be a whole number between 1 and ${DATA_API_MAX_ROWS_LIMIT.toLocaleString('en-US')}`,
  dataApiPreRequestName: 'The pre-request function is named as schema.function',
  dataApiPreRequestMissing: (name: string) => `No function ${name}() without arguments exists in the project database`,
  dataApiSettingsSaved: 'Data API settings saved',
  dataApiSettingsFailed: (message: string) => `Failed to update data API settings: ${message}`,
  needPermissionsDataApi: 'You need additional permissions to update data API settings',
} as const;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const SecretId = VaultSecretParams;

export const projectSettingsRoutes = {
  databaseSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/settings/database',
    params: RefParams,
    response: DatabaseSettings,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * Sets a new password for the project's admin role (what `DatabaseSettings.user` names). Connections
   * already open stay open; new ones need the new password.
   */
  resetDatabasePassword: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/settings/database/password',
    params: RefParams,
    body: DatabasePasswordReset,
    response: DatabaseSettings,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  apiSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/settings/api',
    params: RefParams,
    response: ApiSettings,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  dataApiSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/settings/api/data-api',
    params: RefParams,
    response: DataApiSettings,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * Replaces the data API settings (400 with the reason when a schema is reserved or missing, or the
   * pre-request function does not exist); the data API applies them within its settings cache.
   */
  updateDataApiSettings: defineRoute({
    service: 'platform',
    method: 'PUT',
    url: '/projects/:ref/settings/api/data-api',
    params: RefParams,
    body: DataApiSettings,
    response: DataApiSettings,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** A new JWT secret: every key and user token signed with the old one stops working at once. */
  rotateJwtSecret: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/settings/api/jwt-secret',
    params: RefParams,
    response: ApiSettings,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  listVaultSecrets: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/vault/secrets',
    params: RefParams,
    response: Type.Object({ secrets: Type.Array(VaultSecret) }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  createVaultSecret: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/vault/secrets',
    params: RefParams,
    body: VaultSecretCreate,
    response: VaultSecret,
    status: 201,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** The decrypted value, on an explicit call (a POST, so nothing caches it). */
  revealVaultSecret: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/vault/secrets/:id/reveal',
    params: SecretId,
    response: Type.Object({ id: Type.String(), name: Type.String(), secret: Type.String() }),
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  deleteVaultSecret: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/projects/:ref/vault/secrets/:id',
    params: SecretId,
    response: VaultSecret,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  listAddons: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/billing/addons',
    params: RefParams,
    response: ProjectAddons,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Selects a variant of an add-on type, replacing the type's current variant. */
  selectAddon: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/billing/addons',
    params: RefParams,
    body: AddonSelect,
    response: ProjectAddons,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  removeAddon: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/projects/:ref/billing/addons/:variant',
    params: Type.Object({ ref: RefParams.properties.ref, variant: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: ProjectAddons,
    access: access.project(Permission.ProjectAdminWrite),
  }),
};
