import { randomBytes, randomInt } from 'node:crypto';
import {
  newProjectPasswordProblem,
  PROJECT_REF_LENGTH,
  projectNameProblem,
  roleHasPermission,
  ServiceMessages,
  type Identity,
  type PermissionName,
  type Project,
} from '@dash/contracts';
import {
  bootstrapProjectDatabase,
  conflict,
  badRequest,
  forbidden,
  generateRolePasswords,
  HttpError,
  isUniqueViolation,
  MAX_PROJECT_DATABASE_BYTES,
  notFound,
  PROJECT_ROLES,
  projectRoleUrl,
  scopeStatementStatistics,
  userOf,
  withDatabase,
  type ProjectRole,
  type ProjectRolePasswords,
} from '@dash/service-kit';
import { recordAudit } from './audit';
import type { PlatformContext } from './context';
import type { ProjectRow } from './db/schema';
import { findProjectByRef, findProjectOf } from './db/projects';
import { storedProjectSecret } from './db/project-secrets';

export interface NewProject {
  /** Generated (PROJECT_REF_LENGTH lowercase letters) when not given; the seed names its own. */
  ref?: string;
  name: string;
  orgId: number;
  /** The project admin role's password, as the user chose it; generated when not given (the seed). */
  databasePassword?: string;
  /** Who asked, for the audit log; null for the platform itself (the seed). */
  actor?: { id: string; email: string } | null;
  /** A backup whose contents the new database starts with (see backups/restore.ts). */
  restoreFrom?: number;
}

const REF = /^[a-z0-9-]{1,64}$/;
const RESERVED_REFS = new Set(['internal']);
const REF_LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function projectDatabaseName(prefix: string, ref: string): string {
  return `${prefix}${ref}`;
}

/** A ref as hosted products make them: PROJECT_REF_LENGTH random lowercase letters. */
export function generateProjectRef(): string {
  return Array.from({ length: PROJECT_REF_LENGTH }, () => REF_LETTERS[randomInt(REF_LETTERS.length)]).join('');
}

function checkRef(prefix: string, ref: string): void {
  if (!REF.test(ref)) throw badRequest('A project ref is 1 to 64 lowercase letters, digits or dashes');
  // The gateway never forwards `/api/<service>/internal/...`: a project with that ref would be unreachable.
  if (RESERVED_REFS.has(ref)) throw badRequest(`"${ref}" is a reserved name; choose another ref`);
  const database = projectDatabaseName(prefix, ref);
  // Postgres truncates identifiers beyond 63 bytes: the database and its role names must fit whole.
  if (Buffer.byteLength(database) > MAX_PROJECT_DATABASE_BYTES) {
    throw badRequest(`The database name ${database} is longer than ${MAX_PROJECT_DATABASE_BYTES} bytes; choose a shorter ref`);
  }
}

/**
 * The first half of creating a project: its row, COMING_UP, with the encrypted connection string of its
 * (not yet made) database and its roles' passwords, and the audit event, in one transaction. The
 * provisioner (provisioner.ts) then makes the database from what the row holds, so a run cut short can
 * always be resumed.
 */
export async function insertProject(ctx: PlatformContext, input: NewProject): Promise<ProjectRow> {
  const nameProblem = projectNameProblem(input.name);
  if (nameProblem) throw badRequest(nameProblem);
  if (input.databasePassword !== undefined) {
    const passwordProblem = newProjectPasswordProblem(input.databasePassword);
    if (passwordProblem) throw badRequest(passwordProblem);
  }
  if (input.ref !== undefined) {
    checkRef(ctx.projectDbPrefix, input.ref);
    if (await findProjectByRef(ctx.db, input.ref)) throw conflict(`A project with ref ${input.ref} already exists`);
  }
  const org = await ctx.db.selectFrom('organizations').select(['id', 'slug']).where('id', '=', input.orgId).executeTakeFirst();
  if (!org) throw notFound(`Organization ${input.orgId} not found`);

  const passwords: ProjectRolePasswords = { ...generateRolePasswords(), ...(input.databasePassword ? { admin: input.databasePassword } : {}) };
  // A generated ref that is taken (26^20 makes it unlikely) is drawn again.
  for (let attempt = 0; ; attempt += 1) {
    const ref = input.ref ?? generateProjectRef();
    const database = projectDatabaseName(ctx.projectDbPrefix, ref);
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('projects')
          .values({
            ref,
            name: input.name.trim(),
            org_id: org.id,
            status: 'COMING_UP',
            provisioning_step: 'requested',
            connection_encrypted: ctx.cipher.encrypt(withDatabase(ctx.adminUrl, database), connectionContext(ref)),
            role_passwords_encrypted: encryptRolePasswords(ctx, ref, passwords),
            restore_from: input.restoreFrom ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, { action: 'project.created', actor: input.actor ?? null, org, projectRef: ref, target: row.name });
        return row;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (input.ref !== undefined) throw conflict(`A project with ref ${input.ref} already exists`);
      if (attempt >= 2) throw error;
    }
  }
}

/** The additional authenticated data of a project's encrypted connection string. */
export const connectionContext = (ref: string): string => `project:${ref}`;

export function decryptConnection(ctx: PlatformContext, project: Pick<ProjectRow, 'ref' | 'connection_encrypted'>): string {
  return ctx.cipher.decrypt(project.connection_encrypted, connectionContext(project.ref));
}

const rolePasswordsContext = (ref: string): string => `project:${ref}:role-passwords`;

export function encryptRolePasswords(ctx: PlatformContext, ref: string, passwords: ProjectRolePasswords): string {
  return ctx.cipher.encrypt(JSON.stringify(passwords), rolePasswordsContext(ref));
}

/** The project roles' passwords; a project whose roles were never bootstrapped has none yet (a 503 until the next start). */
export function decryptRolePasswords(ctx: PlatformContext, project: Pick<ProjectRow, 'ref' | 'role_passwords_encrypted'>): ProjectRolePasswords {
  if (!project.role_passwords_encrypted) throw new HttpError(503, `The roles of project ${project.ref} are not set up yet`);
  return JSON.parse(ctx.cipher.decrypt(project.role_passwords_encrypted, rolePasswordsContext(project.ref))) as ProjectRolePasswords;
}

/**
 * The connection string of one of the project's login roles (see the kit's project bootstrap): what the
 * services use. A project whose roles were never bootstrapped has none yet (a 503 until the next start).
 */
export function projectRoleConnection(
  ctx: PlatformContext,
  project: Pick<ProjectRow, 'ref' | 'connection_encrypted' | 'role_passwords_encrypted'>,
  role: ProjectRole,
): string {
  const password = decryptRolePasswords(ctx, project)[role];
  // A role added to the bootstrap after the project was made gets its password at the next start.
  if (password === undefined) throw new HttpError(503, `The ${role} role of project ${project.ref} is not set up yet`);
  return projectRoleUrl(decryptConnection(ctx, project), role, password);
}

/**
 * Gives projects made before the project roles existed their roles (the bootstrap is idempotent and makes
 * their superuser-owned objects the admin role's), and projects made before a role was added (the data
 * API's `api`) that role, keeping the stored passwords of the others. Runs at start, before any service
 * asks for a role. A project still coming up only gets the passwords: its provisioning bootstraps it. One
 * whose database cannot be reached (its server stopped) is left for the next start and named in `failed`.
 */
export async function setUpMissingProjectRoles(ctx: PlatformContext): Promise<{ upgraded: string[]; failed: string[] }> {
  const projects = await ctx.db.selectFrom('projects').selectAll().execute();
  const upgraded: string[] = [];
  const failed: string[] = [];
  for (const project of projects) {
    const stored: Partial<ProjectRolePasswords> = project.role_passwords_encrypted ? decryptRolePasswords(ctx, project) : {};
    if (PROJECT_ROLES.every((role) => stored[role] !== undefined)) continue;
    const passwords: ProjectRolePasswords = { ...generateRolePasswords(), ...stored };
    if (project.status !== 'COMING_UP') {
      try {
        await bootstrapProjectDatabase(decryptConnection(ctx, project), passwords);
      } catch {
        failed.push(project.ref);
        continue;
      }
    }
    await ctx.db
      .updateTable('projects')
      .set({ role_passwords_encrypted: encryptRolePasswords(ctx, project.ref, passwords) })
      .where('id', '=', project.id)
      .execute();
    upgraded.push(project.ref);
  }
  return { upgraded, failed };
}

/**
 * Scopes every project database's statement statistics to itself (see `scopeStatementStatistics`), for
 * databases bootstrapped before that was done. Runs at start; a project whose database cannot be reached
 * is named in the result and tried again at the next start.
 */
export async function scopeProjectStatistics(ctx: PlatformContext): Promise<string[]> {
  const projects = await ctx.db.selectFrom('projects').selectAll().where('status', 'in', ['ACTIVE_HEALTHY', 'INACTIVE']).execute();
  const failed: string[] = [];
  for (const project of projects) {
    await scopeStatementStatistics(decryptConnection(ctx, project)).catch(() => failed.push(project.ref));
  }
  return failed;
}

/** The additional authenticated data of a project's encrypted JWT secret (not the connection string's). */
export const jwtSecretContext = (ref: string): string => `project:${ref}:jwt-secret`;

/**
 * The secret that signs the project's API keys: 32 random bytes (hex), generated on first use and kept
 * encrypted; every later read returns the same one.
 */
export async function projectJwtSecret(ctx: PlatformContext, project: Pick<ProjectRow, 'id' | 'ref'>): Promise<string> {
  const context = jwtSecretContext(project.ref);
  const stored = await storedProjectSecret(ctx.db, project.id, 'jwt_secret_encrypted', () => ctx.cipher.encrypt(randomBytes(32).toString('hex'), context));
  return ctx.cipher.decrypt(stored, context);
}

/**
 * The project as the caller sees it, when the caller is a member holding `permission`. The route's access rule has
 * checked the identity's claims already; membership and role are checked again from the database, as
 * every project route of the platform does (a project the caller is not a member of is a 404).
 */
export async function memberProject(ctx: PlatformContext, identity: Identity | null, ref: string, permission: PermissionName): Promise<Project> {
  const project = await findProjectOf(ctx.db, userOf(identity).sub, ref);
  if (!project) throw notFound(ServiceMessages.projectNotFound);
  if (!roleHasPermission(project.role, permission)) throw forbidden(ServiceMessages.forbidden);
  return project;
}
