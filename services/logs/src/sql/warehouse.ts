import type { SqlQuery } from '@dash/service-kit';

/** The collections' events table; its day partitions are made by a `PartitionManager` of this table. */
export const COLLECTION_EVENTS_TABLE = 'collection_events';

const COLLECTION_COLUMNS = `id, token::text as token, name, created_at`;
const TOKEN_COLUMNS = `id::text as id, description, hint, created_at`;

export function listCollectionsQuery(ref: string): SqlQuery {
  return { text: `select ${COLLECTION_COLUMNS} from logs.collections where project_ref = $1 order by name, id`, values: [ref] };
}

/** Inserts a collection; a duplicate name violates `collections_project_ref_name_key` (23505). */
export function insertCollectionQuery(ref: string, name: string): SqlQuery {
  return {
    text: `insert into logs.collections (project_ref, name) values ($1, $2) returning ${COLLECTION_COLUMNS}`,
    values: [ref, name],
  };
}

export function renameCollectionQuery(ref: string, token: string, name: string): SqlQuery {
  return {
    text: `update logs.collections set name = $3 where project_ref = $1 and token = $2::uuid returning ${COLLECTION_COLUMNS}`,
    values: [ref, token, name],
  };
}

/** Deletes a collection and its events in one statement; no row back: no such collection in the project. */
export function deleteCollectionQuery(ref: string, token: string): SqlQuery {
  return {
    text: `with c as (delete from logs.collections where project_ref = $1 and token = $2::uuid returning id, name),
e as (delete from logs.collection_events where collection_id in (select id from c))
select name from c`,
    values: [ref, token],
  };
}

/** The id of a project's collection, for ingest. */
export function findCollectionQuery(ref: string, token: string): SqlQuery {
  return { text: `select id from logs.collections where project_ref = $1 and token = $2::uuid`, values: [ref, token] };
}

export function listAccessTokensQuery(ref: string): SqlQuery {
  return {
    text: `select ${TOKEN_COLUMNS} from logs.warehouse_access_tokens where project_ref = $1 order by created_at, id`,
    values: [ref],
  };
}

export function insertAccessTokenQuery(input: { ref: string; description: string; hash: Buffer; hint: string; createdBy: string }): SqlQuery {
  return {
    text: `insert into logs.warehouse_access_tokens (project_ref, description, token_hash, hint, created_by)
values ($1, $2, $3, $4, $5) returning ${TOKEN_COLUMNS}`,
    values: [input.ref, input.description, input.hash, input.hint, input.createdBy],
  };
}

export function deleteAccessTokenQuery(ref: string, id: string): SqlQuery {
  return {
    text: `delete from logs.warehouse_access_tokens where project_ref = $1 and id = $2::uuid returning id`,
    values: [ref, id],
  };
}

/** The project of a token, by the sha256 of its secret. */
export function findAccessTokenQuery(hash: Buffer): SqlQuery {
  return { text: `select id::text as id, project_ref from logs.warehouse_access_tokens where token_hash = $1`, values: [hash] };
}

export interface CollectionEventRow {
  timestamp: Date;
  eventMessage: string;
  metadata: Record<string, unknown>;
}

/** A batch of one collection's events in one statement with three array parameters, whatever its size. */
export function insertCollectionEventsQuery(collectionId: number, events: readonly CollectionEventRow[]): SqlQuery {
  return {
    text: `insert into logs.collection_events (collection_id, "timestamp", event_message, metadata)
select $1::bigint, * from unnest($2::timestamptz[], $3::text[], $4::jsonb[])`,
    values: [
      collectionId,
      events.map((e) => e.timestamp.toISOString()),
      events.map((e) => e.eventMessage),
      events.map((e) => JSON.stringify(e.metadata)),
    ],
  };
}
