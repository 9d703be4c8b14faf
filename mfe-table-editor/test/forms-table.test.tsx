import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages, TableCreate, TableUpdate, type PgTable } from '@dash/contracts';
import { TableEditor, RLS_OFF_WARNING } from '../src/forms/TableEditor';
import { COLUMN_NAME_TAKEN, newTableValues, TABLE_NAME_REQUIRED, tableCreatePayload, tableUpdatePayload, validateTable } from '../src/forms/table-form';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import { entitiesReply, schemasReply, tablesReply } from './fixtures';
import { profilesTable } from './forms.fixtures';

const ajv = new Ajv({ strict: false });
const validCreate = ajv.compile(TableCreate);
const TABLES = 'POST /api/pg-meta/default/tables';

const created = (name: string, id = 17777): PgTable => ({ ...profilesTable, id, name, primary_keys: [], relationships: [], columns: [] });

describe('table form payloads', () => {
  it('starts a new table with an identity primary key and a creation time, valid against the contract', () => {
    const values = { ...newTableValues(), name: 'posts', comment: 'Blog posts' };
    const payload = tableCreatePayload('public', values);
    expect(payload).toEqual({
      schema: 'public',
      name: 'posts',
      comment: 'Blog posts',
      rls_enabled: true,
      columns: [
        {
          name: 'id',
          type: 'int8',
          comment: null,
          check: null,
          defaultValue: null,
          defaultValueFormat: 'literal',
          isIdentity: true,
          isNullable: false,
          isUnique: false,
          isPrimaryKey: true,
        },
        {
          name: 'created_at',
          type: 'timestamptz',
          comment: null,
          check: null,
          defaultValue: 'now()',
          defaultValueFormat: 'expression',
          isIdentity: false,
          isNullable: false,
          isUnique: false,
          isPrimaryKey: false,
        },
      ],
    });
    expect(validCreate(payload)).toBe(true);
  });

  it('updates a table with only the changed fields', () => {
    const table = { name: 'profiles', comment: null, rls_enabled: true };
    const base = { name: 'profiles', comment: '', rlsEnabled: true, columns: [] };
    expect(tableUpdatePayload(table, base)).toEqual({});
    expect(tableUpdatePayload(table, { ...base, name: ' people ' })).toEqual({ name: 'people' });
    expect(tableUpdatePayload(table, { ...base, comment: 'Members' })).toEqual({ comment: 'Members' });
    expect(tableUpdatePayload(table, { ...base, rlsEnabled: false })).toEqual({ rls_enabled: false });
    expect(tableUpdatePayload({ ...table, comment: 'Members' }, { ...base, comment: '  ' })).toEqual({ comment: null });
    expect(ajv.compile(TableUpdate)(tableUpdatePayload(table, { ...base, rlsEnabled: false, name: 'people' }))).toBe(true);
  });

  it('validates the table name and every column row', () => {
    const values = newTableValues();
    values.columns.push({ ...values.columns[1] }, { ...values.columns[1], name: '', format: '' });
    expect(validateTable(values, true)).toEqual({
      name: TABLE_NAME_REQUIRED,
      columns: [{}, {}, { name: COLUMN_NAME_TAKEN }, { name: Messages.columnNameRequired, format: Messages.columnTypeRequired }],
    });
    expect(validateTable({ ...values, name: 'ok' }, false)).toEqual({});
  });
});

// ---------------------------------------------------------------- the panel

function renderTableEditor(props: { table?: PgTable } = {}) {
  const onClose = jest.fn();
  const Harness = () => <TableEditor schema="public" table={props.table} onClose={onClose} />;
  renderArea(Harness, { mount: 'editor', url: '/project/default/editor' });
  return { onClose };
}

const rowNames = () => screen.getAllByRole('textbox', { name: /^Name of column/ }).map((i) => (i as HTMLInputElement).value);

describe('TableEditor', () => {
  it('creates a table with its first columns and closes with the saved table', async () => {
    const saved = created('posts');
    const fetchMock = mockFetch({ [TABLES]: { status: 201, body: saved } });
    const { onClose } = renderTableEditor();
    expect(screen.getByRole('dialog', { name: 'Create a new table under public' })).toBeTruthy();
    expect(rowNames()).toEqual(['id', 'created_at']);
    expect((screen.getByRole('combobox', { name: 'Type of column 1' }) as HTMLSelectElement).value).toBe('int8');
    expect((screen.getByRole('checkbox', { name: 'Identity: id' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Primary: id' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Default value of column 2' }) as HTMLInputElement).value).toBe('now()');
    expect((screen.getByRole('checkbox', { name: /Enable Row Level Security/ }) as HTMLInputElement).checked).toBe(true);

    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'posts');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(saved));
    const [body] = await fetchMock.bodiesOf(TABLES);
    expect(body).toEqual(tableCreatePayload('public', { ...newTableValues(), name: 'posts' }));
    expect(validCreate(body)).toBe(true);
    expect(await screen.findByText('Table "posts" is good to go!')).toBeTruthy();
  });

  it('adds, reorders and removes column rows', async () => {
    const fetchMock = mockFetch({ [TABLES]: { status: 201, body: created('notes') } });
    renderTableEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'notes');
    await userEvent.click(screen.getByRole('button', { name: 'Add column' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of column 3' }), 'body');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type of column 3' }), 'varchar');
    expect(screen.getByRole('note').textContent).toMatch(/Consider using text instead of varchar/);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type of column 3' }), 'text');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Array: body' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Nullable: body' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move body up' }));
    expect(rowNames()).toEqual(['id', 'body', 'created_at']);
    await userEvent.click(screen.getByRole('button', { name: 'Remove created_at' }));
    expect(rowNames()).toEqual(['id', 'body']);
    // Identity is offered for integer columns only.
    expect((screen.getByRole('checkbox', { name: 'Identity: body' }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect(await fetchMock.bodiesOf(TABLES)).toHaveLength(1));
    const [body] = (await fetchMock.bodiesOf(TABLES)) as TableCreate[];
    expect((body.columns ?? []).map((c) => [c.name, c.type, c.isNullable])).toEqual([
      ['id', 'int8', false],
      ['body', 'text[]', false],
    ]);
  });

  it('shows the validation messages and sends nothing', async () => {
    const fetchMock = mockFetch({});
    renderTableEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Add column' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(TABLE_NAME_REQUIRED)).toBeTruthy();
    expect(screen.getByText(Messages.columnNameRequired)).toBeTruthy();
    expect(screen.getByText(Messages.columnTypeRequired)).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of column 3' }), 'id');
    expect(await screen.findByText(COLUMN_NAME_TAKEN)).toBeTruthy();
    expect(fetchMock.calls).toHaveLength(0);
  });

  it('shows no message for a field only left untouched, so a click below it is not lost; one changed and left, or a submit, shows it', async () => {
    mockFetch({});
    renderTableEditor();
    const name = screen.getByRole('textbox', { name: 'Name' });
    name.focus();
    // Clicking Add column blurs the empty name field: the form must not grow a message above the button.
    await userEvent.click(screen.getByRole('button', { name: 'Add column' }));
    expect(screen.queryByText(TABLE_NAME_REQUIRED)).toBeNull();
    expect(rowNames()).toEqual(['id', 'created_at', '']);
    await userEvent.type(name, 'x');
    await userEvent.clear(name);
    await userEvent.tab();
    expect(screen.getByText(TABLE_NAME_REQUIRED)).toBeTruthy();
  });

  it("shows the server's message and stays open when creating fails", async () => {
    mockFetch({ [TABLES]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'relation "posts" already exists' } } });
    const { onClose } = renderTableEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'posts');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByText('relation "posts" already exists')).getAttribute('role')).toBe('alert');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits the name, description and RLS of a table, sending only what changed', async () => {
    const fetchMock = mockFetch({ 'PATCH /api/pg-meta/default/tables/16392': { body: { ...profilesTable, rls_enabled: false } } });
    const { onClose } = renderTableEditor({ table: profilesTable });
    expect(screen.getByRole('dialog', { name: 'Update table profiles' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('profiles');
    expect(screen.queryByRole('button', { name: 'Add column' })).toBeNull();
    expect(screen.queryByText(RLS_OFF_WARNING)).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: /Enable Row Level Security/ }));
    expect(screen.getByText(RLS_OFF_WARNING)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/tables/16392')).toEqual([{ rls_enabled: false }]);
  });
});

// ---------------------------------------------------------------- from the entity list

const url = '/project/default/editor';
const ENTITIES = 'GET /api/pg-meta/default/entities';

function listAnswers(role: 'owner' | 'read_only', extra: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    [ENTITIES]: { body: entitiesReply },
    ...extra,
  };
}

describe('creating and changing tables from the entity list', () => {
  it('keeps New table disabled with the reason for read-only members, and table edits too', async () => {
    mockFetch(listAnswers('read_only'));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    const button = screen.getByRole('button', { name: 'New table' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await userEvent.hover(button.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.needPermissionsCreateTables);
    await userEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for countries' }));
    const menu = screen.getByRole('menu');
    expect((within(menu).getByRole('menuitem', { name: 'Edit table' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(menu).getByRole('menuitem', { name: 'Delete table' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('creates a table from New table and opens it', async () => {
    let createdYet = false;
    const newEntity = { id: 17777, schema: 'public', name: 'posts', type: 'table' as const, comment: null };
    const fetchMock = mockFetch(
      listAnswers('owner', {
        [TABLES]: () => {
          createdYet = true;
          return { status: 201, body: created('posts') };
        },
        [ENTITIES]: () => ({ body: { data: createdYet ? [...entitiesReply.data, newEntity] : entitiesReply.data, hasMore: false } }),
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    await userEvent.click(screen.getByRole('button', { name: 'New table' }));
    const panel = await screen.findByRole('dialog', { name: 'Create a new table under public' });
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Name' }), 'posts');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));

    const link = await screen.findByRole('link', { name: /posts/ });
    await waitFor(() => expect(link.getAttribute('aria-current')).toBe('page'));
    expect(screen.queryByRole('dialog', { name: 'Create a new table under public' })).toBeNull();
    expect(await fetchMock.bodiesOf(TABLES)).toEqual([expect.objectContaining({ schema: 'public', name: 'posts' })]);
  });

  it('switches from New table to a CSV import into a new table', async () => {
    mockFetch(listAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    await userEvent.click(screen.getByRole('button', { name: 'New table' }));
    await userEvent.click(screen.getByRole('button', { name: 'Import data from a CSV file instead' }));
    expect(await screen.findByRole('dialog', { name: 'Import a CSV file as a new table in public' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Create a new table under public' })).toBeNull();
  });

  it('edits a table from its menu', async () => {
    const countries = { ...tablesReply[0], columns: [] };
    const fetchMock = mockFetch(
      listAnswers('owner', {
        'GET /api/pg-meta/default/tables/16385': { body: countries },
        'PATCH /api/pg-meta/default/tables/16385': { body: { ...countries, comment: 'Countries of the world' } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for countries' }));
    await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Edit table' }));
    // The panel shows a spinner until the table is loaded, then the form.
    const description = (await screen.findByRole('textbox', { name: 'Description' })) as HTMLInputElement;
    expect(description.value).toBe('ISO 3166 countries');
    await userEvent.clear(description);
    await userEvent.type(description, 'Countries of the world');
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Update table countries' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update table countries' })).toBeNull());
    expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/tables/16385')).toEqual([{ comment: 'Countries of the world' }]);
  });

  it('deletes a table from its menu after confirmation, with cascade when asked', async () => {
    const fetchMock = mockFetch(listAnswers('owner', { 'DELETE /api/pg-meta/default/tables/16385': { body: tablesReply[0] } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for countries' }));
    await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Delete table' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete table countries' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for countries' }));
    await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Delete table' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete table countries' });
    await userEvent.click(within(confirm).getByRole('checkbox', { name: /CASCADE/ }));
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted table "countries"')).toBeTruthy();
    const call = fetchMock.calls.find((c) => c.method === 'DELETE')!;
    expect(new URL(call.url).pathname).toBe('/api/pg-meta/default/tables/16385');
    expect(new URL(call.url).searchParams.get('cascade')).toBe('true');
  });
});
