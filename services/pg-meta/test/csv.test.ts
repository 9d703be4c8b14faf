import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { CSV_EXPORT_ROW_LIMIT, CSV_IMPORT_MAX_BYTES, Messages, type CsvImported, type TableCreate } from '@dash/contracts';
import { CsvBodyLimit, CsvColumnFilter, delimiterByte } from '../src/db/csv';
import { attachment, jsonParam } from '../src/routes/csv';
import { CsvImportColumns } from '@dash/contracts';
import { as, setupProject, type Project } from './helpers';

/** Runs bytes through a transform in the given chunks and collects the output. */
async function through(transform: NodeJS.ReadWriteStream, chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  Readable.from(chunks).pipe(transform as unknown as NodeJS.WritableStream);
  for await (const chunk of transform as unknown as AsyncIterable<Buffer>) out.push(chunk);
  return Buffer.concat(out).toString('utf8');
}
const bytes = (text: string) => [Buffer.from(text)];

describe('CsvColumnFilter', () => {
  it('drops skipped fields and keeps quoted fields exactly, with quotes, doubled quotes and newlines', async () => {
    const csv = 'a,b,c\r\n1,"x, ""y""\nz",3\n"",,"last\r\nline"';
    expect(await through(new CsvColumnFilter([true, false, true]), bytes(csv))).toBe('a,c\n1,3\n"","last\r\nline"\n');
    expect(await through(new CsvColumnFilter([false, true, false]), bytes(csv))).toBe('b\n"x, ""y""\nz"\n\n');
  });

  it('uses the delimiter it is given and accepts lone \\r line ends', async () => {
    expect(await through(new CsvColumnFilter([false, true], 0x3b), bytes('a;b\r1;"2;3"\r'))).toBe('b\n"2;3"\n');
  });

  it('refuses a record with the wrong number of fields, naming its line', async () => {
    await expect(through(new CsvColumnFilter([true, false]), bytes('a,b\n"multi\nline",2\n1,2,3\n'))).rejects.toThrow(
      'CSV line 3 does not have 2 fields, one for each column of the import',
    );
    await expect(through(new CsvColumnFilter([true, false, true]), bytes('a,b,c\n1,2'))).rejects.toThrow('CSV line 2');
  });

  it('gives the same bytes however the input is cut into chunks (property)', () => {
    const field = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '☃') }),
      fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', 'ü') }).map((s) => `"${s.replace(/"/g, '""')}"`),
    );
    const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
      fc.record({
        keep: fc.array(fc.boolean(), { minLength: width, maxLength: width }),
        rows: fc.array(fc.array(field, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }),
        crlf: fc.boolean(),
        finalNewline: fc.boolean(),
        cuts: fc.array(fc.nat(), { maxLength: 6 }),
      }),
    );
    return fc.assert(
      fc.asyncProperty(table, async ({ keep, rows, crlf, finalNewline, cuts }) => {
        // A one-column record whose only field is empty would be a blank line: keep it quoted.
        const fixed = rows.map((r) => (r.length === 1 && r[0] === '' ? ['""'] : r));
        const text = fixed.map((r) => r.join(',')).join(crlf ? '\r\n' : '\n') + (finalNewline ? (crlf ? '\r\n' : '\n') : '');
        const data = Buffer.from(text);
        const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, data.length].slice(1).map((end, i, all) => data.subarray(i === 0 ? 0 : all[i - 1], end));
        const expected = fixed.map((r) => r.filter((_, i) => keep[i]).join(',') + '\n').join('');
        expect(await through(new CsvColumnFilter(keep), chunks.length ? chunks : [data])).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CsvBodyLimit and options', () => {
  it('drops a UTF-8 byte order mark, even split across chunks', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await through(new CsvBodyLimit(), [bom.subarray(0, 1), Buffer.concat([bom.subarray(1), Buffer.from('a,b\n')])])).toBe('a,b\n');
    expect(await through(new CsvBodyLimit(), bytes('ab'))).toBe('ab');
  });

  it('fails past the byte limit with a 413', async () => {
    await expect(through(new CsvBodyLimit(10), [Buffer.from('123456'), Buffer.from('789012')])).rejects.toMatchObject({ statusCode: 413 });
  });

  it('checks delimiters, JSON parameters and builds the attachment header', () => {
    expect(delimiterByte(';')).toBe(0x3b);
    for (const bad of ['"', '\n', 'é', ';;']) expect(() => delimiterByte(bad)).toThrow('The CSV delimiter must be one ASCII character');
    expect(jsonParam('["a", null]', CsvImportColumns, 'columns')).toEqual(['a', null]);
    expect(() => jsonParam('[a', CsvImportColumns, 'columns')).toThrow('The columns parameter is not valid JSON');
    expect(() => jsonParam('[1]', CsvImportColumns, 'columns')).toThrow(/^The columns parameter is not valid: \/0 /);
    expect(attachment('my "tab"é.csv')).toBe(`attachment; filename="my _tab__.csv"; filename*=UTF-8''my%20%22tab%22%C3%A9.csv`);
  });
});

let p: Project;
const ids: Record<string, number> = {};

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create table public.items (id int primary key, name text, price numeric, tags text[], doc jsonb);
    insert into public.items values
      (1, 'plain', 1.50, '{a,b}', '{"k": "v"}'),
      (2, 'with, comma', null, null, null),
      (3, E'quote " and\\nnewline', 3, '{}', '[1]');
    create table public."odd ""name""" (n int);
    create table public.big (id int primary key);
    insert into public.big select generate_series(1, ${CSV_EXPORT_ROW_LIMIT + 1});
    create table public.target (id int primary key, label text, qty int default 7, note text);
    insert into public.target values (100, 'existing', 1, null);
  `);
  const { rows } = await p.sql(`select relname, oid::int8 as id from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`);
  for (const row of rows) ids[row.relname] = Number(row.id);
});

afterAll(async () => {
  await p.close();
});

describe('exportRows', () => {
  const exportCsv = (table: string, payload: object, role: Parameters<typeof as>[0] = 'owner') =>
    p.app.inject({ method: 'POST', url: `/default/tables/${ids[table]}/rows/export`, headers: as(role), payload });

  it('streams the rows as CSV with a header line, as a file named after the table', async () => {
    const res = await exportCsv('items', {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="items.csv"; filename*=UTF-8''items.csv`);
    expect(res.body).toBe('id,name,price,tags,doc\n1,plain,1.50,"{a,b}","{""k"": ""v""}"\n2,"with, comma",,,\n3,"quote "" and\nnewline",3,{},[1]\n');
  });

  it('exports the rows matching filters and sorts, or the listed rows', async () => {
    const filtered = await exportCsv('items', { filters: [{ column: 'price', operator: 'is', value: 'not null' }], sorts: [{ column: 'price', ascending: false }] });
    expect(filtered.body).toBe('id,name,price,tags,doc\n3,"quote "" and\nnewline",3,{},[1]\n1,plain,1.50,"{a,b}","{""k"": ""v""}"\n');
    const listed = await exportCsv('items', { matches: [{ id: 2 }] });
    expect(listed.body).toBe('id,name,price,tags,doc\n2,"with, comma",,,\n');
    const odd = await exportCsv('odd "name"', {});
    expect(odd.headers['content-disposition']).toBe(`attachment; filename="odd _name_.csv"; filename*=UTF-8''odd%20%22name%22.csv`);
  });

  it('refuses bad filters before streaming, with a JSON error', async () => {
    const res = await exportCsv('items', { filters: [{ column: 'price', operator: 'eq', value: 'cheap' }] });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: '22P02' });
  });

  it('answers a COPY that Postgres refuses at its start with a 400, and keeps the connection usable', async () => {
    await p.sql('create table public.shapes (id int primary key, spot point)');
    const { rows } = await p.sql(`select 'public.shapes'::regclass::oid::int8 as id`);
    const app = await p.extraApp({}, 1);
    const backend = async () =>
      (await app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select pg_backend_pid() as pid' } })).json().results[0].rows[0][0];
    const before = await backend();
    // Counting works (no ORDER BY); the COPY's sort on a type without ordering fails.
    const res = await app.inject({
      method: 'POST',
      url: `/default/tables/${rows[0].id}/rows/export`,
      headers: as('owner'),
      payload: { sorts: [{ column: 'spot', ascending: true }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '42883', message: expect.stringContaining('point') });
    const after = await app.inject({ method: 'POST', url: `/default/tables/${ids.items}/rows/export`, headers: as('owner'), payload: { matches: [{ id: 1 }] } });
    expect(after.body).toBe('id,name,price,tags,doc\n1,plain,1.50,"{a,b}","{""k"": ""v""}"\n');
    // The one pooled connection was returned, not replaced.
    expect(await backend()).toBe(before);
  });

  it(`refuses more than ${CSV_EXPORT_ROW_LIMIT} rows`, async () => {
    const res = await exportCsv('big', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(Messages.csvExportTooLarge);
    const ok = await exportCsv('big', { filters: [{ column: 'id', operator: 'lte', value: String(CSV_EXPORT_ROW_LIMIT) }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.body.split('\n')).toHaveLength(CSV_EXPORT_ROW_LIMIT + 2);
  });

  it('a client that goes away mid-export frees the connection', async () => {
    const app = await p.extraApp({}, 1);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const firstBytes = await new Promise<number>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: `/default/tables/${ids.big}/rows/export`, headers: { ...as('owner'), 'content-type': 'application/json' } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.length);
          req.destroy();
        });
      });
      req.on('error', () => {});
      req.once('error', reject);
      req.end(JSON.stringify({ filters: [{ column: 'id', operator: 'lte', value: '400000' }] }));
    });
    expect(firstBytes).toBeGreaterThan(0);
    // The only connection of this app's pool must come back usable.
    const res = await app.inject({ method: 'POST', url: `/default/tables/${ids.items}/rows/count`, headers: as('owner'), payload: {} });
    expect(res.json()).toEqual({ count: 3, estimate: false });
  });
});

describe('importRows', () => {
  const importCsv = (csv: string | Buffer, query: Record<string, string>, table = 'target', contentType = 'text/csv') =>
    p.app.inject({
      method: 'POST',
      url: `/default/tables/${ids[table]}/rows/import?${new URLSearchParams(query).toString()}`,
      headers: { ...as('owner'), 'content-type': contentType },
      payload: csv,
    });
  const target = async () => (await p.sql('select id, label, qty, note from public.target order by id')).rows;

  it('copies the CSV into the mapped columns, skipping columns mapped to null', async () => {
    const csv = 'skip me,ID,Label\n"x,y",1,"one, ""uno""\nline two"\nz,2,two\n';
    const res = await importCsv(csv, { columns: JSON.stringify([null, 'id', 'label']) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ table_id: ids.target, rows: 2 });
    expect(await target()).toEqual([
      { id: 1, label: 'one, "uno"\nline two', qty: 7, note: null },
      { id: 2, label: 'two', qty: 7, note: null },
      { id: 100, label: 'existing', qty: 1, note: null },
    ]);
  });

  it('passes the bytes straight through when nothing is skipped; header=false and another delimiter', async () => {
    const res = await importCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('3;three;5\n4;"fo;ur";\n')]), {
      columns: JSON.stringify(['id', 'label', 'qty']),
      header: 'false',
      delimiter: ';',
    });
    expect(res.json()).toEqual({ table_id: ids.target, rows: 2 });
    expect((await target()).filter((r) => r.id === 3 || r.id === 4)).toEqual([
      { id: 3, label: 'three', qty: 5, note: null },
      { id: 4, label: 'fo;ur', qty: null, note: null },
    ]);
  });

  it('rolls everything back on a bad line and names it', async () => {
    const before = await target();
    const res = await importCsv('id,qty\n50,1\n51,2\n52,many\n53,4\n', { columns: JSON.stringify(['id', 'qty']) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "many" (COPY target, line 4, column qty: "many")' });
    const dup = await importCsv('skip,id\nx,60\ny,100\n', { columns: JSON.stringify([null, 'id']) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: '23505', message: expect.stringContaining('COPY target, line 3') });
    const shape = await importCsv('skip,id\nx,61\ny\n', { columns: JSON.stringify([null, 'id']) });
    expect(shape.json()).toMatchObject({ statusCode: 400, message: 'CSV line 3 does not have 2 fields, one for each column of the import' });
    expect(await target()).toEqual(before);
  });

  it('skips columns of a file with a byte order mark, CRLF line ends, quoted line breaks and quotes', async () => {
    const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ID,skip,Note\r\n10,"a ""b""\r\nc",\r\n11,x,"say ""hi"",\r\nbye"\r\n12,,""\r\n')]);
    const res = await importCsv(csv, { columns: JSON.stringify(['id', null, 'note']) });
    expect(res.json()).toEqual({ table_id: ids.target, rows: 3 });
    expect((await target()).filter((r) => r.id >= 10 && r.id <= 12)).toEqual([
      { id: 10, label: null, qty: 7, note: null },
      { id: 11, label: null, qty: 7, note: 'say "hi",\r\nbye' },
      { id: 12, label: null, qty: 7, note: '' },
    ]);
  });

  it('rolls back a file whose last quote is never closed, naming the line', async () => {
    const before = await target();
    for (const columns of [[null, 'id'], ['label', 'id']]) {
      const res = await importCsv('skip,id\nx,70\ny,"71\n', { columns: JSON.stringify(columns) });
      expect(res.json()).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^unterminated CSV quoted field \(COPY target, line \d/) });
    }
    expect(await target()).toEqual(before);
  });

  it('answers a bad line early in a large body, skipping columns or not, and stays usable', async () => {
    await p.sql('create table public.early (id int primary key, text text, extra text)');
    ids.early = Number((await p.sql(`select 'public.early'::regclass::oid::int8 as id`)).rows[0].id);
    const csv = 'id,text,extra\n1,a,x\nnot a number,b,x\n' + Array.from({ length: 100_000 }, (_, i) => `${i + 2},"${'y'.repeat(80)}",z\n`).join('');
    for (const columns of [['id', 'text', null], ['id', 'text', 'extra']]) {
      const res = await importCsv(csv, { columns: JSON.stringify(columns) }, 'early');
      expect(res.json()).toMatchObject({ statusCode: 400, message: expect.stringContaining('(COPY early, line 3, column id: "not a number")') });
    }
    const good = await importCsv('id,text\n1,ok\n', { columns: JSON.stringify(['id', 'text']) }, 'early');
    expect(good.json()).toEqual({ table_id: ids.early, rows: 1 });
  });

  it('refuses bad parameters and bodies', async () => {
    const cases: Array<[Awaited<ReturnType<typeof importCsv>>, number, string]> = [
      [await importCsv('1\n', { columns: 'not json' }), 400, 'The columns parameter is not valid JSON'],
      [await importCsv('1\n', { columns: '{"a":1}' }), 400, 'The columns parameter is not valid: / Expected array'],
      [await importCsv('1\n', { columns: '[null]' }), 400, 'Choose at least one table column to import into'],
      [await importCsv('1\n', { columns: '["ghost"]' }), 400, 'Column "ghost" does not exist on table "public"."target"'],
      [await importCsv('1\n', { columns: '["id"]', delimiter: '"' }), 400, 'The CSV delimiter must be one ASCII character other than a quote or a line break'],
      [await importCsv('{"a": 1}', { columns: '["id"]' }, 'target', 'application/json'), 415, 'Send the CSV file with content type text/csv'],
    ];
    for (const [res, status, message] of cases) expect([res.statusCode, res.json().message]).toEqual([status, message]);
  });

  it('takes a CSV body on the import routes only: another route refuses it as an unsupported media type', async () => {
    const res = await p.app.inject({
      method: 'POST',
      url: `/default/tables/${ids.target}/rows/count`,
      headers: { ...as('owner'), 'content-type': 'text/csv' },
      payload: 'id\n1\n',
    });
    expect([res.statusCode, res.json().code]).toEqual([415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE']);
  });

  it('takes bodies far above the JSON body limit, as a stream', async () => {
    await p.sql('create table public.wide (id int primary key, text text)');
    const { rows } = await p.sql(`select 'public.wide'::regclass::oid::int8 as id`);
    const line = (i: number) => `${i},"${'x'.repeat(60)}, ""${i}"""\n`;
    const csv = Array.from({ length: 60_000 }, (_, i) => line(i)).join('');
    expect(csv.length).toBeGreaterThan(4 * 1024 * 1024);
    const res = await p.app.inject({
      method: 'POST',
      url: `/default/tables/${rows[0].id}/rows/import?header=false&columns=${encodeURIComponent('["id","text"]')}`,
      headers: { ...as('owner'), 'content-type': 'text/csv; charset=utf-8' },
      payload: csv,
    });
    expect(res.json()).toEqual({ table_id: Number(rows[0].id), rows: 60_000 });
    const last = await p.sql('select text from public.wide where id = 59999');
    expect(last.rows[0].text).toBe(`${'x'.repeat(60)}, "59999"`);
  });

  it('imports nothing from an empty file, or from a header alone', async () => {
    expect((await importCsv('', { columns: '["id"]' })).json()).toEqual({ table_id: ids.target, rows: 0 });
    expect((await importCsv('a,id\n', { columns: '[null, "id"]' })).json()).toEqual({ table_id: ids.target, rows: 0 });
  });

  it('refuses a body declared larger than the import limit with a 413', async () => {
    const res = await p.app.inject({
      method: 'POST',
      url: `/default/tables/${ids.target}/rows/import?columns=${encodeURIComponent('["id"]')}`,
      headers: { ...as('owner'), 'content-type': 'text/csv', 'content-length': String(CSV_IMPORT_MAX_BYTES + 1) },
      payload: Readable.from([Buffer.from('1\n')]),
    });
    expect(res.statusCode).toBe(413);
  });

  it('is refused to read-only members and unknown to outsiders', async () => {
    const url = `/default/tables/${ids.target}/rows/import?columns=${encodeURIComponent('["id"]')}`;
    for (const [headers, status] of [
      [as('read_only'), 403],
      [as('owner', 'elsewhere'), 404],
      [as('developer'), 200],
    ] as const) {
      const res = await p.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'text/csv' }, payload: 'id\n900\n' });
      expect(res.statusCode).toBe(status);
    }
  });
});

describe('importNewTable', () => {
  const definition: TableCreate = {
    schema: 'public',
    name: 'from csv "1"',
    columns: [
      { name: 'id', type: 'int8', isPrimaryKey: true },
      { name: 'Name', type: 'text' },
      { name: 'when', type: 'date', isNullable: true },
    ],
  };
  const importNew = (csv: string, table: object | string, role: Parameters<typeof as>[0] = 'owner') =>
    p.app.inject({
      method: 'POST',
      url: `/default/tables/import?table=${encodeURIComponent(typeof table === 'string' ? table : JSON.stringify(table))}`,
      headers: { ...as(role), 'content-type': 'text/csv' },
      payload: csv,
    });
  const exists = async (name: string) => (await p.sql(`select count(*)::int as n from pg_class where relname = $1`, [name])).rows[0].n === 1;

  it('creates the table and fills it in one transaction', async () => {
    const res = await importNew('id,Name,when\n1,Ada,1815-12-10\n2,"Bob, Jr",\n', definition);
    expect(res.statusCode).toBe(201);
    const body = res.json() as CsvImported;
    expect(body.rows).toBe(2);
    const { rows } = await p.sql(`select id, "Name", "when"::text from public."from csv ""1""" order by id`);
    expect(rows).toEqual([
      { id: 1, Name: 'Ada', when: '1815-12-10' },
      { id: 2, Name: 'Bob, Jr', when: null },
    ]);
    const { rows: oid } = await p.sql(`select 'public."from csv ""1"""'::regclass::oid::int8 as id`);
    expect(body.table_id).toBe(Number(oid[0].id));
  });

  it('creates nothing when a line fails', async () => {
    const res = await importNew('id,Name,when\n1,Ada,yesterday-ish\n', { ...definition, name: 'never made' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('COPY never made, line 2, column when');
    expect(await exists('never made')).toBe(false);
  });

  it('refuses bad table definitions', async () => {
    expect((await importNew('a\n', 'nope')).json().message).toBe('The table parameter is not valid JSON');
    expect((await importNew('a\n', { ...definition, extra: true })).statusCode).toBe(400);
    expect((await importNew('a\n', { ...definition, name: 'no columns', columns: [] })).json().message).toBe('The new table needs at least one column');
    expect((await importNew('a\n', { ...definition, name: 'x' }, 'read_only')).statusCode).toBe(403);
  });
});
