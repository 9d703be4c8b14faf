import { createPartitionSql, dayBounds, dayKey, daysOf, partitionName } from '../src/sql/partitions';
import { insertEventsQuery } from '../src/sql/events';

describe('day partitions', () => {
  it('keys instants by their UTC day', () => {
    expect(dayKey(new Date('2024-03-01T23:59:59.999Z'))).toBe('20240301');
    expect(dayKey(new Date('2024-03-01T23:30:00-01:00'))).toBe('20240302');
    expect(() => dayKey(new Date('nope'))).toThrow('Invalid date');
  });

  it('lists the distinct days of a batch in order', () => {
    const at = (s: string) => new Date(s);
    expect(daysOf([at('2024-03-02T01:00:00Z'), at('2024-03-01T05:00:00Z'), at('2024-03-02T09:00:00Z')])).toEqual(['20240301', '20240302']);
  });

  it('bounds a day as [midnight, next midnight) in UTC, across months, leap days and years', () => {
    expect(dayBounds('20240228')).toEqual({ from: '2024-02-28T00:00:00.000Z', to: '2024-02-29T00:00:00.000Z' });
    expect(dayBounds('20240229')).toEqual({ from: '2024-02-29T00:00:00.000Z', to: '2024-03-01T00:00:00.000Z' });
    expect(dayBounds('20231231')).toEqual({ from: '2023-12-31T00:00:00.000Z', to: '2024-01-01T00:00:00.000Z' });
    expect(() => dayBounds('20230229')).toThrow('Invalid day key');
    expect(() => dayBounds("2024'; drop")).toThrow('Invalid day key');
  });

  it('builds the partition DDL', () => {
    expect(partitionName('20240301')).toBe('events_20240301');
    expect(createPartitionSql('20240301')).toBe(
      `create table if not exists "logs"."events_20240301" partition of "logs"."events" ` +
        `for values from ('2024-03-01T00:00:00.000Z') to ('2024-03-02T00:00:00.000Z')`,
    );
  });
});

describe('event queries', () => {
  it('inserts a batch with one statement and five array parameters', () => {
    const q = insertEventsQuery([
      { timestamp: new Date('2024-03-01T10:00:00Z'), source: 'edge', projectRef: 'abc', eventMessage: 'GET /', metadata: { status: 200 } },
      { timestamp: new Date('2024-03-02T10:00:00Z'), source: 'service', projectRef: null, eventMessage: `it's "x"`, metadata: {} },
    ]);
    expect(q.text).toMatch(/unnest\(\$1::timestamptz\[\], \$2::text\[\], \$3::text\[\], \$4::text\[\], \$5::jsonb\[\]\)/);
    expect(q.values).toEqual([
      ['2024-03-01T10:00:00.000Z', '2024-03-02T10:00:00.000Z'],
      ['edge', 'service'],
      ['abc', null],
      ['GET /', `it's "x"`],
      ['{"status":200}', '{}'],
    ]);
  });
});
