import { containsPattern, sourceEventQuery, sourceEventsQuery, statusRange } from '../src/sql/source-events';
import { dropPartitionSql, expiredPartitions, retentionFloor, retentionQuery, setRetentionQuery } from '../src/sql/retention';
import { jsonLogTime, parseJsonLogLine, postgresLogEvent } from '../src/postgres-log';

describe('source event queries', () => {
  const base = { ref: 'abc', source: 'edge' as const, from: new Date('2024-03-01T00:00:00Z'), limit: 50 };

  it('escapes search text so it matches literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(containsPattern("it's")).toBe("%it's%");
  });

  it('reads status classes and exact codes', () => {
    expect(statusRange('4xx')).toEqual([400, 500]);
    expect(statusRange('2xx')).toEqual([200, 300]);
    expect(statusRange('404')).toEqual([404, 405]);
  });

  it('binds every value and asks one row more than the page', () => {
    const q = sourceEventsQuery(base);
    expect(q.text).toMatch(/where project_ref = \$1::text\s+and source = \$2::text\s+and "timestamp" >= \$3::timestamptz/);
    expect(q.text).toMatch(/order by "timestamp" desc, id desc\nlimit \$4::int$/);
    expect(q.values).toEqual(['abc', 'edge', '2024-03-01T00:00:00.000Z', 51]);
  });

  it('adds the range end, search, status, method and cursor as parameters', () => {
    const q = sourceEventsQuery({
      ...base,
      to: new Date('2024-03-02T00:00:00Z'),
      search: "'; drop table x; --",
      status: '5xx',
      method: 'POST',
      before: { timestamp: new Date('2024-03-01T12:00:00Z'), id: '00000000-0000-0000-0000-000000000001' },
    });
    expect(q.text).not.toContain('drop table');
    expect(q.text).toContain(`event_message ilike $5::text escape '\\'`);
    expect(q.text).toContain(`("timestamp", id) < ($9::timestamptz, $10::uuid)`);
    expect(q.values).toEqual([
      'abc',
      'edge',
      '2024-03-01T00:00:00.000Z',
      '2024-03-02T00:00:00.000Z',
      "%'; drop table x; --%",
      500,
      600,
      'POST',
      '2024-03-01T12:00:00.000Z',
      '00000000-0000-0000-0000-000000000001',
      51,
    ]);
  });

  it('filters the level on the source’s own key, and ignores filters a source does not have', () => {
    const pg = sourceEventsQuery({ ...base, source: 'postgres', level: 'ERROR', status: '5xx', method: 'GET' });
    expect(pg.text).toContain('metadata ->> $4::text = $5::text');
    expect(pg.values.slice(3)).toEqual(['error_severity', 'ERROR', 51]);
    const edge = sourceEventsQuery({ ...base, level: 'ERROR' });
    expect(edge.values).toEqual(['abc', 'edge', '2024-03-01T00:00:00.000Z', 51]);
  });

  it('finds one event, in one partition when its time is known', () => {
    const q = sourceEventQuery({ ref: 'abc', source: 'auth', id: 'i', from: base.from, at: new Date('2024-03-01T10:00:00Z') });
    expect(q.text).toMatch(/id = \$3::uuid and "timestamp" >= \$4::timestamptz and "timestamp" = \$5::timestamptz$/);
    expect(q.values).toEqual(['abc', 'auth', 'i', '2024-03-01T00:00:00.000Z', '2024-03-01T10:00:00.000Z']);
    expect(sourceEventQuery({ ref: 'abc', source: 'auth', id: 'i', from: base.from }).values).toHaveLength(4);
  });
});

describe('retention', () => {
  it('reads a project’s setting or the default, and upserts it', () => {
    expect(retentionQuery('abc').values).toEqual(['abc', 7]);
    expect(setRetentionQuery('abc', 30)).toMatchObject({ values: ['abc', 30] });
    expect(retentionFloor(new Date('2024-03-10T12:00:00Z'), 7).toISOString()).toBe('2024-03-03T12:00:00.000Z');
  });

  it('expires only whole days older than the longest retention, and only day partitions', () => {
    const names = ['events_20240301', 'events_20240302', 'events_20240303', 'events_20240304', 'events_default', 'events_20230229', 'other'];
    // 7 days before 2024-03-10T12:00 is 2024-03-03T12:00: the 3rd is partly inside, so it stays.
    expect(expiredPartitions(names, new Date('2024-03-10T12:00:00Z'), 7)).toEqual(['events_20240301', 'events_20240302']);
    expect(expiredPartitions(names, new Date('2024-03-11T00:00:00Z'), 7)).toEqual(['events_20240301', 'events_20240302', 'events_20240303']);
    expect(expiredPartitions(names, new Date('2024-03-10T12:00:00Z'), 30)).toEqual([]);
    expect(dropPartitionSql('20240301')).toBe('drop table if exists "logs"."events_20240301"');
  });

  it('expires the day partitions of another table by its own prefix', () => {
    const names = ['collection_events_20240301', 'collection_events_20240309', 'events_20240301'];
    expect(expiredPartitions(names, new Date('2024-03-10T12:00:00Z'), 7, 'collection_events')).toEqual(['collection_events_20240301']);
    expect(dropPartitionSql('20240301', 'collection_events')).toBe('drop table if exists "logs"."collection_events_20240301"');
  });
});

describe('Postgres jsonlog lines', () => {
  const received = new Date('2024-05-01T00:00:00Z');

  it('reads jsonlog times in UTC or with a numeric zone', () => {
    expect(jsonLogTime('2024-03-01 12:00:00.123 UTC')?.toISOString()).toBe('2024-03-01T12:00:00.123Z');
    expect(jsonLogTime('2024-03-01 12:00:00 +02')?.toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(jsonLogTime('2024-03-01 12:00:00.5 -0130')?.toISOString()).toBe('2024-03-01T13:30:00.500Z');
    expect(jsonLogTime('2024-03-01 12:00:00 CEST')).toBeNull();
    expect(jsonLogTime(undefined)).toBeNull();
  });

  it('parses objects only', () => {
    expect(parseJsonLogLine('{"message":"x"}')).toEqual({ message: 'x' });
    expect(parseJsonLogLine('{"message":')).toBeNull();
    expect(parseJsonLogLine('[1]')).toBeNull();
    expect(parseJsonLogLine('null')).toBeNull();
  });

  it('maps an error with its statement, code, detail and hint', () => {
    const line = parseJsonLogLine(
      JSON.stringify({
        timestamp: '2024-03-01 12:00:00.123 UTC',
        user: 'dash_admin',
        dbname: 'dash_project_abc',
        error_severity: 'ERROR',
        state_code: '42P01',
        message: 'relation "nope" does not exist',
        statement: 'select * from nope',
        hint: 'Check the name',
        backend_type: 'client backend',
        pid: 1234,
      }),
    )!;
    expect(postgresLogEvent(line, 'abc', received)).toEqual({
      timestamp: new Date('2024-03-01T12:00:00.123Z'),
      source: 'postgres',
      projectRef: 'abc',
      eventMessage: 'relation "nope" does not exist',
      metadata: {
        error_severity: 'ERROR',
        sql_state_code: '42P01',
        user_name: 'dash_admin',
        database_name: 'dash_project_abc',
        backend_type: 'client backend',
        statement: 'select * from nope',
        detail: null,
        hint: 'Check the name',
        duration_ms: null,
      },
    });
  });

  it('takes a slow statement’s duration and text from its message', () => {
    const event = postgresLogEvent(
      { timestamp: 'later', dbname: 'd', error_severity: 'LOG', message: 'duration: 1204.518 ms  statement: select pg_sleep(1.2)' },
      'abc',
      received,
    );
    expect(event.metadata).toMatchObject({ duration_ms: 1204.518, statement: 'select pg_sleep(1.2)', error_severity: 'LOG' });
    expect(event.timestamp).toBe(received);
    const execute = postgresLogEvent({ message: 'duration: 3.5 ms  execute <unnamed>: select $1' }, 'abc', received);
    expect(execute.metadata).toMatchObject({ duration_ms: 3.5, statement: 'select $1' });
  });

  it('drops NUL characters Postgres text cannot hold', () => {
    const event = postgresLogEvent({ message: 'a\u0000b', statement: '\u0000' }, 'abc', received);
    expect(event.eventMessage).toBe('ab');
    expect(event.metadata.statement).toBeNull();
  });
});
