import { editorTypes, toJsonValue } from '../src/db/values';

describe('toJsonValue', () => {
  it('turns driver values into JSON data', () => {
    expect(toJsonValue(new Date('2024-05-06T07:08:09.123Z'))).toBe('2024-05-06T07:08:09.123Z');
    expect(toJsonValue(Buffer.from([0xde, 0xad, 0xbe, 0xef]))).toBe('\\xdeadbeef');
    expect(toJsonValue(12345678901234567890n)).toBe('12345678901234567890');
    expect(toJsonValue(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(toJsonValue(Number.NaN)).toBe('NaN');
    expect(toJsonValue(undefined)).toBeNull();
    expect(toJsonValue(new Date('invalid'))).toBeNull();
    expect(toJsonValue([new Date(0), Buffer.from('a'), null])).toEqual(['1970-01-01T00:00:00.000Z', '\\x61', null]);
    expect(toJsonValue({ a: { b: [1, 'x', true] } })).toEqual({ a: { b: [1, 'x', true] } });
  });
});

describe('editor type parsers', () => {
  const parse = (oid: number, text: string) => (editorTypes.getTypeParser as (o: number, f?: string) => (v: string) => unknown)(oid, 'text')(text);

  it('keeps int8 digits, dates and intervals as Postgres prints them', () => {
    expect(parse(20, '9223372036854775807')).toBe('9223372036854775807');
    expect(parse(1082, '2024-02-03')).toBe('2024-02-03');
    expect(parse(1114, '2024-02-03 04:05:06')).toBe('2024-02-03 04:05:06');
    expect(parse(1186, '01:00:00')).toBe('01:00:00');
    expect(parse(1182, '{2024-01-01,2024-01-02}')).toEqual(['2024-01-01', '2024-01-02']);
  });

  it('parses other types as pg does', () => {
    expect(parse(23, '42')).toBe(42);
    expect(parse(3802, '{"a":1}')).toEqual({ a: 1 });
    expect(parse(1184, '2024-01-01 00:00:00+00')).toEqual(new Date('2024-01-01T00:00:00Z'));
  });
});
