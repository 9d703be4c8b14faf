import { randomBytes } from 'node:crypto';
import { roleHasPermission, ServiceMessages, type Identity, type PermissionName, type Project } from '@dash/contracts';
import {
  bootstrapProjectDatabase,
  conflict,
  badRequest,
  ensureDatabase,
  forbidden,
  generateRolePasswords,
  HttpError,
  MAX_PROJECT_DATABASE_BYTES,
  notFound,
  projectRoleUrl,
  userOf,
  withDatabase,
  type ProjectRole,
  type ProjectRolePasswords,
} from '@dash/service-kit';
import type { PlatformContext } from './context';
import type { ProjectRow } from './db/schema';
import { findProjectByRef, findProjectOf } from './db/projects';
import { storedJwtSecret } from './db/storage-config';

export interface NewProject {
  ref: string;
  name: string;
  orgId: number;
}

const REF = /^[a-z0-9-]{1,64}$/;
const RESERVED_REFS = new Set(['internal']);

export function projectDatabaseName(prefix: string, ref: string): string {
  return `${prefix}${ref}`;
}

/**
 * Creates a project in one flow: its database (`${prefix}${ref}`, created with the admin URL),
 * the standard bootstrap (roles, `auth` helpers, `storage` schema), the encrypted connection string
 * and the row. Every step is idempotent, so a flow interrupted half-way can simply run again.
 */
export async function createProject(ctx: PlatformContext, input: NewProject): Promise<ProjectRow> {
  if (!REF.test(input.ref)) throw badRequest('A project ref is 1 to 64 lowercase letters, digits or dashes');
  // The gateway never forwards `/api/<service>/internal/...`: a project with that ref would be unreachable.
  if (RESERVED_REFS.has(input.ref)) throw badRequest(`"${input.ref}" is a reserved name; choose another ref`);
  if (!input.name.trim()) throw badRequest('A project needs a name');
  const database = projectDatabaseName(ctx.projectDbPrefix, input.ref);
  // Postgres truncates identifiers beyond 63 bytes: the database and its role names must fit whole.
  if (Buffer.byteLength(database) > MAX_PROJECT_DATABASE_BYTES) {
    throw badRequest(`The database name ${database} is longer than ${MAX_PROJECT_DATABASE_BYTES} bytes; choose a shorter ref`);
  }
  if (await findProjectByRef(ctx.db, input.ref)) throw conflict(`A project with ref ${input.ref} already exists`);
  const org = await ctx.db.selectFrom('organizations').select('id').where('id', '=', input.orgId).executeTakeFirst();
  if (!org) throw notFound(`Organization ${input.orgId} not found`);

  await ensureDatabase(ctx.adminUrl, database);
  const connectionString = withDatabase(ctx.adminUrl, database);
  const passwords = generateRolePasswords();
  await bootstrapProjectDatabase(connectionString, passwords);

  try {
    return await ctx.db
      .insertInto('projects')
      .values({
        ref: input.ref,
        name: input.name.trim(),
        org_id: input.orgId,
        status: 'ACTIVE_HEALTHY',
        connection_encrypted: ctx.cipher.encrypt(connectionString, connectionContext(input.ref)),
        role_passwords_encrypted: encryptRolePasswords(ctx, input.ref, passwords),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw conflict(`A project with ref ${input.ref} already exists`);
    throw error;
  }
}

/** The additional authenticated data of a project's encrypted connection string. */
export const connectionContext = (ref: string): string => `project:${ref}`;

export function decryptConnection(ctx: PlatformContext, project: Pick<ProjectRow, 'ref' | 'connection_encrypted'>): string {
  return ctx.cipher.decrypt(project.connection_encrypted, connectionContext(project.ref));
}

const rolePasswordsContext = (ref: string): string => `project:${ref}:role-passwords`;

function encryptRolePasswords(ctx: PlatformContext, ref: string, passwords: ProjectRolePasswords): string {
  return ctx.cipher.encrypt(JSON.stringify(passwords), rolePasswordsContext(ref));
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
  if (!project.role_passwords_encrypted) throw new HttpError(503, `The roles of project ${project.ref} are not set up yet`);
  const passwords = JSON.parse(ctx.cipher.decrypt(project.role_passwords_encrypted, rolePasswordsContext(project.ref))) as ProjectRolePasswords;
  return projectRoleUrl(decryptConnection(ctx, project), role, passwords[role]);
}

/**
 * Gives projects made before the project roles existed their roles (the bootstrap is idempotent and makes
 * their superuser-owned objects the admin role's). Runs at start, before any service asks for a role.
 */
export async function setUpMissingProjectRoles(ctx: PlatformContext): Promise<string[]> {
  const legacy = await ctx.db.selectFrom('projects').selectAll().where('role_passwords_encrypted', 'is', null).execute();
  for (const project of legacy) {
    const passwords = generateRolePasswords();
    await bootstrapProjectDatabase(decryptConnection(ctx, project), passwords);
    await ctx.db
      .updateTable('projects')
      .set({ role_passwords_encrypted: encryptRolePasswords(ctx, project.ref, passwords) })
      .where('id', '=', project.id)
      .execute();
  }
  return legacy.map((p) => p.ref);
}

/** The additional authenticated data of a project's encrypted JWT secret (not the connection string's). */
const jwtSecretContext = (ref: string): string => `project:${ref}:jwt-secret`;

/**
 * The secret that signs the project's API keys: 32 random bytes (hex), generated on first use and kept
 * encrypted; every later read returns the same one.
 */
export async function projectJwtSecret(ctx: PlatformContext, project: Pick<ProjectRow, 'id' | 'ref'>): Promise<string> {
  const context = jwtSecretContext(project.ref);
  const stored = await storedJwtSecret(ctx.db, project.id, () => ctx.cipher.encrypt(randomBytes(32).toString('hex'), context));
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
