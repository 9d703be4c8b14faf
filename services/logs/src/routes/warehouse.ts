import type { FastifyInstance } from 'fastify';
import { warehouseRoutes, WarehouseMessages, type EventCollection, type WarehouseAccessToken } from '@dash/contracts';
import { addRoute, badRequest, conflict, isUniqueViolation, notFound, userOf } from '@dash/service-kit';
import {
  deleteAccessTokenQuery,
  deleteCollectionQuery,
  insertAccessTokenQuery,
  insertCollectionQuery,
  listAccessTokensQuery,
  listCollectionsQuery,
  renameCollectionQuery,
} from '../sql/warehouse';
import type { LogsContext } from '../app';
import { DEFAULT_INGEST_LIMITS, ingestRoutesPlugin, WarehouseCache, type IngestLimits } from './ingest';
import { hashAccessToken, newAccessToken } from './warehouse-tokens';

interface CollectionRow {
  id: number;
  token: string;
  name: string;
  created_at: Date;
}
interface TokenRow {
  id: string;
  description: string;
  hint: string;
  created_at: Date;
}

const toCollection = (row: CollectionRow): EventCollection => ({ ...row, created_at: row.created_at.toISOString() });
const toToken = (row: TokenRow): WarehouseAccessToken => ({ ...row, created_at: row.created_at.toISOString() });


/** Names are trimmed; an empty one is refused with the rename form's text. */
function collectionName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw badRequest(WarehouseMessages.nameRequired);
  return trimmed;
}

/**
 * Event collections: the dashboard's calls (tenant, access tokens and collections, see
 * contracts/src/warehouse.ts) and ingest, a plugin inside this one, sharing ingest's cache of tokens
 * and collections.
 */
export async function warehouseRoutesPlugin(
  app: FastifyInstance,
  { ctx, ingestLimits = {} }: { ctx: LogsContext; ingestLimits?: Partial<IngestLimits> },
): Promise<void> {
  const limits = { ...DEFAULT_INGEST_LIMITS, ...ingestLimits };
  const cache = new WarehouseCache(ctx.pool);

  addRoute(app, warehouseRoutes.tenant, async ({ params }) => ({
    project_ref: params.ref,
    ingest: { max_body_bytes: limits.maxBodyBytes, max_events: limits.maxEvents, events_per_second: limits.eventsPerSecond },
  }));

  addRoute(app, warehouseRoutes.listAccessTokens, async ({ params }) => {
    const { rows } = await ctx.pool.query<TokenRow>(listAccessTokensQuery(params.ref));
    return rows.map(toToken);
  });

  addRoute(app, warehouseRoutes.createAccessToken, async ({ params, body, identity }) => {
    const token = newAccessToken();
    const { rows } = await ctx.pool.query<TokenRow>(
      insertAccessTokenQuery({
        ref: params.ref,
        description: body.description.trim(),
        hash: hashAccessToken(token),
        hint: token.slice(0, 10),
        createdBy: userOf(identity).sub,
      }),
    );
    return { ...toToken(rows[0]!), token };
  });

  addRoute(app, warehouseRoutes.deleteAccessToken, async ({ params }) => {
    const { rowCount } = await ctx.pool.query(deleteAccessTokenQuery(params.ref, params.token));
    if (!rowCount) throw notFound(WarehouseMessages.accessTokenNotFound);
    cache.forgetAccessToken(params.token);
    return { ok: true as const };
  });

  addRoute(app, warehouseRoutes.listCollections, async ({ params }) => {
    const { rows } = await ctx.pool.query<CollectionRow>(listCollectionsQuery(params.ref));
    return rows.map(toCollection);
  });

  addRoute(app, warehouseRoutes.createCollection, async ({ params, body }) => {
    const name = collectionName(body.name);
    try {
      const { rows } = await ctx.pool.query<CollectionRow>(insertCollectionQuery(params.ref, name));
      return toCollection(rows[0]!);
    } catch (error) {
      throw duplicateOr(error, name);
    }
  });

  addRoute(app, warehouseRoutes.updateCollection, async ({ params, body }) => {
    const name = collectionName(body.name);
    let rows: CollectionRow[];
    try {
      ({ rows } = await ctx.pool.query<CollectionRow>(renameCollectionQuery(params.ref, params.token, name)));
    } catch (error) {
      throw duplicateOr(error, name);
    }
    if (!rows[0]) throw notFound(WarehouseMessages.collectionNotFound);
    return toCollection(rows[0]);
  });

  addRoute(app, warehouseRoutes.deleteCollection, async ({ params }) => {
    const { rows } = await ctx.pool.query<{ name: string }>(deleteCollectionQuery(params.ref, params.token));
    if (!rows[0]) throw notFound(WarehouseMessages.collectionNotFound);
    cache.forgetCollection(params.ref, params.token);
    return { ok: true as const };
  });

  app.register(ingestRoutesPlugin, { ctx, cache, limits });
}

function duplicateOr(error: unknown, name: string): unknown {
  return isUniqueViolation(error) ? conflict(WarehouseMessages.duplicateName(name)) : error;
}
