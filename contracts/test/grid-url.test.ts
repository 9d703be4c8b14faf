import fc from 'fast-check';
import {
  FILTER_OPERATORS,
  formatFilterParam,
  formatSortParam,
  gridViewStorageKey,
  gridViewTableKey,
  parseFilterParam,
  parseGridSearch,
  parseQuery,
  parseSortParam,
  withGridSearch,
  type GridUrlState,
  type RowFilter,
  type RowSort,
} from '../src';

const operator = fc.constantFrom(...FILTER_OPERATORS.map((o) => o.abbrev));
/** Any text, astral characters included (whole code points, as browsers keep them). */
const text = fc.string({ unit: 'binary', maxLength: 40 });
const columnWithoutColon = fc.string({ unit: 'binary', minLength: 1, maxLength: 63 }).filter((s) => !s.includes(':'));
const filter: fc.Arbitrary<RowFilter> = fc.record({ column: columnWithoutColon, operator, value: text });
const sort: fc.Arbitrary<RowSort> = fc.record({ column: fc.string({ unit: 'binary', minLength: 1, maxLength: 63 }), ascending: fc.boolean() });
const state: fc.Arbitrary<GridUrlState> = fc.record({
  filters: fc.array(filter, { maxLength: 4 }),
  sorts: fc.array(sort, { maxLength: 3 }),
  view: fc.constantFrom('data' as const, 'definition' as const),
});

describe('grid URL: filter', () => {
  it('writes column:abbrev:value', () => {
    expect(formatFilterParam({ column: 'name', operator: 'eq', value: 'Ada' })).toBe('name:eq:Ada');
    expect(formatFilterParam({ column: 'name', operator: '~~*', value: '%ada%' })).toBe('name:~~*:%ada%');
  });

  it('keeps colons of the value and splits the column at the first operator', () => {
    expect(parseFilterParam('starts_at:gte:2024-01-01 10:00:00+00')).toEqual({ column: 'starts_at', operator: 'gte', value: '2024-01-01 10:00:00+00' });
    expect(parseFilterParam('url:eq:https://example.com/a:b')).toEqual({ column: 'url', operator: 'eq', value: 'https://example.com/a:b' });
    expect(parseFilterParam('a:b:neq:c')).toEqual({ column: 'a:b', operator: 'neq', value: 'c' });
    expect(parseFilterParam('id:in:1,2,3')).toEqual({ column: 'id', operator: 'in', value: '1,2,3' });
    expect(parseFilterParam('deleted_at:is:not null')).toEqual({ column: 'deleted_at', operator: 'is', value: 'not null' });
    expect(parseFilterParam('name:eq:')).toEqual({ column: 'name', operator: 'eq', value: '' });
    expect(parseGridSearch(withGridSearch('', { filters: [{ column: 'städte', operator: 'eq', value: '東京 🍣:x' }] })).filters).toEqual([
      { column: 'städte', operator: 'eq', value: '東京 🍣:x' },
    ]);
  });

  it('refuses what is not a filter', () => {
    for (const bad of ['', 'name', 'name:eq', ':eq:x', 'name:equals:x', 'name:=:x']) expect(parseFilterParam(bad)).toBeUndefined();
  });

  it('round-trips any value, unicode and colons included', () => {
    fc.assert(fc.property(filter, (f) => expect(parseFilterParam(formatFilterParam(f))).toEqual(f)));
  });
});

describe('grid URL: sort', () => {
  it('writes and reads column:asc|desc', () => {
    expect(formatSortParam({ column: 'id', ascending: false })).toBe('id:desc');
    expect(parseSortParam('created_at:asc')).toEqual({ column: 'created_at', ascending: true });
    expect(parseSortParam('a:b:desc')).toEqual({ column: 'a:b', ascending: false });
    for (const bad of ['', 'id', 'id:up', ':asc', 'id:ASC']) expect(parseSortParam(bad)).toBeUndefined();
  });

  it('round-trips any column', () => {
    fc.assert(fc.property(sort, (s) => expect(parseSortParam(formatSortParam(s))).toEqual(s)));
  });
});

describe('grid URL: query string', () => {
  it('reads repeated filters and sorts, the definition view, and skips malformed ones', () => {
    const parsed = parseGridSearch('?schema=sales&filter=name:eq:Ada%20L&filter=bogus&filter=age:gt:30&sort=id:desc&sort=x:sideways&view=definition');
    expect(parsed).toEqual({
      filters: [
        { column: 'name', operator: 'eq', value: 'Ada L' },
        { column: 'age', operator: 'gt', value: '30' },
      ],
      sorts: [{ column: 'id', ascending: false }],
      view: 'definition',
    });
    expect(parseGridSearch('').view).toBe('data');
    expect(parseGridSearch('?view=data&view=other').view).toBe('data');
  });

  it('decodes + as a space and keeps malformed escapes as typed', () => {
    expect(parseQuery('?filter=name:eq:a+b&x=%E0%A4%A')).toEqual([
      ['filter', 'name:eq:a b'],
      ['x', '%E0%A4%A'],
    ]);
  });

  it('replaces only the grid parameters, keeps the others, and leaves the data view absent', () => {
    const search = withGridSearch('?schema=sales&filter=a:eq:1&view=definition', {
      filters: [{ column: 'name', operator: 'eq', value: 'a:b c&d=e' }],
      view: 'data',
    });
    expect(search).toBe('?schema=sales&filter=name:eq:a:b%20c%26d%3De');
    expect(withGridSearch('?sort=id:asc', { sorts: [] })).toBe('');
    expect(withGridSearch('', { filters: [{ column: 'id', operator: 'in', value: '1,2' }], sorts: [{ column: 'id', ascending: true }] })).toBe(
      '?filter=id:in:1,2&sort=id:asc',
    );
  });

  it('round-trips the whole state through a query string, with unrelated parameters untouched', () => {
    fc.assert(
      fc.property(state, text, (s, schema) => {
        const search = withGridSearch(`?schema=${encodeURIComponent(schema)}`, s);
        expect(parseGridSearch(search)).toEqual(s);
        expect(parseQuery(search).find(([key]) => key === 'schema')?.[1]).toBe(schema);
      }),
    );
  });

  it('survives the browser: URLSearchParams reads what withGridSearch writes', () => {
    fc.assert(
      fc.property(state, (s) => {
        const params = new URLSearchParams(withGridSearch('', s));
        expect(params.getAll('filter')).toEqual(s.filters.map(formatFilterParam));
        expect(params.getAll('sort')).toEqual(s.sorts.map(formatSortParam));
        expect(params.get('view')).toBe(s.view === 'definition' ? 'definition' : null);
      }),
    );
  });
});

describe('saved grid view key', () => {
  it('is a grid prefix plus the project ref, and the table key drops the public schema', () => {
    expect(gridViewStorageKey('default')).toMatch(/grid.*default$/);
    expect(gridViewStorageKey('abc')).not.toBe(gridViewStorageKey('abd'));
    expect(gridViewTableKey('public', 'countries')).toBe('countries');
    expect(gridViewTableKey('sales', 'orders')).toBe('sales.orders');
  });
});
