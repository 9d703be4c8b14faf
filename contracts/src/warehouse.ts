import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/**
 * Event collections and warehouse access tokens (shell spec §2, §3, §5, §7; storage spec §3, §5, §7, §8).
 *
 * The spec's calls live at `/platform/projects/{ref}/analytics/warehouse/...`. The logs service owns them
 * (collections are log tables the explorer reads), so they are its routes `/:ref/analytics/warehouse/...`,
 * which the browser calls through the gateway as `/api/logs/{ref}/analytics/warehouse/...`.
 *
 * Ingest is not a dashboard call: apps and scripts send events with a warehouse access token, never a
 * session. `/api/*` reads a Bearer token as a personal access token, so ingest is a project API instead,
 * like storage's: the gateway serves `/p/{ref}/analytics/v1/*` as the logs service's `/:ref/v1/*`.
 *
 * Permissions: reading (tenant, collections, token list without secrets) needs analytics read, as the
 * logs do. Creating, renaming and deleting collections and access tokens needs tenant SQL admin write
 * (owner, administrator, developer): a collection is a table of the project's data and a token writes
 * to it; read-only members only look.
 */

export const WarehouseMessages = {
  nameRequired: 'Collection name is required',
  projectRefNotFound: 'Project ref not found',
  duplicateName: (name: string) => `Collection with the name ${name} already exists`,
  collectionNotFound: 'Collection not found',
  accessTokenNotFound: 'Access token not found',
  failedToCreateCollection: 'Failed to create collection',
  failedToUpdateCollection: 'Failed to update collection',
  failedToDeleteCollection: 'Failed to delete collection',
  failedToCreateToken: 'Failed to create token',
  failedToDeleteToken: 'Failed to delete access token',
  collectionCreated: (name: string) => `Created collection ${name}`,
  collectionUpdated: (name: string) => `Updated collection ${name}`,
  collectionDeleted: (name: string) => `Deleted collection ${name}`,
  tokenDeleted: 'Deleted access token',
  // Ingest refusals.
  missingToken: 'Send a warehouse access token as "Authorization: Bearer <token>"',
  invalidToken: 'Invalid warehouse access token',
  /** A token of another project, or a collection token that is not this project's. */
  unknownCollection: 'Collection not found in this project',
  bodyTooLarge: (limit: number) => `The body is larger than ${limit} bytes: send the events in smaller batches`,
  tooManyEvents: (limit: number) => `At most ${limit} events per request: send the events in smaller batches`,
  noEvents: 'Send at least one event',
  notAnObject: (line: number) => `Event ${line} must be a JSON object`,
  badJson: (reason: string) => `The body is not valid JSON: ${reason}`,
  badJsonLine: (line: number, reason: string) => `Line ${line} is not valid JSON: ${reason}`,
  badTimestamp: (index: number) =>
    `Event ${index}: timestamp must be an ISO 8601 date-time or Unix epoch milliseconds, at most ${WAREHOUSE_MAX_EVENT_AGE_DAYS} days old and ${WAREHOUSE_MAX_EVENT_FUTURE_MINUTES} minutes ahead`,
  unsupportedType: 'Send the events as application/json (an array) or application/x-ndjson (one object per line)',
  rateLimited: (seconds: number) => `Too many events for this access token: retry in ${seconds} s`,
} as const;

/** Ingest limits: one request's body and events, and each token's sustained rate (and burst). */
export const WAREHOUSE_INGEST_MAX_BODY_BYTES = 5 * 1024 * 1024;
export const WAREHOUSE_INGEST_MAX_EVENTS = 10_000;
export const WAREHOUSE_INGEST_EVENTS_PER_SECOND = 50_000;
export const WAREHOUSE_INGEST_BURST_EVENTS = 100_000;
/** Event timestamps are refused beyond these bounds (older days are past the logs' retention). */
export const WAREHOUSE_MAX_EVENT_AGE_DAYS = 31;
export const WAREHOUSE_MAX_EVENT_FUTURE_MINUTES = 60;
export const WAREHOUSE_MAX_MESSAGE_CHARS = 10_000;
export const WAREHOUSE_NAME_MAX_CHARS = 100;
export const WAREHOUSE_TOKEN_DESCRIPTION_MAX_CHARS = 200;

/** The table of collection events in the logs explorer (`collection` is the collection's token). */
export const COLLECTION_EVENTS_TABLE = 'collection_events';

const CollectionToken = Type.String({ format: 'uuid' });
const CollectionName = Type.String({ minLength: 1, maxLength: WAREHOUSE_NAME_MAX_CHARS });
const CollectionParams = Type.Object({ ref: RefParams.properties.ref, token: CollectionToken });
/** `{token}` of an access token's path is its id: the secret itself is shown once and stored only hashed. */
const AccessTokenParams = Type.Object({ ref: RefParams.properties.ref, token: Type.String({ format: 'uuid' }) });

export const EventCollection = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
});
export type EventCollection = Static<typeof EventCollection>;

export const WarehouseAccessToken = Type.Object({
  id: Type.String(),
  description: Type.String(),
  /** The secret's first characters, to tell tokens apart. */
  hint: Type.String(),
  created_at: Timestamp,
});
export type WarehouseAccessToken = Static<typeof WarehouseAccessToken>;

/** The path apps send events to, through the gateway (the project API of ingest). */
export function collectionIngestPath(ref: string, collectionToken: string): string {
  return `/p/${encodeURIComponent(ref)}/analytics/v1/collections/${encodeURIComponent(collectionToken)}/events`;
}

/** The explorer's opening query of a collection's page (`collection` is its token, a uuid). */
export function collectionEventsSql(collectionToken: string): string {
  return `select timestamp, event_message, metadata
from ${COLLECTION_EVENTS_TABLE}
where collection = '${collectionToken.replace(/'/g, "''")}'
order by timestamp desc
limit 100`;
}

/**
 * The copyable curl commands of a collection's page: a JSON array, and an NDJSON file. The token is read
 * from `$WAREHOUSE_TOKEN` (its secret is shown only once, when it is created).
 */
export function collectionCurlExamples(origin: string, ref: string, collectionToken: string): { json: string; ndjson: string } {
  const url = `${origin}${collectionIngestPath(ref, collectionToken)}`;
  const head = `curl -X POST '${url}' \\\n  -H "Authorization: Bearer $WAREHOUSE_TOKEN" \\\n`;
  return {
    json: `${head}  -H 'Content-Type: application/json' \\\n  -d '[{"event_message": "user signed up", "user_id": 42, "plan": "pro"}]'`,
    ndjson: `${head}  -H 'Content-Type: application/x-ndjson' \\\n  --data-binary @events.ndjson`,
  };
}

/** The `timestamp` of an ingested event (absent: the time it arrives). */
const IngestTimestamp = Type.Union([Timestamp, Type.Integer({ minimum: 0 })]);

/**
 * One event as apps send it: `timestamp`, `event_message` (or `message`), and any other fields, which
 * become the event's metadata (a `metadata` object's fields are merged in).
 */
export const IngestEvent = Type.Object(
  {
    timestamp: Type.Optional(IngestTimestamp),
    event_message: Type.Optional(Type.String({ maxLength: WAREHOUSE_MAX_MESSAGE_CHARS })),
    message: Type.Optional(Type.String({ maxLength: WAREHOUSE_MAX_MESSAGE_CHARS })),
  },
  { additionalProperties: true },
);
export type IngestEvent = Static<typeof IngestEvent> & Record<string, unknown>;

/**
 * Every route but ingest belongs to the `warehouse` feature. Ingest needs a warehouse access token,
 * which only exists if the feature was on when it was made.
 */
export const warehouseRoutes = {
  tenant: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/analytics/warehouse/tenant',
    params: RefParams,
    // Used as presence (shell spec §7); it also tells the collection page where and how much to send.
    response: Type.Object({
      project_ref: Type.String(),
      ingest: Type.Object({
        max_body_bytes: Type.Integer(),
        max_events: Type.Integer(),
        events_per_second: Type.Integer(),
      }),
    }),
    access: access.project(Permission.AnalyticsRead),
    featureFlag: 'warehouse',
  }),
  listAccessTokens: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/analytics/warehouse/access-tokens',
    params: RefParams,
    response: Type.Array(WarehouseAccessToken),
    access: access.project(Permission.AnalyticsRead),
    featureFlag: 'warehouse',
  }),
  createAccessToken: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/:ref/analytics/warehouse/access-tokens',
    params: RefParams,
    body: Type.Object({ description: Type.String({ maxLength: WAREHOUSE_TOKEN_DESCRIPTION_MAX_CHARS }) }, { additionalProperties: false }),
    /** `token` is the secret, in this reply only. */
    response: Type.Intersect([WarehouseAccessToken, Type.Object({ token: Type.String() })]),
    status: 201,
    access: access.project(Permission.TenantSqlAdminWrite),
    featureFlag: 'warehouse',
  }),
  deleteAccessToken: defineRoute({
    service: 'logs',
    method: 'DELETE',
    url: '/:ref/analytics/warehouse/access-tokens/:token',
    params: AccessTokenParams,
    response: Ok,
    access: access.project(Permission.TenantSqlAdminWrite),
    featureFlag: 'warehouse',
  }),
  listCollections: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/analytics/warehouse/collections',
    params: RefParams,
    response: Type.Array(EventCollection),
    access: access.project(Permission.AnalyticsRead),
    featureFlag: 'warehouse',
  }),
  createCollection: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/:ref/analytics/warehouse/collections',
    params: RefParams,
    body: Type.Object({ name: CollectionName }, { additionalProperties: false }),
    response: EventCollection,
    status: 201,
    access: access.project(Permission.TenantSqlAdminWrite),
    featureFlag: 'warehouse',
  }),
  updateCollection: defineRoute({
    service: 'logs',
    method: 'PATCH',
    url: '/:ref/analytics/warehouse/collections/:token',
    params: CollectionParams,
    body: Type.Object({ name: CollectionName }, { additionalProperties: false }),
    response: EventCollection,
    access: access.project(Permission.TenantSqlAdminWrite),
    featureFlag: 'warehouse',
  }),
  deleteCollection: defineRoute({
    service: 'logs',
    method: 'DELETE',
    url: '/:ref/analytics/warehouse/collections/:token',
    params: CollectionParams,
    response: Ok,
    access: access.project(Permission.TenantSqlAdminWrite),
    featureFlag: 'warehouse',
  }),
  /**
   * Ingest (gateway: `collectionIngestPath`). `public` to the service kit because the caller is no
   * member: the service checks `Authorization: Bearer <warehouse access token>` (a token of this
   * project), the collection and the token's rate before it reads the body. The body is a JSON array of
   * events, or NDJSON (`application/x-ndjson`, one event per line) read into the same array.
   */
  ingest: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/:ref/v1/collections/:token/events',
    params: CollectionParams,
    body: Type.Array(IngestEvent, { maxItems: WAREHOUSE_INGEST_MAX_EVENTS }),
    response: Type.Object({ accepted: Type.Integer() }),
    access: access.public,
  }),
};
