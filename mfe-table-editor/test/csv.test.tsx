import fc from 'fast-check';
import { csvImportUrl } from '../src/api/csv-import';
import { inferColumnType, inferColumnTypes } from '../src/csv/infer';
import { autoMatchColumns, newColumnName, tableNameFromFile } from '../src/csv/mapping';
import { detectDelimiter, parseCsv, PREVIEW_BYTES, PREVIEW_ROWS, readPreview } from '../src/csv/parse';

describe('parseCsv', () => {
  it('splits rows and fields', () => {
    expect(parseCsv('a,b,c\n1,2,3\n', ',')).toEqual({ rows: [['a', 'b', 'c'], ['1', '2', '3']], partial: false });
    expect(parseCsv('a,b\n1,2', ',').rows).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('reads quoted fields with delimiters, doubled quotes and newlines inside', () => {
    const text = 'id,text\n1,"Hello, world"\n2,"She said ""hi"""\n3,"two\nlines"\n4,"crlf\r\ninside"\n';
    expect(parseCsv(text, ',').rows).toEqual([
      ['id', 'text'],
      ['1', 'Hello, world'],
      ['2', 'She said "hi"'],
      ['3', 'two\nlines'],
      ['4', 'crlf\r\ninside'],
    ]);
  });

  it('keeps empty fields, quoted empty strings and quotes inside unquoted fields', () => {
    expect(parseCsv('a,,c\n,"",\n5 "inch",x\n', ',').rows).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['5 "inch"', 'x'],
    ]);
  });

  it('understands CRLF, CR and LF line ends (one kind per file, as COPY reads them) and skips blank lines', () => {
    const rows = [
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ];
    for (const end of ['\r\n', '\r', '\n']) expect(parseCsv(`a,b${end}1,2${end}${end}3,4${end}`, ',').rows).toEqual(rows);
  });

  it('uses the given delimiter', () => {
    expect(parseCsv('a;b\n"x;y";2\n', ';').rows).toEqual([
      ['a', 'b'],
      ['x;y', '2'],
    ]);
    expect(parseCsv('a\tb\n1,5\t2\n', '\t').rows).toEqual([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
  });

  it('stops at maxRows and says more rows follow', () => {
    expect(parseCsv('1\n2\n3\n4\n', ',', { maxRows: 2 })).toEqual({ rows: [['1'], ['2']], partial: true });
    expect(parseCsv('1\n2\n', ',', { maxRows: 2 })).toEqual({ rows: [['1'], ['2']], partial: false });
  });

  it('leaves out the cut last row of the start of a file', () => {
    expect(parseCsv('a,b\n1,2\n3,"unfinished', ',', { complete: false })).toEqual({ rows: [['a', 'b'], ['1', '2']], partial: true });
    expect(parseCsv('a,b\n1,"multi\nline', ',', { complete: false }).rows).toEqual([['a', 'b']]);
    expect(parseCsv('a,b\n1,2\n', ',', { complete: false }).rows).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('a,b\n1,"cut inside quotes\n', ',', { complete: false }).rows).toEqual([['a', 'b']]);
  });

  it('reads back any table written as CSV', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', ';', '"', '\n', '\r', 'é', '1') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }), (table) => {
        const width = table[0].length;
        const rows = table.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
        const text = rows.map((r) => r.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\r\n');
        expect(parseCsv(text, ',').rows).toEqual(rows);
      }),
    );
  });
});

describe('detectDelimiter', () => {
  it('picks the delimiter that splits the lines consistently', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a;b;c\n1,5;2,5;3\n')).toBe(';');
    expect(detectDelimiter('name\tnote\nx\ta, b, c\n')).toBe('\t');
    expect(detectDelimiter('"a;b",c\n"x;y",z\n')).toBe(',');
    expect(detectDelimiter('single column\nvalue\n')).toBe(',');
    expect(detectDelimiter('a;b')).toBe(';');
  });
});

describe('readPreview', () => {
  it('reads only the first megabyte of a big file, and at most the preview rows', async () => {
    const line = 'id,name\n' + Array.from({ length: 100_000 }, (_, i) => `${i},name ${i}`).join('\n') + '\n';
    const file = new File([line], 'big.csv', { type: 'text/csv' });
    expect(file.size).toBeGreaterThan(PREVIEW_BYTES);
    const slice = jest.spyOn(file, 'slice');
    const preview = await readPreview(file);
    expect(slice).toHaveBeenCalledWith(0, PREVIEW_BYTES);
    expect(preview.delimiter).toBe(',');
    expect(preview.rows).toHaveLength(PREVIEW_ROWS + 1);
    expect(preview.rows[0]).toEqual(['id', 'name']);
    expect(preview.rows[PREVIEW_ROWS]).toEqual([String(PREVIEW_ROWS - 1), `name ${PREVIEW_ROWS - 1}`]);
    expect(preview.partial).toBe(true);
  });

  it('reads a small file whole, without its byte order mark, with the detected delimiter', async () => {
    const file = new File(['\uFEFFa;b\n1;2'], 'small.csv');
    expect(await readPreview(file)).toEqual({ delimiter: ';', rows: [['a', 'b'], ['1', '2']], partial: false });
    expect(await readPreview(file, ',')).toEqual({ delimiter: ',', rows: [['a;b'], ['1;2']], partial: false });
  });
});

describe('inferColumnType', () => {
  it.each([
    [['1', '-2', '+3', '9223372036854775807'], 'int8'],
    [['1', '2.5', '-3e4', '.5'], 'float8'],
    [['9223372036854775808'], 'text'],
    [['007', '12'], 'text'],
    [['true', 'FALSE', 't', 'f'], 'bool'],
    [['2024-01-31', '1999-12-01'], 'date'],
    [['2024-02-30'], 'text'],
    [['2024-01-31T10:00:00Z', '2024-01-31 10:00:00.123+02:00', '2024-01-31 10:00'], 'timestamptz'],
    [['2024-01-31', '2024-01-31T10:00:00Z'], 'timestamptz'],
    [['2024-01-31T25:00:00Z'], 'text'],
    [['{"a":1}', '[1,2]'], 'jsonb'],
    [['{not json}'], 'text'],
    [['1', 'abc'], 'text'],
    [['', '', ''], 'text'],
    [['', '42', ''], 'int8'],
    [[], 'text'],
  ])('%j is %s', (values, expected) => {
    expect(inferColumnType(values)).toBe(expected);
  });

  it('infers one type per column', () => {
    expect(inferColumnTypes([['1', 'x', 'true'], ['2', 'y']], 3)).toEqual(['int8', 'text', 'bool']);
  });
});

describe('column matching', () => {
  it('matches CSV columns to table columns by name, exactly then loosely, each once', () => {
    expect(autoMatchColumns(['id', 'Full Name', 'extra', 'EMAIL', 'email'], ['id', 'full_name', 'email'], true)).toEqual(['id', 'full_name', null, null, 'email']);
    expect(autoMatchColumns(['First-Name'], ['first_name'], true)).toEqual(['first_name']);
  });

  it('matches by position without a header row', () => {
    expect(autoMatchColumns(['column_1', 'column_2', 'column_3'], ['id', 'name'], false)).toEqual(['id', 'name', null]);
  });

  it('names new columns and tables from the file', () => {
    expect(newColumnName('  price ', 0)).toBe('price');
    expect(newColumnName('', 2)).toBe('column_3');
    expect(newColumnName(undefined, 0)).toBe('column_1');
    expect(newColumnName('x'.repeat(70), 0)).toHaveLength(63);
    expect(tableNameFromFile('Sales 2024 (Q1).csv')).toBe('sales_2024_q1');
    expect(tableNameFromFile('data.tsv')).toBe('data');
  });
});

describe('csvImportUrl', () => {
  it('sends the column mapping of an existing table as JSON', () => {
    const url = new URL(csvImportUrl('default', { tableId: 16392, columns: ['id', null, 'name'] }, true, ';'));
    expect(url.pathname).toBe('/api/pg-meta/default/tables/16392/rows/import');
    expect(JSON.parse(url.searchParams.get('columns')!)).toEqual(['id', null, 'name']);
    expect(url.searchParams.get('header')).toBe('true');
    expect(url.searchParams.get('delimiter')).toBe(';');
  });

  it('sends a new table as JSON', () => {
    const table = { schema: 'public', name: 'sales', columns: [{ name: 'id', type: 'int8' }] };
    const url = new URL(csvImportUrl('default', { table }, false, '\t'));
    expect(url.pathname).toBe('/api/pg-meta/default/tables/import');
    expect(JSON.parse(url.searchParams.get('table')!)).toEqual(table);
    expect(url.searchParams.get('header')).toBe('false');
    expect(url.searchParams.get('delimiter')).toBe('\t');
  });
});
