import { contentRange, parseOrder, parseRange, PostgrestError, type OrderTerm } from '../src';

const field = (name: string) => ({ name, jsonPath: [] });

describe('parseOrder', () => {
  const cases: [string, OrderTerm[]][] = [
    ['age', [{ field: field('age') }]],
    ['age.desc.nullslast,name', [{ field: field('age'), direction: 'desc', nulls: 'last' }, { field: field('name') }]],
    ['age.nullsfirst', [{ field: field('age'), nulls: 'first' }]],
    ['data->a->>b.asc', [{ field: { name: 'data', jsonPath: [{ arrow: '->', key: 'a' }, { arrow: '->>', key: 'b' }] }, direction: 'asc' }]],
    ['"a.b".desc', [{ field: field('a.b'), direction: 'desc' }]],
    ['clients(name).desc', [{ relation: 'clients', field: field('name'), direction: 'desc' }]],
  ];
  test.each(cases)('%s', (text, terms) => {
    expect(parseOrder(text)).toEqual(terms);
  });

  const errors: [string, number, string][] = [
    ['age.up', 4, 'unexpected "." expecting "asc", "desc", "nullsfirst" or "nullslast"'],
    ['age.desc.asc', 9, 'unexpected "asc" expecting "," or end of input'],
    ['age.nullslast.desc', 14, 'unexpected "desc" expecting "," or end of input'],
    ['age,', 5, 'unexpected end of input expecting field name (* or [a..z0..9_$])'],
    ['age desc;', 9, 'unexpected ";" expecting "," or end of input'],
  ];
  test.each(errors)('%s is PGRST100', (text, column, details) => {
    expect(() => parseOrder(text)).toThrow(PostgrestError);
    try {
      parseOrder(text);
    } catch (error) {
      expect((error as PostgrestError).toJSON()).toEqual({ code: 'PGRST100', message: `"failed to parse order (${text})" (line 1, column ${column})`, details, hint: null });
    }
  });
});

describe('parseRange and contentRange', () => {
  test.each([
    [{}, { offset: 0, limit: null }],
    [{ limit: '10' }, { offset: 0, limit: 10 }],
    [{ limit: '10', offset: '20' }, { offset: 20, limit: 10 }],
    [{ limit: '0' }, { offset: 0, limit: 0 }],
    [{ header: '0-9' }, { offset: 0, limit: 10 }],
    [{ header: '5-' }, { offset: 5, limit: null }],
    [{ header: '0-9', limit: '5', offset: '3' }, { offset: 3, limit: 5 }],
    [{ header: '0-9', offset: '20' }, { offset: 20, limit: 0 }],
    [{ maxRows: 100 }, { offset: 0, limit: 100 }],
    [{ maxRows: 100, limit: '1000', offset: '5' }, { offset: 5, limit: 100 }],
    // PostgREST ignores what it cannot read as an integer, and a Range header it cannot read.
    [{ limit: 'ten', offset: '1.5', header: 'items=0-9' }, { offset: 0, limit: null }],
    [{ limit: '99999999999999999999999' }, { offset: 0, limit: Number.MAX_SAFE_INTEGER }],
  ])('%j', (input, range) => {
    expect(parseRange(input)).toEqual(range);
  });

  test.each([
    [{ limit: '-1' }, 416, 'PGRST103', 'Requested range not satisfiable', 'Limit should be greater than or equal to zero.'],
    [{ header: '9-0' }, 416, 'PGRST103', 'Requested range not satisfiable', 'The lower boundary must be lower than or equal to the upper boundary in the Range header.'],
    [{ offset: '-3' }, 400, '2201X', 'OFFSET must not be negative', null],
  ])('%j is refused', (input, status, code, message, details) => {
    let thrown: unknown;
    try {
      parseRange(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PostgrestError);
    expect({ status: (thrown as PostgrestError).status, ...(thrown as PostgrestError).toJSON() }).toEqual({ status, code, message, details, hint: null });
  });

  test('Content-Range', () => {
    expect(contentRange(0, 10, null)).toBe('0-9/*');
    expect(contentRange(0, 10, 100)).toBe('0-9/100');
    expect(contentRange(20, 5, 25)).toBe('20-24/25');
    expect(contentRange(0, 0, 0)).toBe('*/0');
    expect(contentRange(0, 0, null)).toBe('*/*');
    expect(contentRange(40, 0, 25)).toBe('*/25');
  });
});
