import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { ColumnCreate, ColumnUpdate, Messages, PgTable, type PgColumn } from '@dash/contracts';
import { ColumnEditor } from '../src/forms/ColumnEditor';
import {
  columnCreatePayload,
  columnToFormValues,
  columnUpdatePayload,
  defaultValueFormat,
  formDefaultValue,
  NEW_COLUMN,
  validateColumn,
  type ColumnFormValues,
} from '../src/forms/column-form';
import { discouragedTypeHint, isIntegerType } from '../src/forms/column-types';
import { tablesReply } from './fixtures';
import { countryColumns, profileColumns, profilesTable } from './forms.fixtures';

const ajv = new Ajv({ strict: false });
const validCreate = ajv.compile(ColumnCreate);
const validUpdate = ajv.compile(ColumnUpdate);
const column = (name: string) => profileColumns.find((c) => c.name === name)!;

describe('defaultValueFormat', () => {
  it.each([
    ['CURRENT_DATE', 'expression'],
    ['current_date', 'expression'],
    ['  Current_Date ', 'expression'],
    ['now()', 'expression'],
    ['gen_random_uuid()', 'expression'],
    ['extensions.uuid_generate_v4()', 'expression'],
    ["nextval('profiles_id_seq'::regclass)", 'expression'],
    ["(now() at time zone 'utc')", 'expression'],
    ['(1 + 2)', 'expression'],
    ['((a) + (b))', 'expression'],
    ['hello', 'literal'],
    ['42', 'literal'],
    ['', 'literal'],
    ['now ()', 'literal'],
    ["concat('a', 'b')", 'literal'],
    ['(a) + (b)', 'literal'],
    ['(unbalanced', 'literal'],
    ["('a)b')", 'expression'],
    ['CURRENT_DATE + 1', 'literal'],
    ['CURRENT_TIMESTAMP', 'literal'],
    ['{}', 'literal'],
    ['now()::date', 'literal'],
  ])('%j is %s', (value, expected) => {
    expect(defaultValueFormat(value)).toBe(expected);
  });
});

describe('column form values', () => {
  it('strips the quotes and cast Postgres adds to literal defaults, and keeps expressions', () => {
    expect(formDefaultValue("'it''s me'::text")).toBe("it's me");
    expect(formDefaultValue("'x'::character varying")).toBe('x');
    expect(formDefaultValue("'{}'::text[]")).toBe('{}');
    expect(formDefaultValue("'2024-01-01 00:00:00+00'::timestamp with time zone")).toBe('2024-01-01 00:00:00+00');
    expect(formDefaultValue("'happy'::public.mood")).toBe('happy');
    expect(formDefaultValue('NULL::text')).toBe('');
    expect(formDefaultValue(null)).toBe('');
    expect(formDefaultValue('now()')).toBe('now()');
    expect(formDefaultValue('42')).toBe('42');
    expect(formDefaultValue("nextval('t_id_seq'::regclass)")).toBe("nextval('t_id_seq'::regclass)");
    // Not one literal: left as Postgres printed it.
    expect(formDefaultValue("'a'::text || 'b'::text")).toBe("'a'::text || 'b'::text");
  });

  it('maps a column back to the form: array formats, identity, primary key, foreign key, comment and check', () => {
    expect(columnToFormValues(column('tags'), profilesTable)).toMatchObject({ format: 'text', isArray: true, defaultValue: '{}', isPrimaryKey: false });
    expect(columnToFormValues(column('id'), profilesTable)).toMatchObject({
      format: 'int8',
      isArray: false,
      isIdentity: true,
      isPrimaryKey: true,
      isNullable: false,
      isUnique: true,
      defaultValue: '',
    });
    expect(columnToFormValues(column('username'), profilesTable)).toMatchObject({
      defaultValue: "it's me",
      comment: 'Shown to others',
      check: 'length(username) < 40',
      foreignKey: null,
    });
    expect(columnToFormValues(column('country_id'), profilesTable).foreignKey).toEqual({
      schema: 'public',
      table: 'countries',
      column: 'id',
      deletion_action: 'CASCADE',
      update_action: 'NO ACTION',
    });
    expect(columnToFormValues(column('mood'), profilesTable).format).toBe('mood');
  });
});

describe('column rules', () => {
  it('requires a name and a type with the spec messages', () => {
    expect(validateColumn({ name: '', format: '' })).toEqual({ name: Messages.columnNameRequired, format: Messages.columnTypeRequired });
    expect(validateColumn({ name: '   ', format: 'text' })).toEqual({ name: 'Please assign a name for your column' });
    expect(validateColumn({ name: 'title', format: '' })).toEqual({ format: 'Please select a type for your column' });
    expect(validateColumn({ name: 'x'.repeat(64), format: 'text' }).name).toMatch(/at most 63/);
    expect(validateColumn({ name: 'title', format: 'text' })).toEqual({});
  });

  it('offers identity for integer types only', () => {
    expect(['int2', 'int4', 'int8'].every(isIntegerType)).toBe(true);
    expect(['float4', 'float8', 'numeric', 'text', 'uuid', 'bool', 'timestamptz', ''].some(isIntegerType)).toBe(false);
  });

  it('hints the alternative of discouraged types', () => {
    expect(discouragedTypeHint('varchar')).toMatch(/^Consider using text instead of varchar/);
    expect(discouragedTypeHint('json')).toMatch(/^Consider using jsonb instead of json/);
    expect(discouragedTypeHint('timetz')).toMatch(/^Consider using timestamptz instead of timetz/);
    expect(discouragedTypeHint('timestamp')).toMatch(/^Consider using timestamptz instead of timestamp/);
    expect(discouragedTypeHint('text')).toBeUndefined();
    expect(discouragedTypeHint('timestamptz')).toBeUndefined();
  });
});

describe('column payloads', () => {
  const values = (patch: Partial<ColumnFormValues>): ColumnFormValues => ({ ...NEW_COLUMN, name: 'title', format: 'text', ...patch });

  it('creates with the spec payload, valid against the contract', () => {
    const payload = columnCreatePayload(16392, values({ comment: 'The title', defaultValue: 'untitled', isArray: true, isUnique: true, check: 'title <> \'\'' }));
    expect(payload).toEqual({
      tableId: 16392,
      name: 'title',
      type: 'text[]',
      comment: 'The title',
      check: "title <> ''",
      defaultValue: 'untitled',
      defaultValueFormat: 'literal',
      isIdentity: false,
      isNullable: true,
      isUnique: true,
      isPrimaryKey: false,
      foreignKey: null,
    });
    expect(validCreate(payload)).toBe(true);
  });

  it('sends identity only for integer types, then without a default and never nullable', () => {
    expect(columnCreatePayload(1, values({ format: 'int8', isIdentity: true, defaultValue: '5' }))).toMatchObject({
      isIdentity: true,
      defaultValue: null,
      isNullable: false,
    });
    expect(columnCreatePayload(1, values({ format: 'text', isIdentity: true }))).toMatchObject({ isIdentity: false, isNullable: true });
    expect(columnCreatePayload(1, values({ format: 'int8', isArray: true, isIdentity: true })).isIdentity).toBe(false);
    const pk = columnCreatePayload(1, values({ format: 'uuid', isPrimaryKey: true, defaultValue: 'gen_random_uuid()' }));
    expect(pk).toMatchObject({ isPrimaryKey: true, isNullable: false, defaultValue: 'gen_random_uuid()', defaultValueFormat: 'expression' });
    expect(validCreate(pk)).toBe(true);
  });

  it('updates with only the changed fields', () => {
    const initial = columnToFormValues(column('username'), profilesTable);
    expect(columnUpdatePayload(initial, { ...initial })).toEqual({});
    expect(columnUpdatePayload(initial, { ...initial, name: 'handle' })).toEqual({ name: 'handle' });
    expect(columnUpdatePayload(initial, { ...initial, isNullable: false, isUnique: true })).toEqual({ isNullable: false, isUnique: true });
    expect(columnUpdatePayload(initial, { ...initial, comment: '' })).toEqual({ comment: null });
    expect(columnUpdatePayload(initial, { ...initial, format: 'varchar' })).toEqual({ type: 'varchar' });
    expect(columnUpdatePayload(initial, { ...initial, isArray: true })).toEqual({ type: 'text[]' });
    // A changed default carries its format; a cleared one is null.
    expect(columnUpdatePayload(initial, { ...initial, defaultValue: 'now()' })).toEqual({ defaultValue: 'now()', defaultValueFormat: 'expression' });
    expect(columnUpdatePayload(initial, { ...initial, defaultValue: '' })).toEqual({ defaultValue: null, defaultValueFormat: 'literal' });
    const fk = { schema: 'public', table: 'countries', column: 'id', deletion_action: 'SET NULL' as const, update_action: 'NO ACTION' as const };
    expect(columnUpdatePayload(initial, { ...initial, foreignKey: fk })).toEqual({ foreignKey: fk });
    for (const patch of [{ name: 'handle' }, { defaultValue: '' }, { foreignKey: fk }]) {
      expect(validUpdate(columnUpdatePayload(initial, { ...initial, ...patch }))).toBe(true);
    }

    const withFk = columnToFormValues(column('country_id'), profilesTable);
    expect(columnUpdatePayload(withFk, { ...withFk, foreignKey: null })).toEqual({ foreignKey: null });
    expect(columnUpdatePayload(withFk, { ...withFk, foreignKey: { ...withFk.foreignKey!, deletion_action: 'RESTRICT' } })).toEqual({
      foreignKey: { ...withFk.foreignKey!, deletion_action: 'RESTRICT' },
    });
  });

  it('uses a fixture table that matches the contract', () => {
    expect(ajv.compile(PgTable)(profilesTable)).toBe(true);
  });
});

// ---------------------------------------------------------------- the panel

const COLUMNS = 'POST /api/pg-meta/default/columns';

function answers(extra: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', 'owner'),
    'GET /api/pg-meta/default/schemas': { body: [{ id: 2200, name: 'public', owner: 'postgres' }] },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    'GET /api/pg-meta/default/columns': { body: countryColumns },
    ...extra,
  };
}

function renderEditor(props: { column?: PgColumn } = {}) {
  const onClose = jest.fn();
  const Harness = () => <ColumnEditor table={profilesTable} column={props.column} onClose={onClose} />;
  const view = renderArea(Harness, { mount: 'editor', url: '/project/default/editor/16392' });
  return { ...view, onClose, panel: () => screen.getByRole('dialog') };
}

const typeSelect = () => screen.getByRole('combobox', { name: 'Type' });

describe('ColumnEditor', () => {
  it('shows the spec messages when saved without a name or type, and sends nothing', async () => {
    const fetchMock = mockFetch(answers());
    renderEditor();
    expect(screen.getByRole('dialog', { name: 'Add new column to profiles' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(Messages.columnNameRequired)).toBeTruthy();
    expect(screen.getByText(Messages.columnTypeRequired)).toBeTruthy();
    expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('offers identity only for integer types and clears it when the type changes away', async () => {
    const fetchMock = mockFetch(answers({ [COLUMNS]: { status: 200, body: column('id') } }));
    renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'seq');
    await userEvent.selectOptions(typeSelect(), 'text');
    expect(screen.queryByRole('checkbox', { name: /Is identity/ })).toBeNull();
    await userEvent.selectOptions(typeSelect(), 'int8');
    await userEvent.click(screen.getByRole('checkbox', { name: /Is identity/ }));
    expect((screen.getByRole('textbox', { name: 'Default value' }) as HTMLInputElement).disabled).toBe(true);

    await userEvent.selectOptions(typeSelect(), 'float8');
    expect(screen.queryByRole('checkbox', { name: /Is identity/ })).toBeNull();
    await userEvent.selectOptions(typeSelect(), 'int4');
    expect((screen.getByRole('checkbox', { name: /Is identity/ }) as HTMLInputElement).checked).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.calls.some((c) => c.method === 'POST')).toBe(true));
    const [body] = (await fetchMock.bodiesOf(COLUMNS)) as ColumnCreate[];
    expect(body).toMatchObject({ type: 'int4', isIdentity: false });
  });

  it('hints the alternative of a discouraged type', async () => {
    mockFetch(answers());
    renderEditor();
    await userEvent.selectOptions(typeSelect(), 'json');
    expect(screen.getByRole('note').textContent).toMatch(/Consider using jsonb instead of json/);
    await userEvent.selectOptions(typeSelect(), 'jsonb');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('creates a column with a suggested default, then closes and toasts', async () => {
    const fetchMock = mockFetch(answers({ [COLUMNS]: { status: 200, body: { ...column('username'), name: 'token' } } }));
    const { onClose } = renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'token');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Login token');
    await userEvent.selectOptions(typeSelect(), 'uuid');
    await userEvent.click(within(screen.getByRole('group', { name: 'Suggested default values' })).getByRole('button', { name: 'gen_random_uuid()' }));
    expect((screen.getByRole('textbox', { name: 'Default value' }) as HTMLInputElement).value).toBe('gen_random_uuid()');
    expect(screen.getByText('Used as an SQL expression.')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: /Is unique/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [body] = await fetchMock.bodiesOf(COLUMNS);
    expect(body).toEqual({
      tableId: 16392,
      name: 'token',
      type: 'uuid',
      comment: 'Login token',
      check: null,
      defaultValue: 'gen_random_uuid()',
      defaultValueFormat: 'expression',
      isIdentity: false,
      isNullable: true,
      isUnique: true,
      isPrimaryKey: false,
      foreignKey: null,
    });
    expect(validCreate(body)).toBe(true);
    expect(await screen.findByText('Successfully created column "token"')).toBeTruthy();
  });

  it('edits a column and sends only what changed', async () => {
    const fetchMock = mockFetch(answers({ 'PATCH /api/pg-meta/default/columns/16392.2': { body: { ...column('username'), name: 'handle' } } }));
    const { onClose } = renderEditor({ column: column('username') });
    expect(screen.getByRole('dialog', { name: 'Update column username' })).toBeTruthy();
    const name = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(name.value).toBe('username');
    expect((screen.getByRole('textbox', { name: 'Default value' }) as HTMLInputElement).value).toBe("it's me");
    expect((typeSelect() as HTMLSelectElement).value).toBe('text');
    await userEvent.clear(name);
    await userEvent.type(name, 'handle');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/columns/16392.2')).toEqual([{ name: 'handle' }]);
  });

  it('offers the enum type of an existing enum column and keeps it when saving other changes', async () => {
    const fetchMock = mockFetch(answers({ 'PATCH /api/pg-meta/default/columns/16392.6': { body: column('mood') } }));
    renderEditor({ column: column('mood') });
    expect((typeSelect() as HTMLSelectElement).value).toBe('mood');
    expect(screen.getByRole('option', { name: 'mood — Enum: happy, sad' })).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: /Allow nullable/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/columns/16392.6')).toEqual([{ isNullable: false }]));
  });

  it("shows the server's message in the form and stays open when saving fails", async () => {
    mockFetch(answers({ [COLUMNS]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'column "token" of relation "profiles" already exists' } } }));
    const { onClose } = renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'token');
    await userEvent.selectOptions(typeSelect(), 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByText('column "token" of relation "profiles" already exists');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Add new column to profiles' })).toBeTruthy();
  });

  it('references another table through the foreign key picker', async () => {
    const fetchMock = mockFetch(answers({ [COLUMNS]: { status: 200, body: column('country_id') } }));
    const { onClose } = renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'home_country');
    await userEvent.click(screen.getByRole('button', { name: 'Add foreign key relation' }));
    const fk = screen.getByRole('group', { name: 'Foreign key' });
    await within(fk).findByRole('option', { name: 'countries' });
    await userEvent.selectOptions(within(fk).getByRole('combobox', { name: 'Referenced table' }), 'countries');
    await within(fk).findByRole('option', { name: 'id (int8)' });
    await userEvent.selectOptions(within(fk).getByRole('combobox', { name: 'Referenced column' }), 'id');
    // A column without a type takes the referenced column's.
    expect((typeSelect() as HTMLSelectElement).value).toBe('int8');
    await userEvent.selectOptions(within(fk).getByRole('combobox', { name: 'Action on delete' }), 'SET NULL');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [body] = await fetchMock.bodiesOf(COLUMNS);
    expect(body).toMatchObject({ name: 'home_country', type: 'int8', foreignKey: { schema: 'public', table: 'countries', column: 'id', deletion_action: 'SET NULL', update_action: 'NO ACTION' } });
    expect(validCreate(body)).toBe(true);
    const columnsCall = fetchMock.calls.find((c) => new URL(c.url).pathname === '/api/pg-meta/default/columns' && c.method === 'GET')!;
    expect(new URL(columnsCall.url).searchParams.get('table_id')).toBe('16385');
  });

  it('refuses a foreign key without its column', async () => {
    const fetchMock = mockFetch(answers());
    renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'home_country');
    await userEvent.selectOptions(typeSelect(), 'int8');
    await userEvent.click(screen.getByRole('button', { name: 'Add foreign key relation' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please choose the table and column this column references')).toBeTruthy();
    expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('makes a primary key or identity column not nullable', async () => {
    mockFetch(answers());
    renderEditor();
    const nullable = () => screen.getByRole('checkbox', { name: /Allow nullable/ }) as HTMLInputElement;
    expect(nullable().checked).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: /Is primary key/ }));
    expect(nullable().checked).toBe(false);
    expect(nullable().disabled).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: /Is primary key/ }));
    expect(nullable().disabled).toBe(false);
    await userEvent.click(nullable());
    await userEvent.selectOptions(typeSelect(), 'int2');
    await userEvent.click(screen.getByRole('checkbox', { name: /Is identity/ }));
    expect(nullable().checked).toBe(false);
    expect(nullable().disabled).toBe(true);
  });

  it('closes on Escape, and Escape in the discard confirmation only answers it', async () => {
    mockFetch(answers());
    const { onClose } = renderEditor();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'x');
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: 'Discard changes' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes' })).toBeNull());
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Add new column to profiles' })).toBeTruthy();
  });

  it('asks before discarding changes', async () => {
    mockFetch(answers());
    const { onClose } = renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);

    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Discard changes' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Discard changes' })).getByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
