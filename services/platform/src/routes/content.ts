import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import {
  contentRoutes,
  Messages,
  Permission,
  ServiceMessages,
  SNIPPET_VERSIONS_KEPT,
  VERSION_CONFLICT_CODE,
  type Identity,
  type PermissionName,
  type RouteBody,
  type SqlSnippet,
} from '@dash/contracts';
import { addRoute, badRequest, conflict, forbidden, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import {
  deleteContents,
  findContentOwnership,
  findVisibleSnippet,
  insertSnippet,
  insertVersion,
  listVersions,
  listVisibleSnippets,
  lockContent,
  lockContents,
  pruneVersions,
  updateContent,
  type NewSnippet,
} from '../db/content';
import type { ContentRow, Database } from '../db/schema';
import { memberProject } from '../projects';

export const versionConflictMessage = (version: number): string =>
  `This query was changed elsewhere (version ${version}); reload it, overwrite it or save a copy`;
export const CONTENT_ID_TAKEN = 'Another query already has this id';
export const ALREADY_SHARED = 'This query is already shared with the project';
export const ONLY_PROJECT_DUPLICATES = 'Only project queries can be duplicated';

const NAME_MAX = contentRoutes.createSnippet.body?.properties.name.maxLength ?? 256;
const COPY_SUFFIX = ' (copy)';

/** A copy's name, cut so that it still fits the name's limit (and can be saved again as it is). */
export const copyName = (name: string): string => `${name.slice(0, NAME_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`;

/**
 * The uuid as Postgres prints it. The contract's `uuid` format also lets through upper case and a
 * `urn:uuid:` prefix; Postgres refuses the prefix, and upper case would come back changed.
 */
const contentId = (id: string): string => id.toLowerCase().replace(/^urn:uuid:/, '');

interface Caller {
  projectId: number;
  userId: string;
}

/** Membership and permission from the database (404/403), then who is asking. */
async function callerOf(ctx: PlatformContext, identity: Identity | null, ref: string, permission: PermissionName): Promise<Caller> {
  const project = await memberProject(ctx, identity, ref, permission);
  return { projectId: project.id, userId: userOf(identity).sub };
}

/** Someone else's personal snippet does not exist for the caller (404, never 403: it reveals nothing). */
const canSee = (row: Pick<ContentRow, 'visibility' | 'owner_id'>, userId: string): boolean =>
  row.visibility === 'project' || row.owner_id === userId;

/** The row, when the caller may change it: 404 when they cannot see it, 403 when it is not theirs. */
function ownRow(row: ContentRow | undefined, userId: string): ContentRow {
  if (!row || !canSee(row, userId)) throw notFound(Messages.contentNotFound);
  if (row.owner_id !== userId) throw forbidden(ServiceMessages.forbidden);
  return row;
}

async function visibleSnippet(db: Kysely<Database>, caller: Caller, id: string): Promise<SqlSnippet> {
  const snippet = await findVisibleSnippet(db, caller.projectId, caller.userId, id);
  if (!snippet) throw notFound(Messages.contentNotFound);
  return snippet;
}

/**
 * Creates the snippet, or returns it unchanged when this owner already created this id in this project
 * (a retry after a lost reply). The id anywhere else is someone else's: 409.
 */
async function createOrReuse(ctx: PlatformContext, caller: Caller, snippet: NewSnippet): Promise<SqlSnippet> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await insertSnippet(trx, snippet))) {
      const existing = await findContentOwnership(trx, snippet.id);
      if (existing?.owner_id !== caller.userId || existing.project_id !== caller.projectId) throw conflict(CONTENT_ID_TAKEN);
    }
    return visibleSnippet(trx, caller, snippet.id);
  });
}

type UpdateBody = RouteBody<typeof contentRoutes.updateSnippet>;

/**
 * Every accepted save increments the version (so a favourite toggle in one tab makes another tab's stale
 * save a conflict too), but only a save that changes the name or the SQL stores a version row: the
 * history is of what the query said, not of its flags or description.
 */
async function saveSnippet(trx: Transaction<Database>, caller: Caller, id: string, body: UpdateBody): Promise<void> {
  // The row lock makes concurrent saves of one snippet take turns: the second sees the first's version.
  const row = ownRow(await lockContent(trx, caller.projectId, id), caller.userId);
  if (body.base_version !== row.version) throw conflict(versionConflictMessage(row.version), VERSION_CONFLICT_CODE);
  const name = body.name ?? row.name;
  const sql = body.content?.sql ?? row.sql;
  const version = row.version + 1;
  await updateContent(trx, id, {
    name,
    sql,
    description: body.description === undefined ? row.description : body.description,
    favorite: body.content?.favorite ?? row.favorite,
    version,
  });
  if (name === row.name && sql === row.sql) return;
  await insertVersion(trx, { contentId: id, version, name, sql, savedBy: caller.userId });
  await pruneVersions(trx, id, SNIPPET_VERSIONS_KEPT);
}

/**
 * Sharing changes who sees the snippet, not what it says: the version stays, so the owner's open editor
 * keeps saving on the same base.
 */
async function shareSnippet(trx: Transaction<Database>, caller: Caller, id: string): Promise<void> {
  const row = ownRow(await lockContent(trx, caller.projectId, id), caller.userId);
  if (row.visibility === 'project') throw badRequest(ALREADY_SHARED);
  await updateContent(trx, id, { visibility: 'project' });
}

/**
 * All or nothing: one id that is someone else's (and visible to the caller) refuses the request.
 * Missing ids, and other members' personal snippets (which do not exist for the caller), are skipped.
 */
async function deleteSnippets(trx: Transaction<Database>, caller: Caller, ids: string[]): Promise<string[]> {
  const visible = (await lockContents(trx, caller.projectId, ids)).filter((row) => canSee(row, caller.userId));
  if (visible.some((row) => row.owner_id !== caller.userId)) throw forbidden(ServiceMessages.forbidden);
  if (!visible.length) throw notFound(Messages.contentNotFound);
  const found = new Set(visible.map((row) => row.id));
  const deleted = ids.filter((id) => found.has(id));
  await deleteContents(trx, deleted);
  return deleted;
}

export async function contentStoreRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const read = (identity: Identity | null, ref: string) => callerOf(ctx, identity, ref, Permission.TenantSqlAdminRead);
  const write = (identity: Identity | null, ref: string) => callerOf(ctx, identity, ref, Permission.UserContentSqlCreate);

  addRoute(app, contentRoutes.listSnippets, async ({ identity, params }) => {
    const caller = await read(identity, params.ref);
    return { data: await listVisibleSnippets(ctx.db, caller.projectId, caller.userId) };
  });

  addRoute(app, contentRoutes.getSnippet, async ({ identity, params }) =>
    visibleSnippet(ctx.db, await read(identity, params.ref), contentId(params.id)),
  );

  addRoute(app, contentRoutes.createSnippet, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    return createOrReuse(ctx, caller, {
      id: contentId(body.id),
      projectId: caller.projectId,
      ownerId: caller.userId,
      name: body.name,
      description: body.description ?? null,
      visibility: body.visibility ?? 'user',
      sql: body.content.sql,
      favorite: body.content.favorite,
    });
  });

  addRoute(app, contentRoutes.updateSnippet, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const id = contentId(params.id);
    return ctx.db.transaction().execute(async (trx) => {
      await saveSnippet(trx, caller, id, body);
      return visibleSnippet(trx, caller, id);
    });
  });

  addRoute(app, contentRoutes.shareSnippet, async ({ identity, params }) => {
    const caller = await write(identity, params.ref);
    const id = contentId(params.id);
    return ctx.db.transaction().execute(async (trx) => {
      await shareSnippet(trx, caller, id);
      return visibleSnippet(trx, caller, id);
    });
  });

  // A personal copy, owned by the caller, with the id the browser chose (a retry returns the same copy).
  addRoute(app, contentRoutes.duplicateSnippet, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const source = await visibleSnippet(ctx.db, caller, contentId(params.id));
    if (source.visibility !== 'project') throw badRequest(ONLY_PROJECT_DUPLICATES);
    return createOrReuse(ctx, caller, {
      id: contentId(body.id),
      projectId: caller.projectId,
      ownerId: caller.userId,
      name: copyName(source.name),
      description: source.description,
      visibility: 'user',
      sql: source.content.sql,
      favorite: false,
    });
  });

  addRoute(app, contentRoutes.deleteSnippets, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const ids = [...new Set(body.ids.map(contentId))];
    return { deleted: await ctx.db.transaction().execute((trx) => deleteSnippets(trx, caller, ids)) };
  });

  addRoute(app, contentRoutes.listSnippetVersions, async ({ identity, params }) => {
    const caller = await read(identity, params.ref);
    const snippet = await visibleSnippet(ctx.db, caller, contentId(params.id));
    return { versions: await listVersions(ctx.db, snippet.id) };
  });
}
