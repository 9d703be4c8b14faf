import { cellEncoder, JsonRows, objectJson, rowJson } from '../src/db/result-json';

/** What the browser reads back from a cell of type `oid` that Postgres printed as `text`. */
const cell = (oid: number, text: string) => JSON.parse(cellEncoder(oid)(text)) as unknown;

describe('cellEncoder', () => {
  it('writes numbers JSON can hold as numbers, the rest as Postgres printed them', () => {
    expect(cell(23, '-42')).toBe(-42);
    expect(cell(21, '7')).toBe(7);
    expect(cell(701, '1e+100')).toBe(1e100);
    expect(cell(701, '-0.5')).toBe(-0.5);
    expect(cell(701, 'NaN')).toBe('NaN');
    expect(cell(700, '-Infinity')).toBe('-Infinity');
    expect(cell(20, '9223372036854775807')).toBe('9223372036854775807');
    expect(cell(1700, '1.50')).toBe('1.50');
  });

  it('keeps times, bytes and text as text, JSON documents as they are', () => {
    expect(cell(1184, '2024-02-03 04:05:06.123456+01')).toBe('2024-02-03 04:05:06.123456+01');
    expect(cell(17, '\\xdead')).toBe('\\xdead');
    expect(cell(25, 'a "quoted"\nline\u2028')).toBe('a "quoted"\nline\u2028');
    expect(cellEncoder(3802)('{"a": [1, null]}')).toBe('{"a": [1, null]}');
    expect(cell(16, 't')).toBe(true);
    expect(cell(16, 'f')).toBe(false);
  });

  it('parses arrays and other types as pg does, timestamptz arrays staying text', () => {
    expect(cell(1007, '{1,NULL,3}')).toEqual([1, null, 3]);
    expect(cell(1185, '{"2024-01-01 00:00:00+00"}')).toEqual(['2024-01-01 00:00:00+00']);
    expect(cell(1001, '{"\\\\x01"}')).toEqual(['\\x01']);
    expect(cell(600, '(1,2)')).toEqual({ x: 1, y: 2 });
    // A type pg does not know (an enum, a domain) is its text.
    expect(cell(987654, 'happy')).toBe('happy');
  });

});

describe('rows', () => {
  const encoders = [cellEncoder(23), cellEncoder(25)];

  it('as arrays in column order and as objects with the keys given', () => {
    expect(rowJson(encoders, ['1', 'a'])).toBe('[1,"a"]');
    expect(rowJson(encoders, [null, null])).toBe('[null,null]');
    expect(rowJson([], [])).toBe('[]');
    const keys = ['"__proto__"', '"a"'];
    expect(JSON.parse(objectJson(keys, encoders, ['1', null]))).toEqual(JSON.parse('{"__proto__": 1, "a": null}'));
    expect(objectJson([], [], [])).toBe('{}');
  });
});

describe('JsonRows', () => {
  const text = (rows: JsonRows) => `[${Buffer.concat(rows.bytes()).toString('utf8')}]`;

  it('writes rows comma-separated across buffers, multi-byte text and rows larger than a buffer included', () => {
    const rows = new JsonRows();
    const expected: unknown[] = [];
    const wide = ['é€😀'.repeat(200_000)];
    for (let i = 0; i < 30_000; i++) {
      const row = i === 12_345 ? wide : [i, `row ${i} ✓`];
      expected.push(row);
      rows.add(JSON.stringify(row));
    }
    expect(rows.count).toBe(30_000);
    expect(rows.bytes().length).toBeGreaterThan(2);
    expect(JSON.parse(text(rows))).toEqual(expected);
  });

  it('is empty before any row', () => {
    expect(text(new JsonRows())).toBe('[]');
  });
});
