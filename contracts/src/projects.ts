import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { Project, ProjectStatus } from './platform';
import { DATABASE_PASSWORD_MIN_LENGTH, databasePasswordProblem } from './project-settings';

// ---------------------------------------------------------------------------------------------
// A project's life: created (COMING_UP while the platform makes and bootstraps its database in the
// background), ACTIVE_HEALTHY, paused (INACTIVE: its database accepts no connection, its APIs answer
// 503) and restored, renamed, deleted. Owners and administrators manage projects
// (`Permission.ProjectAdminWrite`); every member reads a project's status and infrastructure.
// ---------------------------------------------------------------------------------------------

export const PROJECT_NAME_MAX = 64;
/** A generated ref: this many lowercase letters, as hosted products make them. */
export const PROJECT_REF_LENGTH = 20;
/** How often the building page asks for progress. */
export const BUILDING_POLL_MS = 1000;

/**
 * What the platform is doing to bring a project up, in order: the row is made (`requested`), then its
 * database (`creating_database`), then its roles, auth helpers and storage schema (`configuring`).
 */
export const PROVISIONING_STEPS = ['requested', 'creating_database', 'configuring', 'ready'] as const;
export type ProvisioningStep = (typeof PROVISIONING_STEPS)[number];
export const PROVISIONING_STEP_LABELS: Record<ProvisioningStep, string> = {
  requested: 'Project requested',
  creating_database: 'Creating the database',
  configuring: 'Setting up roles, auth and storage',
  ready: 'Project is ready',
};

const PASSWORD_KINDS: ReadonlyArray<[RegExp, string]> = [
  [/[a-z]/, 'lowercase letters'],
  [/[A-Z]/, 'uppercase letters'],
  [/[0-9]/, 'digits'],
  [/[^a-zA-Z0-9]/, 'symbols'],
];
const kindsIn = (password: string) => PASSWORD_KINDS.filter(([pattern]) => pattern.test(password)).length;

export const ProjectMessages = {
  nameRequired: 'Please provide a name for your project',
  nameTooLong: `A project name is at most ${PROJECT_NAME_MAX} characters`,
  organizationNotFound: 'Organization not found',
  cannotCreate: 'You need additional permissions to create projects in this organization',
  cannotManage: 'You need additional permissions to manage this project',
  passwordRequired: 'Please provide a database password',
  passwordTooSimple: 'The password needs at least three of: lowercase letters, uppercase letters, digits and symbols',
  passwordHint: `At least ${DATABASE_PASSWORD_MIN_LENGTH} characters, with three of: lowercase and uppercase letters, digits, symbols. It is the password of the project's admin database role; keep it somewhere safe.`,
  stillComingUp: 'The project is still coming up: wait until it is ready',
  alreadyPaused: 'The project is already paused',
  notPaused: 'The project is not paused',
  notComingUp: 'The project is not coming up',
  /** The 503 of a project's APIs (pg-meta, storage, the project API) while it is not active. */
  projectPaused: (ref: string) => `Project ${ref} is paused: restore it to use its APIs`,
  projectComingUp: (ref: string) => `Project ${ref} is coming up: its APIs answer once it is ready`,
  provisioningFailed: (message: string) => `Setting up the project failed: ${message}`,
  projectCreated: (name: string) => `Creating project ${name}`,
  projectPausedToast: (name: string) => `Project ${name} is paused`,
  projectRestoredToast: (name: string) => `Project ${name} is restored`,
  projectDeletedToast: (name: string) => `Project ${name} is deleted`,
  projectRenamedToast: 'Project name updated',
  createFailed: (message: string) => `Failed to create project: ${message}`,
  pauseFailed: (message: string) => `Failed to pause project: ${message}`,
  restoreFailed: (message: string) => `Failed to restore project: ${message}`,
  deleteFailed: (message: string) => `Failed to delete project: ${message}`,
  renameFailed: (message: string) => `Failed to update project name: ${message}`,
  retryFailed: (message: string) => `Failed to retry: ${message}`,
  pausedBanner: 'This project is paused',
  pausedBannerText: 'Its database accepts no connections and its APIs answer 503 until it is restored.',
  comingUpBanner: 'This project is coming up',
  confirmDeleteTitle: (name: string) => `Confirm deletion of project ${name}`,
  cannotRecoverProject: 'You cannot recover this project once deleted',
  /** The 400 of a deletion whose body does not name the project. */
  deleteNameMismatch: 'The name given does not match the project name: send {"name": "<project name>"} to confirm the deletion',
  projectDataLost: 'Its database, tables, files and settings are deleted for good.',
  confirmPauseTitle: (name: string) => `Pause project ${name}?`,
  pauseExplanation: 'The database stops accepting connections and its APIs answer 503 until you restore the project. Nothing is deleted.',
  infrastructureUnavailable: 'The infrastructure of a project is only shown while it is active',
} as const;

/**
 * What is wrong with the database password of a new project, or undefined (both ends check it): the
 * rule of every database password (`databasePasswordProblem`), and three kinds of characters, as the user
 * types this one rather than having it generated.
 */
export function newProjectPasswordProblem(password: string): string | undefined {
  if (password.length === 0) return ProjectMessages.passwordRequired;
  return databasePasswordProblem(password) ?? (kindsIn(password) < 3 ? ProjectMessages.passwordTooSimple : undefined);
}

export type PasswordStrength = { score: 0 | 1 | 2 | 3 | 4; label: 'Empty' | 'Weak' | 'Fair' | 'Good' | 'Strong' };

/** The new-project form's strength hint: only a password without a problem is Fair or better. */
export function databasePasswordStrength(password: string): PasswordStrength {
  if (!password) return { score: 0, label: 'Empty' };
  if (newProjectPasswordProblem(password)) return { score: 1, label: 'Weak' };
  const kinds = kindsIn(password);
  if (password.length >= 20 && kinds === 4) return { score: 4, label: 'Strong' };
  if (password.length >= 16) return { score: 3, label: 'Good' };
  return { score: 2, label: 'Fair' };
}

/** What is wrong with a project name, or undefined. */
export function projectNameProblem(name: string): string | undefined {
  if (!name.trim()) return ProjectMessages.nameRequired;
  if (name.trim().length > PROJECT_NAME_MAX) return ProjectMessages.nameTooLong;
  return undefined;
}

export const ProvisioningStepSchema = Type.Union(PROVISIONING_STEPS.map((s) => Type.Literal(s)));

/** A project's lifecycle as the building page and the general settings show it. */
export const ProjectLifecycle = Type.Object({
  ref: Type.String(),
  name: Type.String(),
  status: ProjectStatus,
  provisioning: Type.Object({
    step: ProvisioningStepSchema,
    /** The last failure while coming up; the platform retries on its own and at its next start. */
    error: Type.Union([Type.String(), Type.Null()]),
    attempts: Type.Integer({ minimum: 0 }),
  }),
  paused_at: Type.Union([Timestamp, Type.Null()]),
});
export type ProjectLifecycle = Static<typeof ProjectLifecycle>;

/** Read from the project's database as its admin role. */
export const ProjectInfrastructure = Type.Object({
  /** `show server_version`, e.g. "17.5". */
  postgres_version: Type.String(),
  /** `pg_database_size(current_database())`. */
  database_size_bytes: Type.Integer({ minimum: 0 }),
});
export type ProjectInfrastructure = Static<typeof ProjectInfrastructure>;

const Name = Type.String({ maxLength: 1000 });

export const projectLifecycleRoutes = {
  /**
   * Owners and administrators of the organization (403 otherwise; 404 for an organization the caller is
   * not a member of). Answers at once with the COMING_UP project; the database is made in the background.
   */
  createProject: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects',
    body: Type.Object(
      {
        name: Name,
        organization_slug: Type.String({ minLength: 1, maxLength: 64 }),
        /** The password of the project's admin database role. */
        db_pass: Type.String({ maxLength: 1000 }),
      },
      { additionalProperties: false },
    ),
    response: Project,
    status: 201,
    access: access.signedIn,
  }),
  projectLifecycle: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/lifecycle',
    params: RefParams,
    response: ProjectLifecycle,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  renameProject: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref',
    params: RefParams,
    body: Type.Object({ name: Name }, { additionalProperties: false }),
    response: Project,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  /** An active project only (409 otherwise): its database refuses connections and its open ones end. */
  pauseProject: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/pause',
    params: RefParams,
    response: Project,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  /** A paused project only (409 otherwise). */
  restoreProject: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/restore',
    params: RefParams,
    response: Project,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  /** A project that is coming up (409 otherwise): runs its provisioning again now. */
  retryProvisioning: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/provisioning/retry',
    params: RefParams,
    response: ProjectLifecycle,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  /**
   * Deletes the platform's row (and everything kept for the project), then drops its database and roles.
   * The body names the project (`{ "name": "<its name>" }`): a call meant for another project, or made
   * without looking, deletes nothing (400).
   */
  deleteProject: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/projects/:ref',
    params: RefParams,
    body: Type.Object({ name: Type.String({ maxLength: PROJECT_NAME_MAX }) }, { additionalProperties: false }),
    response: Ok,
    access: access.project(Permission.ProjectAdminWrite),
  }),
  /** An active project only (503 while paused or coming up). */
  projectInfrastructure: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/infrastructure',
    params: RefParams,
    response: ProjectInfrastructure,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The gateway asks this (and caches it briefly) before forwarding to a project's APIs. */
  projectStatus: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/status',
    params: RefParams,
    response: Type.Object({ ref: Type.String(), status: ProjectStatus }),
    access: access.internal,
  }),
};
