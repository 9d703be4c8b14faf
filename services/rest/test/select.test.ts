import { parseSelect, PostgrestError, type SelectNode } from '../src';

const col = (name: string, extra: object = {}): SelectNode => ({ kind: 'column', field: { name, jsonPath: [] }, ...extra });

describe('parseSelect', () => {
  const cases: [string, SelectNode[]][] = [
    ['', []],
    ['*', [{ kind: 'star' }]],
    ['id,name', [col('id'), col('name')]],
    [' id , full name ', [col('id'), col('full name')]],
    ['nic-hdl', [col('nic-hdl')]],
    ['"a.b,c:d"', [col('a.b,c:d')]],
    ['label:name', [col('name', { alias: 'label' })]],
    ['id::text', [col('id', { cast: 'text' })]],
    ['n:id::int4', [col('id', { alias: 'n', cast: 'int4' })]],
    ['données', [col('données')]],
    [
      'data->a->>b',
      [{ kind: 'column', field: { name: 'data', jsonPath: [{ arrow: '->', key: 'a' }, { arrow: '->>', key: 'b' }] } }],
    ],
    [
      'x:data->0->>-1::int',
      [{ kind: 'column', field: { name: 'data', jsonPath: [{ arrow: '->', key: 0 }, { arrow: '->>', key: -1 }] }, alias: 'x', cast: 'int' }],
    ],
    ['data->"a,b"', [{ kind: 'column', field: { name: 'data', jsonPath: [{ arrow: '->', key: 'a,b' }] } }]],
    ['data->1a', [{ kind: 'column', field: { name: 'data', jsonPath: [{ arrow: '->', key: '1a' }] } }]],
    ['count()', [{ kind: 'aggregate', fn: 'count' }]],
    ['total:count()::text', [{ kind: 'aggregate', fn: 'count', alias: 'total', cast: 'text' }]],
    ['amount.sum()', [{ kind: 'aggregate', fn: 'sum', field: { name: 'amount', jsonPath: [] } }]],
    [
      'avg:data->>x::numeric.avg()::int',
      [{ kind: 'aggregate', fn: 'avg', field: { name: 'data', jsonPath: [{ arrow: '->>', key: 'x' }] }, fieldCast: 'numeric', alias: 'avg', cast: 'int' }],
    ],
    ['a.min(),a.max(),a.count()', (['min', 'max', 'count'] as const).map((fn) => ({ kind: 'aggregate', fn, field: { name: 'a', jsonPath: [] } }))],
    ['actors(*)', [{ kind: 'embed', relation: 'actors', spread: false, select: [{ kind: 'star' }] }]],
    ['cast:actors()', [{ kind: 'embed', relation: 'actors', alias: 'cast', spread: false, select: [] }]],
    [
      'title,director:directors!films_director_id_fkey!inner(id,last_name)',
      [
        col('title'),
        { kind: 'embed', relation: 'directors', alias: 'director', hint: 'films_director_id_fkey', join: 'inner', spread: false, select: [col('id'), col('last_name')] },
      ],
    ],
    ['a!left!fk(x)', [{ kind: 'embed', relation: 'a', hint: 'fk', join: 'left', spread: false, select: [col('x')] }]],
    [
      '...directors!fk(name,films(count()))',
      [{
        kind: 'embed', relation: 'directors', hint: 'fk', spread: true,
        select: [col('name'), { kind: 'embed', relation: 'films', spread: false, select: [{ kind: 'aggregate', fn: 'count' }] }],
      }],
    ],
  ];
  test.each(cases)('%j', (text, tree) => {
    expect(parseSelect(text)).toEqual(tree);
  });

  const errors: [string, number, string][] = [
    ['id,', 4, 'unexpected end of input expecting field name (* or [a..z0..9_$])'],
    ['id,,name', 4, 'unexpected "," expecting field name (* or [a..z0..9_$])'],
    ['name!', 6, 'unexpected end of input expecting embedding hint or join type (inner, left)'],
    ['rel!inner!inner(a)', 11, 'unexpected "inner" after the embedding\'s hint and join type'],
    ['rel!fk(a', 9, 'unexpected end of input expecting "," or ")"'],
    ['...alias:rel(a)', 9, 'unexpected ":" expecting "(" opening the embedded resource\'s fields'],
    ['id::', 5, 'unexpected end of input expecting type name ([a..z0..9_])'],
    ['id::text;drop', 9, 'unexpected ";" expecting "," or end of input'],
    ['a.foo()', 2, 'unexpected "." expecting "," or end of input'],
    ['"unterminated', 14, 'unexpected end of input expecting "\\"" closing the quoted value'],
    ['data->99999999999', 7, 'JSON array index out of range'],
    [`${'a('.repeat(101)}x${')'.repeat(101)}`, 203, 'nesting deeper than 100 levels'],
  ];
  test.each(errors)('%j is PGRST100 at column %d', (text, column, details) => {
    let thrown: unknown;
    try {
      parseSelect(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PostgrestError);
    expect((thrown as PostgrestError).toJSON()).toEqual({
      code: 'PGRST100',
      message: `"failed to parse select parameter (${text})" (line 1, column ${column})`,
      details,
      hint: null,
    });
    expect((thrown as PostgrestError).status).toBe(400);
  });
});
