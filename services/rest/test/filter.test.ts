import { parseFilter, parseLogic, PostgrestError, type Condition, type Operation } from '../src';

const field = (name: string) => ({ name, jsonPath: [] });
const condition = (name: string, operation: Operation, negated = false): Condition => ({ kind: 'condition', field: field(name), negated, operation });

function parseErrorOf(parse: () => unknown): ReturnType<PostgrestError['toJSON']> & { status: number } {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof PostgrestError)) throw error;
    return { ...error.toJSON(), status: error.status };
  }
  throw new Error('parsed');
}

describe('parseFilter', () => {
  const comparisons = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'isdistinct', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
  test.each(comparisons)('%s takes the rest of the value verbatim', (op) => {
    expect(parseFilter('age', `${op}.1.5,"x")`)).toEqual({ embedPath: [], tree: condition('age', { kind: 'compare', op, value: '1.5,"x")' }) });
  });

  const cases: [string, string, Operation, boolean?][] = [
    ['a', 'not.eq.5', { kind: 'compare', op: 'eq', value: '5' }, true],
    ['a', 'eq.', { kind: 'compare', op: 'eq', value: '' }],
    ['a', 'eq(any).{1,2}', { kind: 'compare', op: 'eq', quantifier: 'any', value: '{1,2}' }],
    ['a', 'not.like(all).{a*,*b}', { kind: 'compare', op: 'like', quantifier: 'all', value: '{a*,*b}' }, true],
    ['a', 'in.(1,"b,c",d e,"q\\"uote")', { kind: 'in', values: ['1', 'b,c', 'd e', 'q"uote'] }],
    ['a', 'in.()', { kind: 'in', values: [] }],
    ['a', 'in.(,)', { kind: 'in', values: ['', ''] }],
    ['a', 'is.null', { kind: 'is', value: 'null' }],
    ['a', 'is.NOT_NULL', { kind: 'is', value: 'not_null' }],
    ['a', 'not.is.true', { kind: 'is', value: 'true' }, true],
    ['a', 'is.false', { kind: 'is', value: 'false' }],
    ['a', 'is.unknown', { kind: 'is', value: 'unknown' }],
    ['a', 'fts.cat & dog', { kind: 'fts', op: 'fts', value: 'cat & dog' }],
    ['a', 'plfts(english).fat cats', { kind: 'fts', op: 'plfts', language: 'english', value: 'fat cats' }],
    ['a', 'phfts(french).x', { kind: 'fts', op: 'phfts', language: 'french', value: 'x' }],
    ['a', 'not.wfts.a -b', { kind: 'fts', op: 'wfts', value: 'a -b' }, true],
  ];
  test.each(cases)('%s=%s', (key, value, operation, negated = false) => {
    expect(parseFilter(key, value).tree).toEqual(condition(key, operation, negated));
  });

  test('keys carry JSON paths and embedded resources', () => {
    expect(parseFilter('data->a->>b', 'eq.1').tree.field).toEqual({ name: 'data', jsonPath: [{ arrow: '->', key: 'a' }, { arrow: '->>', key: 'b' }] });
    expect(parseFilter('films.actors.name', 'eq.x')).toMatchObject({ embedPath: ['films', 'actors'], tree: { field: field('name') } });
    expect(parseFilter('"information.cpe"', 'like.*MS*')).toMatchObject({ embedPath: [], tree: { field: field('information.cpe') } });
  });

  const errors: [string, string, string, string][] = [
    ['a', '5', '"failed to parse filter (5)" (line 1, column 1)', 'unexpected "5" expecting operator (eq, neq, gt, gte, lt, lte, like, ilike, match, imatch, isdistinct, cs, cd, ov, sl, sr, nxr, nxl, adj, in, is, fts, plfts, phfts, wfts)'],
    ['a', 'eq', '"failed to parse filter (eq)" (line 1, column 3)', 'unexpected end of input expecting "."'],
    ['a', 'in.1,2', '"failed to parse filter (in.1,2)" (line 1, column 4)', 'unexpected "1" expecting "(" opening the list'],
    ['a', 'in.(1,2)x', '"failed to parse filter (in.(1,2)x)" (line 1, column 9)', 'unexpected "x" expecting end of input'],
    ['a', 'in.("a)', '"failed to parse filter (in.("a))" (line 1, column 8)', 'unexpected end of input expecting "\\"" closing the quoted value'],
    ['a', 'is.maybe', '"failed to parse filter (is.maybe)" (line 1, column 9)', 'unexpected "maybe" expecting null, not_null, true, false or unknown'],
    ['a', 'eq(some).1', '"failed to parse filter (eq(some).1)" (line 1, column 4)', 'unexpected "s" expecting "any" or "all"'],
    ['a', 'in(any).(1)', '"failed to parse filter (in(any).(1))" (line 1, column 3)', 'unexpected "(" expecting "."'],
    ['a', 'fts().x', '"failed to parse filter (fts().x)" (line 1, column 5)', 'unexpected ")" expecting text search configuration ([a..z0..9_])'],
    ['a;b', 'eq.1', '"failed to parse tree path (a;b)" (line 1, column 2)', 'unexpected ";" expecting "." or "->" or end of input'],
    ['data->x.y', 'eq.1', '"failed to parse tree path (data->x.y)" (line 1, column 9)', 'unexpected "y" expecting end of input after a JSON path'],
  ];
  test.each(errors)('%s=%s is PGRST100', (key, value, message, details) => {
    expect(parseErrorOf(() => parseFilter(key, value))).toEqual({ code: 'PGRST100', status: 400, message, details, hint: null });
  });
});

describe('parseLogic', () => {
  test('nested trees, negation, JSON paths and quoted values', () => {
    expect(parseLogic('or', '(a.eq.1,and(b.gt.2,c.is.null),not.or(data->>x.like.*z*,d.in.("1,2",3)),e.not.eq."x,y)",f.cs.{1,2})')).toEqual({
      embedPath: [],
      tree: {
        kind: 'logic', op: 'or', negated: false, children: [
          condition('a', { kind: 'compare', op: 'eq', value: '1' }),
          { kind: 'logic', op: 'and', negated: false, children: [
            condition('b', { kind: 'compare', op: 'gt', value: '2' }),
            condition('c', { kind: 'is', value: 'null' }),
          ] },
          { kind: 'logic', op: 'or', negated: true, children: [
            { kind: 'condition', field: { name: 'data', jsonPath: [{ arrow: '->>', key: 'x' }] }, negated: false, operation: { kind: 'compare', op: 'like', value: '*z*' } },
            condition('d', { kind: 'in', values: ['1,2', '3'] }),
          ] },
          condition('e', { kind: 'compare', op: 'eq', value: 'x,y)' }, true),
          condition('f', { kind: 'compare', op: 'cs', value: '{1,2}' }),
        ],
      },
    });
  });

  test('keys: and, not.or, and on an embedded resource', () => {
    expect(parseLogic('and', '(a.eq.1)').tree).toMatchObject({ op: 'and', negated: false });
    expect(parseLogic('not.or', '(a.eq.1)').tree).toMatchObject({ op: 'or', negated: true });
    expect(parseLogic('actors.not.and', '(a.fts(english).x,b.eq(any).{1,2})')).toMatchObject({
      embedPath: ['actors'],
      tree: { op: 'and', negated: true, children: [
        { operation: { kind: 'fts', op: 'fts', language: 'english', value: 'x' } },
        { operation: { kind: 'compare', op: 'eq', quantifier: 'any', value: '{1,2}' } },
      ] },
    });
  });

  test('a column named like a logic operator is a column', () => {
    expect(parseLogic('or', '(and.eq.1)').tree.children).toEqual([condition('and', { kind: 'compare', op: 'eq', value: '1' })]);
  });

  const errors: [string, string, string, string][] = [
    ['or', 'a.eq.1', '"failed to parse logic tree (a.eq.1)" (line 1, column 1)', 'unexpected "a" expecting "(" opening the logic tree'],
    ['or', '(a.eq.1', '"failed to parse logic tree ((a.eq.1)" (line 1, column 8)', 'unexpected end of input expecting "," or ")"'],
    ['or', '(a.eq.1))', '"failed to parse logic tree ((a.eq.1)))" (line 1, column 9)', 'unexpected ")" expecting end of input'],
    ['or', '()', '"failed to parse logic tree (())" (line 1, column 2)', 'unexpected ")" expecting field name (* or [a..z0..9_$])'],
    ['or', '(a)', '"failed to parse logic tree ((a))" (line 1, column 3)', 'unexpected ")" expecting "." after the column'],
    ['or', '(a.zz.1)', '"failed to parse logic tree ((a.zz.1))" (line 1, column 4)', 'unexpected "z" expecting operator (eq, neq, gt, gte, lt, lte, like, ilike, match, imatch, isdistinct, cs, cd, ov, sl, sr, nxr, nxl, adj, in, is, fts, plfts, phfts, wfts)'],
    ['xor', '(a.eq.1)', '"failed to parse tree path (xor)" (line 1, column 1)', 'a logic parameter ends in "and" or "or"'],
  ];
  test.each(errors)('%s=%s is PGRST100', (key, value, message, details) => {
    expect(parseErrorOf(() => parseLogic(key, value))).toEqual({ code: 'PGRST100', status: 400, message, details, hint: null });
  });

  test('1,000 levels of nesting are refused at 100', () => {
    const deep = `(${'or('.repeat(1000)}a.eq.1${')'.repeat(1001)}`;
    expect(parseErrorOf(() => parseLogic('or', deep))).toMatchObject({ code: 'PGRST100', details: 'nesting deeper than 100 levels' });
    const ok = `(${'or('.repeat(98)}a.eq.1${')'.repeat(99)}`;
    expect(parseLogic('or', ok).tree.op).toBe('or');
  });
});
