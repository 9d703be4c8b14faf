import {
  LOG_METADATA_MAX_DEPTH,
  LogIngestMessages,
  WAREHOUSE_MAX_EVENT_AGE_DAYS,
  WAREHOUSE_MAX_EVENT_FUTURE_MINUTES,
  WarehouseMessages,
  type IngestEvent,
} from '@dash/contracts';
import { HttpError, badRequest } from '@dash/service-kit';
import { nestedDeeperThan } from '../json-depth';
import type { CollectionEventRow } from '../sql/warehouse';

const tooMany = (max: number) => new HttpError(413, WarehouseMessages.tooManyEvents(max));

/** The body of a JSON ingest: an array of events (one object alone counts as a batch of one). */
export function parseJsonEvents(text: string, maxEvents: number): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest(WarehouseMessages.badJson(reason(error)));
  }
  const events = Array.isArray(parsed) ? parsed : [parsed];
  return checked(events, maxEvents);
}

/** An NDJSON body: one event per line, blank lines skipped; a broken line is named by its number. */
export function parseNdjsonEvents(text: string, maxEvents: number): unknown[] {
  const events: unknown[] = [];
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const end = text.indexOf('\n', start);
    const raw = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length + 1 : end + 1;
    if (raw.trim() === '') continue;
    if (events.length === maxEvents) throw tooMany(maxEvents);
    try {
      events.push(JSON.parse(raw));
    } catch (error) {
      throw badRequest(WarehouseMessages.badJsonLine(line, reason(error)));
    }
  }
  return checked(events, maxEvents);
}

function checked(events: unknown[], maxEvents: number): unknown[] {
  if (events.length === 0) throw badRequest(WarehouseMessages.noEvents);
  if (events.length > maxEvents) throw tooMany(maxEvents);
  const notObject = events.findIndex((e) => typeof e !== 'object' || e === null || Array.isArray(e));
  if (notObject !== -1) throw badRequest(WarehouseMessages.notAnObject(notObject + 1));
  return events;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

const DAY_MS = 86_400_000;

/**
 * The rows to store for validated events: `timestamp` (ISO 8601 or epoch milliseconds; now when absent)
 * within the accepted window, `event_message` or else `message`, and every other field as metadata (a
 * `metadata` object's fields merged in, the event's own fields winning).
 */
export function toCollectionEvents(events: readonly IngestEvent[], now: Date): CollectionEventRow[] {
  const oldest = now.getTime() - WAREHOUSE_MAX_EVENT_AGE_DAYS * DAY_MS;
  const newest = now.getTime() + WAREHOUSE_MAX_EVENT_FUTURE_MINUTES * 60_000;
  return events.map((event, i) => {
    const { timestamp, event_message, message, metadata, ...rest } = event;
    const at = timestamp === undefined ? now : new Date(timestamp);
    const ms = at.getTime();
    if (Number.isNaN(ms) || ms < oldest || ms > newest) throw badRequest(WarehouseMessages.badTimestamp(i + 1));
    const nested = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata : metadata === undefined ? {} : { metadata };
    const merged = { ...nested, ...rest };
    if (nestedDeeperThan(merged, LOG_METADATA_MAX_DEPTH)) throw badRequest(LogIngestMessages.metadataTooDeep(i + 1));
    return { timestamp: at, eventMessage: event_message ?? message ?? '', metadata: merged };
  });
}
