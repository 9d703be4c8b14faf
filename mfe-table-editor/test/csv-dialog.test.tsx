import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import { FakeXhr, installFakeXhr, mockFetch, permissionsAnswer, renderArea } from '@dash/shell-sdk/testing';
import { Messages, TableCreate, type PgTable } from '@dash/contracts';
import { CsvImportDialog, IMPORT_NEEDS_PERMISSION } from '../src/csv/CsvImportDialog';
import { TABLE_NAME_REQUIRED } from '../src/forms/table-form';
import { profilesTable } from './forms.fixtures';

installFakeXhr();

const lastRequest = () => {
  expect(FakeXhr.requests).toHaveLength(1);
  return FakeXhr.requests[0];
};

function renderDialog(role: 'owner' | 'read_only', table?: PgTable) {
  const fetchMock = mockFetch(permissionsAnswer('default', role));
  const onClose = jest.fn();
  const Harness = () => <CsvImportDialog schema="public" table={table} onClose={onClose} />;
  renderArea(Harness, { mount: 'editor', url: '/project/default/editor/16392' });
  return { onClose, fetchMock };
}

const csv = (text: string, name = 'people.csv') => new File([text], name, { type: 'text/csv' });
const fileInput = () => screen.getByLabelText('CSV file') as HTMLInputElement;
const importButton = () => screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement;
const PEOPLE = 'Username,tags,unknown,created_at\nada,"{a,b}",x,2024-01-01\n"bob ""the builder""",{},y,2024-01-02\ncy,{},z,2024-01-03\n';

describe('CSV import into an existing table', () => {
  it('previews the file, maps columns by name, and sends the mapping with the file', async () => {
    const { onClose } = renderDialog('owner', profilesTable);
    expect(screen.getByRole('dialog', { name: 'Import data into profiles' })).toBeTruthy();
    const file = csv(PEOPLE);
    await userEvent.upload(fileInput(), file);

    const preview = await screen.findByRole('table', { name: 'CSV preview' });
    expect(within(preview).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Username', 'tags', 'unknown', 'created_at']);
    expect(within(preview).getAllByRole('row')).toHaveLength(4);
    expect(within(preview).getByText('bob "the builder"')).toBeTruthy();

    const mapped = (name: string) => (screen.getByRole('combobox', { name: `Table column for ${name}` }) as HTMLSelectElement).value;
    await waitFor(() => expect(mapped('Username')).toBe('username'));
    expect([mapped('tags'), mapped('unknown'), mapped('created_at')]).toEqual(['tags', '', 'created_at']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Table column for created_at' }), 'Skip this column');

    await userEvent.click(importButton());
    const request = lastRequest();
    const url = new URL(request.url);
    expect(request.method).toBe('POST');
    expect(url.pathname).toBe('/api/pg-meta/default/tables/16392/rows/import');
    expect(JSON.parse(url.searchParams.get('columns')!)).toEqual(['username', 'tags', null, null]);
    expect(url.searchParams.get('header')).toBe('true');
    expect(url.searchParams.get('delimiter')).toBe(',');
    expect(request.headers['content-type']).toBe('text/csv');
    expect(request.body).toBe(file);

    request.progress(file.size / 2, file.size);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText(/Uploading… 50%/)).toBeTruthy();
    request.progress(file.size, file.size);
    expect(screen.getByText('Uploaded; importing the rows…')).toBeTruthy();

    await request.respond(200, { table_id: 16392, rows: 3 });
    expect(onClose).toHaveBeenCalledWith({ table_id: 16392, rows: 3 });
    expect(await screen.findByText('Successfully imported 3 rows into profiles')).toBeTruthy();
  });

  it("shows the server's message naming the failing line and stays open to try again", async () => {
    const { onClose } = renderDialog('owner', profilesTable);
    await userEvent.upload(fileInput(), csv(PEOPLE));
    await screen.findByRole('table', { name: 'CSV preview' });
    await userEvent.click(importButton());
    const message = 'malformed array literal: "x" (line 3, column tags)';
    await lastRequest().respond(400, { statusCode: 400, error: 'Bad Request', message });

    expect((await screen.findByText(message)).getAttribute('role')).toBe('alert');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(importButton().disabled).toBe(false);
    await userEvent.click(importButton());
    expect(FakeXhr.requests).toHaveLength(2);
  });

  it('maps by position without a header row, and needs at least one mapped column', async () => {
    renderDialog('owner', profilesTable);
    await userEvent.upload(fileInput(), csv('7,ada\n8,bob\n'));
    await screen.findByRole('table', { name: 'CSV preview' });
    await userEvent.click(screen.getByRole('checkbox', { name: /First row is a header/ }));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Table column for column_1' }) as HTMLSelectElement).value).toBe('id'));
    expect((screen.getByRole('combobox', { name: 'Table column for column_2' }) as HTMLSelectElement).value).toBe('username');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Table column for column_1' }), 'Skip this column');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Table column for column_2' }), 'Skip this column');
    expect(screen.getByText('Choose at least one table column to fill')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Table column for column_1' }), 'username (text)');
    await userEvent.click(importButton());
    const url = new URL(lastRequest().url);
    expect(JSON.parse(url.searchParams.get('columns')!)).toEqual(['username', null]);
    expect(url.searchParams.get('header')).toBe('false');
  });

  it('takes a file dropped on the drop zone, and a semicolon file with its delimiter', async () => {
    renderDialog('owner', profilesTable);
    fireEvent.drop(screen.getByTestId('csv-dropzone'), { dataTransfer: { files: [csv('username;created_at\nada;2024-01-01\n', 'semi.csv')] } });
    const preview = await screen.findByRole('table', { name: 'CSV preview' });
    expect(within(preview).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['username', 'created_at']);
    expect((screen.getByRole('combobox', { name: 'Delimiter' }) as HTMLSelectElement).value).toBe(';');
    await waitFor(() => expect(importButton().disabled).toBe(false));
    await userEvent.click(importButton());
    expect(new URL(lastRequest().url).searchParams.get('delimiter')).toBe(';');
  });

  it('keeps Import disabled for members without write permission', async () => {
    renderDialog('read_only', profilesTable);
    await userEvent.upload(fileInput(), csv(PEOPLE));
    await screen.findByRole('table', { name: 'CSV preview' });
    await waitFor(() => expect(screen.getByRole('tooltip', { hidden: true }).textContent).toBe(IMPORT_NEEDS_PERMISSION));
    expect(importButton().disabled).toBe(true);
    await userEvent.click(importButton());
    expect(FakeXhr.requests).toHaveLength(0);
  });
});

describe('CSV import into a new table', () => {
  const SALES = 'id,amount,paid,sold_at,day,meta,note\n1,9.5,true,2024-01-01T10:00:00Z,2024-01-01,"{""a"":1}",hello\n2,10,false,2024-01-02 11:00:00+02,2024-01-02,[],\n';

  it('infers the column types, lets the user edit them, and sends the new table', async () => {
    const { onClose } = renderDialog('owner');
    await userEvent.upload(fileInput(), csv(SALES, 'Sales 2024.csv'));
    await screen.findByRole('table', { name: 'CSV preview' });
    const tableName = screen.getByRole('textbox', { name: 'Table name' }) as HTMLInputElement;
    expect(tableName.value).toBe('sales_2024');
    const typeOf = (i: number) => (screen.getByRole('combobox', { name: `Type of CSV column ${i}` }) as HTMLSelectElement).value;
    await waitFor(() => expect([1, 2, 3, 4, 5, 6, 7].map(typeOf)).toEqual(['int8', 'float8', 'bool', 'timestamptz', 'date', 'jsonb', 'text']));

    await userEvent.clear(screen.getByRole('textbox', { name: 'Name of CSV column 7' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of CSV column 7' }), 'remark');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type of CSV column 2' }), 'numeric');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Primary key: CSV column 1' }));
    await userEvent.clear(tableName);
    expect(screen.getByText(TABLE_NAME_REQUIRED)).toBeTruthy();
    expect(importButton().disabled).toBe(true);
    await userEvent.type(tableName, 'sales');

    await userEvent.click(importButton());
    const url = new URL(lastRequest().url);
    expect(url.pathname).toBe('/api/pg-meta/default/tables/import');
    const table = JSON.parse(url.searchParams.get('table')!);
    expect(new Ajv({ strict: false }).compile(TableCreate)(table)).toBe(true);
    expect(table).toEqual({
      schema: 'public',
      name: 'sales',
      rls_enabled: true,
      columns: [
        { name: 'id', type: 'int8', isPrimaryKey: true, isNullable: false },
        { name: 'amount', type: 'numeric', isPrimaryKey: false, isNullable: true },
        { name: 'paid', type: 'bool', isPrimaryKey: false, isNullable: true },
        { name: 'sold_at', type: 'timestamptz', isPrimaryKey: false, isNullable: true },
        { name: 'day', type: 'date', isPrimaryKey: false, isNullable: true },
        { name: 'meta', type: 'jsonb', isPrimaryKey: false, isNullable: true },
        { name: 'remark', type: 'text', isPrimaryKey: false, isNullable: true },
      ],
    });
    expect(url.searchParams.get('header')).toBe('true');

    await lastRequest().respond(201, { table_id: 18000, rows: 2 });
    expect(onClose).toHaveBeenCalledWith({ table_id: 18000, rows: 2 });
    expect(await screen.findByText('Successfully imported 2 rows into sales')).toBeTruthy();
  });

  it('names columns column_N without a header row and refuses empty or repeated names', async () => {
    renderDialog('owner');
    await userEvent.upload(fileInput(), csv('1,a\n2,b\n', 'nums.csv'));
    await screen.findByRole('table', { name: 'CSV preview' });
    await userEvent.click(screen.getByRole('checkbox', { name: /First row is a header/ }));
    const name = (i: number) => screen.getByRole('textbox', { name: `Name of CSV column ${i}` }) as HTMLInputElement;
    await waitFor(() => expect([name(1).value, name(2).value]).toEqual(['column_1', 'column_2']));
    expect((screen.getByRole('combobox', { name: 'Type of CSV column 1' }) as HTMLSelectElement).value).toBe('int8');

    await userEvent.clear(name(2));
    expect(screen.getByText(Messages.columnNameRequired)).toBeTruthy();
    await userEvent.type(name(2), 'column_1');
    expect(screen.getByText('Column names must be unique')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
  });

  it('refuses a file without rows', async () => {
    renderDialog('owner');
    await userEvent.upload(fileInput(), csv('\n\n', 'empty.csv'));
    expect(await screen.findByText('The file has no rows to import.')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
  });

  it('cancels an upload in progress when closed', async () => {
    const { onClose } = renderDialog('owner');
    await userEvent.upload(fileInput(), csv(SALES));
    await screen.findByRole('table', { name: 'CSV preview' });
    await waitFor(() => expect(importButton().disabled).toBe(false));
    await userEvent.click(importButton());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel import' }));
    expect(lastRequest().aborted).toBe(true);
    expect(onClose).toHaveBeenCalledWith();
  });
});
