import { bootstrapProjectDatabase, conflict, badRequest, ensureDatabase, notFound, withDatabase } from '@dash/service-kit';
import type { PlatformContext } from './context';
import type { ProjectRow } from './db/schema';
import { findProjectByRef } from './db/projects';

export interface NewProject {
  ref: string;
  name: string;
  orgId: number;
}

const REF = /^[a-z0-9-]{1,64}$/;
const RESERVED_REFS = new Set(['internal']);
/** Postgres truncates identifiers beyond 63 bytes; a truncated name could collide with another project's. */
const MAX_IDENTIFIER_BYTES = 63;

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
  if (Buffer.byteLength(database) > MAX_IDENTIFIER_BYTES) {
    throw badRequest(`The database name ${database} is longer than ${MAX_IDENTIFIER_BYTES} bytes; choose a shorter ref`);
  }
  if (await findProjectByRef(ctx.db, input.ref)) throw conflict(`A project with ref ${input.ref} already exists`);
  const org = await ctx.db.selectFrom('organizations').select('id').where('id', '=', input.orgId).executeTakeFirst();
  if (!org) throw notFound(`Organization ${input.orgId} not found`);

  await ensureDatabase(ctx.adminUrl, database);
  const connectionString = withDatabase(ctx.adminUrl, database);
  await bootstrapProjectDatabase(connectionString);

  try {
    return await ctx.db
      .insertInto('projects')
      .values({
        ref: input.ref,
        name: input.name.trim(),
        org_id: input.orgId,
        status: 'ACTIVE_HEALTHY',
        connection_encrypted: ctx.cipher.encrypt(connectionString, connectionContext(input.ref)),
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
