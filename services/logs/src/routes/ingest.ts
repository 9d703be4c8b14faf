import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import {
  WAREHOUSE_INGEST_BURST_EVENTS,
  WAREHOUSE_INGEST_EVENTS_PER_SECOND,
  WAREHOUSE_INGEST_MAX_BODY_BYTES,
  WAREHOUSE_INGEST_MAX_EVENTS,
  warehouseRoutes,
  WarehouseMessages,
} from '@dash/contracts';
import { addRoute, HttpError, sendError } from '@dash/service-kit';
import type { LogsContext } from '../app';
import { PartitionManager } from '../db/partitions';
import { COLLECTION_EVENTS_TABLE, findAccessTokenQuery, findCollectionQuery, insertCollectionEventsQuery } from '../sql/warehouse';
import { storeInPartitions } from '../store';
import { parseJsonEvents, parseNdjsonEvents, toCollectionEvents } from './ingest-body';
import { EventRateLimiter } from './ingest-rate';
import { hashAccessToken } from './warehouse-tokens';

export interface IngestLimits {
  maxBodyBytes: number;
  maxEvents: number;
  eventsPerSecond: number;
  burstEvents: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxBodyBytes: WAREHOUSE_INGEST_MAX_BODY_BYTES,
  maxEvents: WAREHOUSE_INGEST_MAX_EVENTS,
  eventsPerSecond: WAREHOUSE_INGEST_EVENTS_PER_SECOND,
  burstEvents: WAREHOUSE_INGEST_BURST_EVENTS,
};

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** How long ingest trusts a looked-up token or collection; deletions through this process apply at once. */
const CACHE_MS = 10_000;
const MISS_CACHE_MS = 1_000;
const MAX_ENTRIES = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Access tokens (by the sha256 of the secret) and collections ingest has looked up, so a stream of
 * batches costs no lookup each. Deleting a token or a collection forgets it here at once; another logs
 * process (if a deployment ran several) would notice within `CACHE_MS`.
 */
export class WarehouseCache {
  private readonly tokens = new Map<string, Entry<{ id: string; projectRef: string } | null>>();
  private readonly collections = new Map<string, Entry<number | null>>();

  constructor(private readonly pool: pg.Pool) {}

  async accessToken(secret: string): Promise<{ id: string; projectRef: string } | null> {
    const hash = hashAccessToken(secret);
    return this.cached(this.tokens, hash.toString('hex'), async () => {
      const { rows } = await this.pool.query<{ id: string; project_ref: string }>(findAccessTokenQuery(hash));
      return rows[0] ? { id: rows[0].id, projectRef: rows[0].project_ref } : null;
    });
  }

  async collection(ref: string, token: string): Promise<number | null> {
    return this.cached(this.collections, `${ref}/${token.toLowerCase()}`, async () => {
      const { rows } = await this.pool.query<{ id: number }>(findCollectionQuery(ref, token));
      return rows[0]?.id ?? null;
    });
  }

  forgetAccessToken(id: string): void {
    for (const [key, entry] of this.tokens) if (entry.value?.id === id) this.tokens.delete(key);
  }

  forgetCollection(ref: string, token: string): void {
    this.collections.delete(`${ref}/${token.toLowerCase()}`);
  }

  private async cached<T>(map: Map<string, Entry<T | null>>, key: string, load: () => Promise<T | null>): Promise<T | null> {
    const now = Date.now();
    const hit = map.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { value, expiresAt: now + (value === null ? MISS_CACHE_MS : CACHE_MS) });
    return value;
  }
}

const bearerOf = (request: FastifyRequest) => request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];

function refuse(reply: FastifyReply, status: number, message: string, retryAfterMs?: number) {
  if (retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return sendError(reply, status, message);
}

/**
 * POST /:ref/v1/collections/:token/events (the gateway's /p/{ref}/analytics/v1/...). A plugin of its
 * own, so its parsers and hook apply to this route alone: the token, the collection and the rate are
 * checked when the request arrives, before its body is read; JSON and NDJSON bodies are parsed here
 * (with line numbers) up to `maxBodyBytes`.
 */
export async function ingestRoutesPlugin(
  app: FastifyInstance,
  { ctx, cache, limits }: { ctx: LogsContext; cache: WarehouseCache; limits: IngestLimits },
): Promise<void> {
  const partitions = new PartitionManager(ctx.pool, COLLECTION_EVENTS_TABLE);
  const limiter = new EventRateLimiter(limits.eventsPerSecond, limits.burstEvents);
  const callers = new WeakMap<FastifyRequest, { tokenId: string; collectionId: number }>();

  app.removeAllContentTypeParsers();
  const parser = { parseAs: 'string' as const, bodyLimit: limits.maxBodyBytes };
  app.addContentTypeParser('application/json', parser, async (_request: FastifyRequest, body: string) => parseJsonEvents(body, limits.maxEvents));
  app.addContentTypeParser('application/x-ndjson', parser, async (_request: FastifyRequest, body: string) => parseNdjsonEvents(body, limits.maxEvents));
  app.addContentTypeParser('*', async () => {
    throw new HttpError(415, WarehouseMessages.unsupportedType);
  });

  app.addHook('onRequest', async (request, reply) => {
    const secret = bearerOf(request);
    if (!secret) return refuse(reply, 401, WarehouseMessages.missingToken);
    const length = Number(request.headers['content-length']);
    if (length > limits.maxBodyBytes) return refuse(reply, 413, WarehouseMessages.bodyTooLarge(limits.maxBodyBytes));
    const { ref, token } = request.params as { ref: string; token: string };
    const access = await cache.accessToken(secret);
    // Another project's token is no token of this one.
    if (!access || access.projectRef !== ref) return refuse(reply, 401, WarehouseMessages.invalidToken);
    const collectionId = UUID.test(token) ? await cache.collection(ref, token) : null;
    if (collectionId === null) return refuse(reply, 404, WarehouseMessages.unknownCollection);
    const wait = limiter.waitMs(access.id);
    if (wait > 0) return refuse(reply, 429, WarehouseMessages.rateLimited(Math.ceil(wait / 1000)), wait);
    callers.set(request, { tokenId: access.id, collectionId });
  });

  addRoute(app, warehouseRoutes.ingest, async ({ body, request, reply }) => {
    const caller = callers.get(request)!;
    const rows = toCollectionEvents(body, new Date());
    const wait = limiter.take(caller.tokenId, rows.length);
    if (wait > 0) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))));
      throw new HttpError(429, WarehouseMessages.rateLimited(Math.ceil(wait / 1000)));
    }
    await storeInPartitions(
      ctx.pool,
      partitions,
      rows.map((r) => r.timestamp),
      insertCollectionEventsQuery(caller.collectionId, rows),
    );
    return { accepted: rows.length };
  });
}
