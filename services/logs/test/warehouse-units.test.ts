import { WarehouseMessages } from '@dash/contracts';
import { parseJsonEvents, parseNdjsonEvents, toCollectionEvents } from '../src/routes/ingest-body';
import { EventRateLimiter } from '../src/routes/ingest-rate';
import { hashAccessToken, newAccessToken } from '../src/routes/warehouse-tokens';
import {
  deleteAccessTokenQuery,
  deleteCollectionQuery,
  findAccessTokenQuery,
  findCollectionQuery,
  insertAccessTokenQuery,
  insertCollectionEventsQuery,
  insertCollectionQuery,
  listAccessTokensQuery,
  listCollectionsQuery,
  renameCollectionQuery,
} from '../src/sql/warehouse';

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { status: (error as { statusCode: number }).statusCode, message: (error as Error).message };
  }
  throw new Error('did not throw');
};

describe('warehouse SQL builders', () => {
  it('pass every value as a parameter, scoped to the project', () => {
    const evil = `x'); drop table logs.collections; --`;
    for (const q of [
      listCollectionsQuery(evil),
      insertCollectionQuery('ref', evil),
      renameCollectionQuery('ref', 'tok', evil),
      deleteCollectionQuery('ref', evil),
      findCollectionQuery('ref', evil),
      listAccessTokensQuery(evil),
      deleteAccessTokenQuery('ref', evil),
    ]) {
      expect(q.text).not.toContain(evil);
      expect(q.values).toContain(evil);
      expect(q.text).toMatch(/project_ref = \$1|values \(\$1/);
    }
  });

  it('deletes a collection and its events in one statement', () => {
    const q = deleteCollectionQuery('ref', 'tok');
    expect(q.text).toMatch(/^with c as \(delete from logs\.collections where project_ref = \$1 and token = \$2::uuid returning id, name\),/);
    expect(q.text).toContain('delete from logs.collection_events where collection_id in (select id from c)');
    expect(q.values).toEqual(['ref', 'tok']);
  });

  it('stores tokens by hash and finds them by hash', () => {
    const hash = hashAccessToken('dwh_secret');
    const q = insertAccessTokenQuery({ ref: 'r', description: 'd', hash, hint: 'dwh_sec', createdBy: 'u' });
    expect(q.values).toEqual(['r', 'd', hash, 'dwh_sec', 'u']);
    expect(q.text).not.toContain('dwh_secret');
    expect(findAccessTokenQuery(hash)).toEqual({ text: expect.stringContaining('where token_hash = $1'), values: [hash] });
  });

  it('inserts a batch of events with one statement and four parameters, whatever its size', () => {
    const q = insertCollectionEventsQuery(42, [
      { timestamp: new Date('2024-03-01T10:00:00Z'), eventMessage: 'a', metadata: { n: 1 } },
      { timestamp: new Date('2024-03-02T10:00:00Z'), eventMessage: `it's "b"`, metadata: {} },
    ]);
    expect(q.text).toBe(`insert into logs.collection_events (collection_id, "timestamp", event_message, metadata)
select $1::bigint, * from unnest($2::timestamptz[], $3::text[], $4::jsonb[])`);
    expect(q.values).toEqual([42, ['2024-03-01T10:00:00.000Z', '2024-03-02T10:00:00.000Z'], ['a', `it's "b"`], ['{"n":1}', '{}']]);
  });
});

describe('access token secrets', () => {
  it('are random, prefixed, and hashed with sha256', () => {
    const a = newAccessToken();
    expect(a).toMatch(/^dwh_[A-Za-z0-9_-]{43}$/);
    expect(newAccessToken()).not.toBe(a);
    expect(hashAccessToken('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('ingest bodies', () => {
  it('reads a JSON array, or one object as a batch of one', () => {
    expect(parseJsonEvents('[{"a":1},{"b":2}]', 10)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseJsonEvents('{"a":1}', 10)).toEqual([{ a: 1 }]);
  });

  it('says why a JSON body is not JSON', () => {
    expect(errorOf(() => parseJsonEvents('[{"a":1},{"b": nope}]', 10))).toEqual({ status: 400, message: expect.stringMatching(/^The body is not valid JSON: Unexpected token/) });
  });

  it('reads NDJSON line by line, skipping blank lines and a trailing newline, CRLF included', () => {
    expect(parseNdjsonEvents('{"a":1}\r\n\r\n{"b":2}\r\n', 10)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(errorOf(() => parseNdjsonEvents('{"a":1}\n\n{"b":\n', 10))).toEqual({ status: 400, message: expect.stringMatching(/^Line 3 is not valid JSON: /) });
  });

  it('refuses empty batches, non-objects and too many events', () => {
    expect(errorOf(() => parseNdjsonEvents('\n \n', 10))).toEqual({ status: 400, message: WarehouseMessages.noEvents });
    expect(errorOf(() => parseJsonEvents('[{"a":1}, 5]', 10))).toEqual({ status: 400, message: WarehouseMessages.notAnObject(2) });
    expect(errorOf(() => parseJsonEvents('"text"', 10))).toEqual({ status: 400, message: WarehouseMessages.notAnObject(1) });
    expect(errorOf(() => parseJsonEvents('[{},{},{}]', 2))).toEqual({ status: 413, message: WarehouseMessages.tooManyEvents(2) });
    // NDJSON stops at the first event too many, without parsing the rest.
    expect(errorOf(() => parseNdjsonEvents('{}\n{}\n{}\nnot json', 2))).toEqual({ status: 413, message: WarehouseMessages.tooManyEvents(2) });
  });

  it('maps events to rows: timestamp or now, event_message then message, other fields (and metadata) as metadata', () => {
    const now = new Date('2024-03-10T12:00:00Z');
    expect(
      toCollectionEvents(
        [
          { timestamp: '2024-03-10T11:00:00+01:00', event_message: 'a', message: 'ignored', user: 1 },
          { message: 'b', metadata: { x: 1, user: 'inner' }, user: 'outer' },
          { timestamp: Date.parse('2024-03-09T00:00:00Z'), metadata: 'plain' },
        ],
        now,
      ),
    ).toEqual([
      { timestamp: new Date('2024-03-10T10:00:00Z'), eventMessage: 'a', metadata: { user: 1 } },
      { timestamp: now, eventMessage: 'b', metadata: { x: 1, user: 'outer' } },
      { timestamp: new Date('2024-03-09T00:00:00Z'), eventMessage: '', metadata: { metadata: 'plain' } },
    ]);
  });

  it('refuses timestamps older than the window or too far ahead, naming the event', () => {
    const now = new Date('2024-03-10T12:00:00Z');
    expect(errorOf(() => toCollectionEvents([{}, { timestamp: '2024-01-01T00:00:00Z' }], now))).toEqual({ status: 400, message: WarehouseMessages.badTimestamp(2) });
    expect(errorOf(() => toCollectionEvents([{ timestamp: '2024-03-10T13:30:00Z' }], now))).toEqual({ status: 400, message: WarehouseMessages.badTimestamp(1) });
    expect(toCollectionEvents([{ timestamp: '2024-03-10T12:59:00Z' }], now)[0]!.timestamp).toEqual(new Date('2024-03-10T12:59:00Z'));
  });
});

describe('EventRateLimiter', () => {
  it('allows a burst, then refills at the rate, per key', () => {
    const limiter = new EventRateLimiter(10, 20);
    expect(limiter.take('a', 15, 0)).toBe(0);
    expect(limiter.waitMs('a', 0)).toBe(0);
    // 5 left: 10 more need 5 more events, half a second at 10/s; nothing is taken.
    expect(limiter.take('a', 10, 0)).toBe(500);
    expect(limiter.take('a', 5, 0)).toBe(0);
    expect(limiter.waitMs('a', 0)).toBe(100);
    expect(limiter.take('b', 20, 0)).toBe(0);
    expect(limiter.take('a', 10, 1000)).toBe(0);
    // Never more than the burst, however long it waited.
    expect(limiter.take('a', 20, 60_000)).toBe(0);
    expect(limiter.take('a', 1, 60_000)).toBe(100);
    // A batch larger than the burst passes on a full bucket and leaves a debt.
    expect(limiter.take('a', 25, 62_000)).toBe(0);
    expect(limiter.waitMs('a', 62_000)).toBe(600);
  });

  it('forgets full buckets when it holds too many keys', () => {
    const limiter = new EventRateLimiter(10, 20, 2);
    limiter.take('a', 20, 0);
    limiter.take('b', 1, 0);
    // At 10 s both are full again: sweeping drops them, and 'a' starts with a full burst.
    expect(limiter.take('c', 1, 10_000)).toBe(0);
    expect(limiter.take('a', 20, 10_000)).toBe(0);
  });
});
