import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { GRID_MIN_COLUMN_WIDTH, Messages, tableEditorRoutes } from '@dash/contracts';
import { CsvRecordCounter } from '../src/api/rows';
import { cellText, columnAccess, defaultColumnWidth, editText, JSON_NULL, parseCellInput, putCellValue, putWrittenRow, toPgArrayLiteral, toWriteValue, typeHint, withJsonNulls } from '../src/grid/cells';
import { typeLabel } from '../src/forms/column-types';
import { basisBody } from '../src/grid/conflicts';
import { clampPage } from '../src/grid/GridFooter';
import { foreignKeyHref } from '../src/grid/links';
import { mergeLayout, validPageSize } from '../src/grid/saved-view';
import { countriesColumns, countriesTable, noKeyTable, rowsReply } from './grid-fixtures';

const column = (name: string) => countriesColumns.find((c) => c.name === name)!;

describe('grid cells', () => {
  it('sizes columns by type, and wider for long headers', () => {
    expect(defaultColumnWidth({ ...column('id'), name: 'n', format: 'int4' })).toBe(120);
    expect(defaultColumnWidth({ ...column('active'), name: 'ok' })).toBe(120);
    expect(defaultColumnWidth({ ...column('founded'), name: 'at', format: 'date' })).toBe(150);
    expect(defaultColumnWidth({ ...column('continent'), name: 'c', format: 'kind' })).toBe(150);
    expect(defaultColumnWidth(column('name'))).toBe(250);
    const long = { ...column('id'), name: 'a_rather_long_column_name_here', format: 'int8' };
    expect(defaultColumnWidth(long)).toBe((30 + 4) * 9 + 48);
    expect(Math.min(...countriesColumns.map(defaultColumnWidth))).toBeGreaterThanOrEqual(GRID_MIN_COLUMN_WIDTH);
  });

  it('turns typed text into the value sent: empty is NULL, JSON must parse, arrays become literals', () => {
    expect(parseCellInput('', 'text')).toEqual({ ok: true, value: null });
    expect(parseCellInput(null, 'boolean')).toEqual({ ok: true, value: null });
    expect(parseCellInput('42', 'number')).toEqual({ ok: true, value: '42' });
    // JSON travels as its text, so a string keeps its quotes and null stays JSON null (not SQL NULL).
    expect(parseCellInput('{"a": [1, null]}', 'json')).toEqual({ ok: true, value: '{"a":[1,null]}' });
    expect(parseCellInput('"text"', 'json')).toEqual({ ok: true, value: '"text"' });
    expect(parseCellInput('null', 'json')).toEqual({ ok: true, value: 'null' });
    expect(parseCellInput(' 42 ', 'json')).toEqual({ ok: true, value: '42' });
    expect(parseCellInput('text', 'json')).toEqual({ ok: false, error: Messages.invalidJson });
    expect(parseCellInput('{a: 1}', 'json')).toEqual({ ok: false, error: Messages.invalidJson });
    expect(parseCellInput('["a", "b\\"c", null, ["d"]]', 'array')).toEqual({ ok: true, value: '{"a","b\\"c",NULL,{"d"}}' });
    expect(parseCellInput('{x,y}', 'array')).toEqual({ ok: true, value: '{x,y}' });
  });

  it('writes back values as the service returned them', () => {
    expect(toWriteValue(5, 'number')).toBe('5');
    expect(toWriteValue(false, 'boolean')).toBe('false');
    expect(toWriteValue({ a: 1 }, 'json')).toBe('{"a":1}');
    expect(toWriteValue('str', 'json')).toBe('"str"');
    expect(toWriteValue([1, 'a'], 'json')).toBe('[1,"a"]');
    expect(toWriteValue(['x', 'y z'], 'array')).toBe('{"x","y z"}');
    expect(toWriteValue(null, 'text')).toBeNull();
    expect(toPgArrayLiteral([])).toBe('{}');
  });

  it('shows and edits every JSON value as JSON, strings with their quotes, so it parses back to itself', () => {
    for (const value of ['str', 42, true, [1, 'a'], { a: { b: null } }]) {
      const text = editText(value, 'json');
      expect(JSON.parse(text)).toEqual(value);
      expect(parseCellInput(text, 'json')).toEqual({ ok: true, value: toWriteValue(value, 'json') });
      expect(cellText(value, 'json')).toBe(JSON.stringify(value));
    }
    expect(editText('str', 'json')).toBe('"str"');
    expect(editText('str', 'text')).toBe('str');
    // A cut value is text already (the first characters and '...'), never quoted again.
    expect(cellText('{"a": "xxx...', 'json', true)).toBe('{"a": "xxx...');
    expect(cellText(null, 'json')).toBe('');
  });

  it('shows, edits and writes a JSON null as null, apart from SQL NULL', () => {
    expect(cellText(JSON_NULL, 'json')).toBe('null');
    expect(editText(JSON_NULL, 'json')).toBe('null');
    expect(toWriteValue(JSON_NULL, 'json')).toBe('null');
    expect(parseCellInput(editText(JSON_NULL, 'json'), 'json')).toEqual({ ok: true, value: 'null' });
    // SQL NULL: an empty editor, written as null.
    expect(editText(null, 'json')).toBe('');
    expect(toWriteValue(null, 'json')).toBeNull();
    // Sent back (a row match, an expected value) it is plain null.
    expect(JSON.parse(JSON.stringify({ data: JSON_NULL }))).toEqual({ data: null });
    const values = { id: 1, data: null, other: null };
    expect(withJsonNulls(values, ['data'])).toEqual({ id: 1, data: JSON_NULL, other: null });
    expect(withJsonNulls(values, undefined)).toBe(values);
  });

  it('puts writes into the cached page with their JSON nulls marked', () => {
    const page = { rows: [{ id: 1, data: { a: 1 } }, { id: 2, data: null }], truncated: [{ row: 0, column: 'data' }], jsonNulls: [{ row: 1, column: 'data' }] };
    putCellValue(page, 0, 'data', 'null', 'json');
    expect(page.rows[0]).toEqual({ id: 1, data: null });
    expect(page.jsonNulls).toEqual([{ row: 1, column: 'data' }, { row: 0, column: 'data' }]);
    putCellValue(page, 1, 'data', null, 'json');
    putCellValue(page, 0, 'data', '{"b":[null]}', 'json');
    expect(page.rows).toEqual([{ id: 1, data: { b: [null] } }, { id: 2, data: null }]);
    expect(page.jsonNulls).toEqual([]);
    putWrittenRow(page, 1, { row: { id: 2, data: null }, jsonNulls: ['data'] });
    expect(page.jsonNulls).toEqual([{ row: 1, column: 'data' }]);
    putWrittenRow(page, 0, { row: { id: 1, data: 'x' } });
    expect(page.truncated).toEqual([]);
    expect(page.jsonNulls).toEqual([{ row: 1, column: 'data' }]);
  });

  it("names array types as users write them: text[] rather than Postgres's _text", () => {
    expect(typeLabel({ format: '_text' })).toBe('text[]');
    expect(typeLabel({ format: '_int4' })).toBe('int4[]');
    expect(typeLabel({ format: 'text' })).toBe('text');
    expect(defaultColumnWidth({ ...column('name'), name: 'a_rather_long_column_name_here', format: '_text', data_type: 'ARRAY' })).toBe((30 + 6) * 9 + 48);
  });

  it('keeps primary keys, generated, encrypted and key-less tables out of cell editing', () => {
    const options = { readOnlyRelation: false, canWrite: true, primaryKeys: ['id'] };
    expect(columnAccess(column('name'), options)).toEqual({ editable: true });
    expect(columnAccess(column('id'), options)).toEqual({ editable: false });
    expect(columnAccess({ ...column('name'), is_generated: true }, options)).toEqual({ editable: false });
    expect(columnAccess({ ...column('name'), is_updatable: false }, options)).toEqual({ editable: false });
    expect(columnAccess(column('secret'), options)).toEqual({ editable: false, reason: Messages.encryptedNotEditable });
    expect(columnAccess(column('name'), { ...options, primaryKeys: [] })).toEqual({ editable: false, reason: Messages.noPrimaryKeyForWrite });
    expect(columnAccess(column('name'), { ...options, canWrite: false })).toEqual({ editable: false });
    expect(columnAccess(column('name'), { ...options, readOnlyRelation: true })).toEqual({ editable: false });
  });

  it('hints the input form of timestamps with and without time zone, and nothing for other types', () => {
    expect(typeHint({ format: 'timestamptz' })).toBe('yyyy-mm-dd hh:mm:ss+zz');
    expect(typeHint({ format: 'timestamp' })).toBe('yyyy-mm-dd hh:mm:ss');
    expect(typeHint({ format: 'date' })).toBeUndefined();
    expect(typeHint({ format: 'text' })).toBeUndefined();
  });

  it('links a foreign key with the schema when it is not public', () => {
    expect(foreignKeyHref('default', 7, 'public', 'id', 3)).toBe('/project/default/editor/7?filter=id:eq:3');
    expect(foreignKeyHref('default', 7, 'auth', 'id', 'a:b c')).toBe('/project/default/editor/7?schema=auth&filter=id:eq:a:b%20c');
  });
});

describe('grid paging and saved view', () => {
  it('clamps a typed page number to 1..last page and ignores what is not a number', () => {
    expect(clampPage('2', 5)).toBe(2);
    expect(clampPage('99', 5)).toBe(5);
    expect(clampPage('0', 5)).toBe(1);
    expect(clampPage('-3', 5)).toBe(1);
    expect(clampPage('2.7', 5)).toBe(2);
    expect(clampPage('7', 0)).toBe(1);
    expect(clampPage('abc', 5)).toBeUndefined();
    expect(clampPage('  ', 5)).toBeUndefined();
  });

  it('accepts only the offered page sizes', () => {
    expect(validPageSize(500)).toBe(500);
    expect(validPageSize('1000')).toBe(1000);
    for (const bad of [250, '10', null, undefined, 'abc', 100.5]) expect(validPageSize(bad)).toBe(100);
  });

  it('merges a saved layout with the current columns', () => {
    const layout = mergeLayout(countriesColumns, [
      { name: 'name', width: 300 },
      { name: 'gone', width: 10 },
      { name: 'id', frozen: true },
      { name: 'name' },
      { name: 'data', width: -5, frozen: 'yes' as unknown as boolean },
    ]);
    expect(layout.slice(0, 3)).toEqual([{ name: 'name', width: 300 }, { name: 'id', frozen: true }, { name: 'data' }]);
    expect(layout.map((c) => c.name)).toEqual(['name', 'id', 'data', 'founded', 'active', 'continent', 'secret', 'capital_id']);
    expect(mergeLayout(countriesColumns, undefined).map((c) => c.name)).toEqual(countriesColumns.map((c) => c.name));
  });
});

describe('CSV export progress', () => {
  it('counts records across chunks, not line breaks inside quoted values', () => {
    const counter = new CsvRecordCounter();
    expect(counter.push('id,note\n1,"two\nlines"\n2,"say ""hi""')).toBe(2);
    expect(counter.push('"\n3,x\r\n4,')).toBe(4);
    expect(counter.finish()).toBe(5);
    expect(new CsvRecordCounter().finish()).toBe(0);
  });
});

describe('grid fixtures and requests against the contract', () => {
  const ajv = addFormats(new Ajv({ strict: false }));
  const valid = (schema: object, value: unknown) => {
    const validate = ajv.compile(schema);
    return validate(value) || validate.errors;
  };

  it('uses replies the row and table routes may give', () => {
    expect(valid(tableEditorRoutes.getTable.response, countriesTable)).toBe(true);
    expect(valid(tableEditorRoutes.getTable.response, noKeyTable)).toBe(true);
    expect(valid(tableEditorRoutes.selectRows.response, { ...rowsReply(1, 3), truncated: [{ row: 0, column: 'name' }] })).toBe(true);
  });

  it('sends bodies the row routes accept', () => {
    const filters = [{ column: 'name', operator: '~~*', value: '%a:b%' }];
    const role = { role: 'authenticated', userId: 'user-42' };
    expect(valid(tableEditorRoutes.selectRows.body!, { filters, sorts: [{ column: 'id', ascending: false }], page: 2, limit: 500, role })).toBe(true);
    expect(valid(tableEditorRoutes.selectRows.body!, { page: 1, limit: 250 })).not.toBe(true);
    expect(valid(tableEditorRoutes.countRows.body!, { filters, exact: true })).toBe(true);
    expect(valid(tableEditorRoutes.updateRow.body!, { match: { id: 1 }, values: { name: null, data: { iso: 'X' } }, role })).toBe(true);
    expect(valid(tableEditorRoutes.deleteRows.body!, { matches: [{ id: 1 }, { id: 3 }] })).toBe(true);
    expect(valid(tableEditorRoutes.loadFullValue.body!, { match: { id: 1 }, column: 'name' })).toBe(true);
    expect(valid(tableEditorRoutes.exportRows.body!, { filters, sorts: [] })).toBe(true);
  });
});

describe('the basis of an update', () => {
  it('names the cells holding the JSON value null, so the service tells them from SQL NULL', () => {
    const body = basisBody({ doc: JSON_NULL, note: null, n: 1 });
    expect(body.expectedJsonNulls).toEqual(['doc']);
    // On the wire both nulls are null; the list says which is which.
    expect(JSON.parse(JSON.stringify(body))).toEqual({ expected: { doc: null, note: null, n: 1 }, expectedJsonNulls: ['doc'] });
    const validate = addFormats(new Ajv({ strict: false })).compile(tableEditorRoutes.updateRow.body!);
    expect(validate({ match: { id: 1 }, values: { n: 2 }, ...JSON.parse(JSON.stringify(body)) })).toBe(true);
    expect(basisBody({ note: null })).toEqual({ expected: { note: null } });
    expect(basisBody(undefined)).toEqual({});
  });
});
