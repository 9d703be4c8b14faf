import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bootstrapRoles, mockFetch, pgRole, renderArea } from '@dash/shell-sdk/testing';
import { CHANGES_SAVED_INDICATOR_MS, Messages } from '@dash/contracts';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import {
  API,
  COUNT,
  COUNTRIES_ID,
  COUNTRIES_URL,
  DELETE,
  INSERT,
  SELECT,
  TRUNCATE,
  UPDATE,
  VALUE,
  countryRow,
  gridAnswers,
  noKeyTable,
  rowsReply,
} from './grid-fixtures';
import { giveElementsASize } from './grid-setup';

giveElementsASize();
beforeEach(() => localStorage.clear());

type Body = Record<string, unknown>;
/** Update bodies without `expected`, the concurrent-editor guard's basis (checked in grid-conflicts.test.tsx). */
const updates = async (fetchMock: { bodiesOf: (key: string) => Promise<unknown[]> }) =>
  ((await fetchMock.bodiesOf(UPDATE)) as Body[]).map(({ expected: _basis, expectedJsonNulls: _jsonNulls, ...body }) => body);
const grid = () => screen.getByRole('grid', { name: 'Table rows' });
const headerNames = () => within(grid()).getAllByRole('columnheader').map((h) => h.querySelector('.te-col-header__name')?.textContent ?? '');
function cell(column: string, row: number): HTMLElement {
  const index = headerNames().indexOf(column);
  return within(within(grid()).getAllByRole('row')[row + 1]).getAllByRole('gridcell')[index];
}
/** Answers an update with the row as the database would return it. */
const updateAnswer = async (request: Request) => {
  const { match, values } = (await request.json()) as { match: { id: number }; values: Body };
  return { body: { row: { ...countryRow(match.id), ...values } } };
};

async function openGrid(role: 'owner' | 'read_only' = 'owner', overrides = {}) {
  const fetchMock = mockFetch(gridAnswers(role, { [UPDATE]: updateAnswer, ...overrides }));
  const view = renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
  await screen.findByText('Country 1');
  return { fetchMock, view };
}

describe('grid: cell editing', () => {
  it('saves an edited cell by primary key, says Changes saved, then offers Refresh again', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('name', 0));
    const input = screen.getByRole('textbox', { name: 'Edit name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Atlantis{Enter}');

    expect(await screen.findByText(Messages.changesSaved)).toBeTruthy();
    expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { name: 'Atlantis' } }]);
    expect(cell('name', 0).textContent).toBe('Atlantis');
    await waitFor(() => expect(screen.queryByText(Messages.changesSaved)).toBeNull(), { timeout: CHANGES_SAVED_INDICATOR_MS + 1000 });
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });

  it('undoes the last edit from the footer by writing the previous value back', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('name', 1));
    const input = screen.getByRole('textbox', { name: 'Edit name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Oops{Enter}');
    await screen.findByText('Oops');

    await userEvent.click(screen.getByRole('button', { name: 'Undo edit of name' }));
    await waitFor(() => expect(cell('name', 1).textContent).toBe('Country 2'));
    expect(await updates(fetchMock)).toEqual([
      { match: { id: 2 }, values: { name: 'Oops' } },
      { match: { id: 2 }, values: { name: 'Country 2' } },
    ]);
    expect(screen.queryByRole('button', { name: 'Undo edit of name' })).toBeNull();
  });

  it('undoes with Ctrl+Z in the grid', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('capital_id', 0));
    const input = screen.getByRole('textbox', { name: 'Edit capital_id' });
    await userEvent.clear(input);
    await userEvent.type(input, '77{Enter}');
    await waitFor(() => expect(cell('capital_id', 0).textContent).toContain('77'));
    fireEvent.keyDown(cell('capital_id', 0), { key: 'z', ctrlKey: true });
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 1 }, values: { capital_id: '10' } }));
  });

  it('sends NULL for an emptied cell and nothing when the value did not change', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('name', 2));
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit name' }), '{Enter}');
    await userEvent.dblClick(cell('name', 2));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Edit name' }));
    await userEvent.keyboard('{Enter}');
    await screen.findByText(Messages.changesSaved);
    expect(await updates(fetchMock)).toEqual([{ match: { id: 3 }, values: { name: null } }]);
    expect(within(cell('name', 2)).getByText('NULL')).toBeTruthy();
  });

  it('refuses invalid JSON with the spec message and sends nothing; valid JSON is sent as JSON', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('data', 0));
    const area = screen.getByRole('textbox', { name: 'Edit data' });
    await userEvent.clear(area);
    await userEvent.type(area, '{{"iso": ');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(Messages.invalidJson);
    expect(await updates(fetchMock)).toEqual([]);

    await userEvent.type(area, '"XX"}');
    await userEvent.keyboard('{Enter}');
    await screen.findByText(Messages.changesSaved);
    expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { data: '{"iso":"XX"}' } }]);
  });

  it('edits booleans and enums with a choice, NULL included', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('active', 0));
    const active = screen.getByRole('combobox', { name: 'Edit active' });
    expect(within(active).getAllByRole('option').map((o) => o.textContent)).toEqual(['true', 'false', 'NULL']);
    await userEvent.selectOptions(active, 'NULL');
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { active: null } }]));

    await userEvent.dblClick(cell('continent', 1));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Edit continent' }), 'Africa');
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 2 }, values: { continent: 'Africa' } }));
  });

  it('moves between cells with the arrow keys and edits the active cell with Enter', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.click(cell('name', 0));
    expect(cell('name', 0).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(cell('name', 2).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowUp}');
    expect(cell('name', 1).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    const input = screen.getByRole('textbox', { name: 'Edit name' });
    expect((input as HTMLInputElement).value).toBe('Country 2');
    await userEvent.clear(input);
    await userEvent.type(input, 'By keyboard{Enter}');
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 2 }, values: { name: 'By keyboard' } }]));
    expect(cell('name', 1).textContent).toBe('By keyboard');
  });

  it('cancels an edit with Escape', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('name', 0));
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit name' }), ' changed');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
    expect(cell('name', 0).textContent).toBe('Country 1');
    expect(await updates(fetchMock)).toEqual([]);
  });

  it('puts the old value back and shows the error when the update fails', async () => {
    await openGrid('owner', { [UPDATE]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'value too long for type character varying(3)' } } });
    await userEvent.dblClick(cell('name', 0));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Edit name' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit name' }), 'Too long{Enter}');
    expect(await screen.findByText('value too long for type character varying(3)')).toBeTruthy();
    expect(cell('name', 0).textContent).toBe('Country 1');
    expect(screen.queryByText(Messages.changesSaved)).toBeNull();
  });

  it('does not edit primary keys, and says why encrypted columns cannot be edited', async () => {
    await openGrid();
    await userEvent.dblClick(cell('id', 0));
    expect(screen.queryByRole('textbox', { name: 'Edit id' })).toBeNull();
    await userEvent.dblClick(cell('secret', 0));
    expect(screen.queryByRole('textbox', { name: 'Edit secret' })).toBeNull();
    expect(await screen.findByText(Messages.encryptedNotEditable)).toBeTruthy();
  });

  it('edits nothing in a table without a primary key and says why', async () => {
    await openGrid('owner', { [`GET ${API}/tables/${COUNTRIES_ID}`]: { body: noKeyTable } });
    await userEvent.dblClick(cell('name', 0));
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
    expect(await screen.findByText(Messages.noPrimaryKeyForWrite)).toBeTruthy();
  });

  it('lets read-only members edit nothing', async () => {
    await openGrid('read_only');
    await userEvent.dblClick(cell('name', 0));
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
  });
});

describe('grid: selection and deletion', () => {
  it('deletes the selected rows by primary key after confirmation', async () => {
    const { fetchMock } = await openGrid('owner', { [DELETE]: { body: { deleted: 2 } } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    expect(screen.getByText('2 rows selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 selected rows' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Deleted 2 rows')).toBeTruthy();
    expect(await fetchMock.bodiesOf(DELETE)).toEqual([{ matches: [{ id: 1 }, { id: 3 }] }]);
    await waitFor(async () => expect((await fetchMock.bodiesOf(SELECT)).length).toBe(2));
    expect(screen.queryByText(/rows? selected/)).toBeNull();
  });

  it('sends nothing when the deletion is cancelled', async () => {
    const { fetchMock } = await openGrid('owner', { [DELETE]: { body: { deleted: 1 } } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(await fetchMock.bodiesOf(DELETE)).toEqual([]);
    expect(screen.getByText('1 row selected')).toBeTruthy();
  });

  it('selects all rows across the count, then deletes every row matching the filters', async () => {
    const { fetchMock } = await openGrid('owner', { [COUNT]: { body: { count: 250, estimate: false } }, [DELETE]: { body: { deleted: 250 } } });
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Value of filter 1' }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filter' }));
    await screen.findByRole('button', { name: 'Filtered by 1 rule' });
    await screen.findByText(Messages.records(250));

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText(/All 3 rows on this page are selected/)).toBeTruthy();
    expect(screen.getByText('3 rows selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Select all 250 rows' }));
    expect(screen.getByText(/All 250 rows matching the filters are selected/)).toBeTruthy();
    expect(screen.getByText('250 rows selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete 250 rows' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete 250 rows' })).getByRole('button', { name: 'Delete rows' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf(DELETE)).toEqual([{ filters: [{ column: 'id', operator: 'eq', value: '5' }] }]));
    expect(await screen.findByText('Deleted 250 rows')).toBeTruthy();
    expect(screen.queryByText(/rows? selected/)).toBeNull();
  });

  it('leaves the all-rows mode when a row is unchecked', async () => {
    await openGrid('owner', { [COUNT]: { body: { count: 250, estimate: false } } });
    await screen.findByText(Messages.records(250));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select all 250 rows' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect(screen.getByText('2 rows selected')).toBeTruthy();
    expect(screen.queryByText(/All 250 rows/)).toBeNull();
  });

  it('truncates when all rows are selected without filters, but not while impersonating a role', async () => {
    const { fetchMock } = await openGrid('owner', { [COUNT]: { body: { count: 250, estimate: false } }, [TRUNCATE]: { body: { ok: true } } });
    await screen.findByText(Messages.records(250));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select all 250 rows' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete 250 rows' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete all rows of countries' })).getByRole('button', { name: 'Delete all rows' }));
    await waitFor(() => expect(fetchMock.calls.filter((c) => `${c.method} ${new URL(c.url).pathname}` === TRUNCATE)).toHaveLength(1));

    await userEvent.click(screen.getByRole('button', { name: 'Role: postgres (default)' }));
    await userEvent.click(screen.getByRole('radio', { name: 'anon' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText(/Acting as/);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select all 250 rows' }));
    const remove = screen.getByRole('button', { name: 'Delete 250 rows' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await userEvent.hover(remove.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.truncateWhileImpersonating);

    // A CSV import runs as the table's owner, so it is refused while another role is shown.
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear selection' })[0]!);
    await userEvent.click(screen.getByRole('button', { name: 'Insert' }));
    const importItem = screen.getByRole('menuitem', { name: /Import data from CSV/ }) as HTMLButtonElement;
    expect(importItem.disabled).toBe(true);
    expect(importItem.title).toBe(Messages.csvImportWhileImpersonating);
    expect((screen.getByRole('menuitem', { name: /Insert row/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks before changing page with a selection, and clears it', async () => {
    const { fetchMock } = await openGrid('owner', { [COUNT]: { body: { count: 250, estimate: false } } });
    await screen.findByText('of 3');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear the selection?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('1 row selected')).toBeTruthy();
    expect(((await fetchMock.bodiesOf(SELECT)) as Body[]).map((b) => b.page)).toEqual([1]);

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Change page' }));
    await waitFor(async () => expect(((await fetchMock.bodiesOf(SELECT)) as Body[]).map((b) => b.page)).toEqual([1, 2]));
    expect(screen.queryByText(/rows? selected/)).toBeNull();
  });

  it('refuses to delete selected rows of a table without a primary key', async () => {
    await openGrid('owner', { [`GET ${API}/tables/${COUNTRIES_ID}`]: { body: noKeyTable } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    const remove = screen.getByRole('button', { name: 'Delete selected' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await userEvent.hover(remove.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.noPrimaryKeyForWrite);
  });
});

describe('grid: impersonation', () => {
  it('sends the chosen role with every row call and shows it while active', async () => {
    const { fetchMock } = await openGrid('owner', {
      [`GET ${API}/roles`]: { body: [] },
      [DELETE]: { body: { deleted: 1 } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Role: postgres (default)' }));
    await userEvent.click(screen.getByRole('radio', { name: 'authenticated' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'User id (optional)' }), 'user-42');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));

    expect((await screen.findByText(/Acting as/)).textContent).toBe('Acting as authenticated (user-42)Stop');
    const role = { role: 'authenticated', userId: 'user-42' };
    await waitFor(async () => expect((await fetchMock.bodiesOf(SELECT)).at(-1)).toEqual({ filters: [], sorts: [], page: 1, limit: 100, role }));
    expect((await fetchMock.bodiesOf(COUNT)).at(-1)).toEqual({ filters: [], role });
    expect(screen.getByRole('button', { name: 'Role: authenticated' })).toBeTruthy();

    await screen.findByText('Country 1');
    await userEvent.dblClick(cell('name', 0));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Edit name' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit name' }), 'As user{Enter}');
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { name: 'As user' }, role }]));

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.queryByText(/Acting as/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Role: postgres (default)' })).toBeTruthy();
    await screen.findByText('Country 2');
    fireEvent.contextMenu(cell('name', 0));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete row' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this row?' })).getByRole('button', { name: 'Delete' }));
    // Back to the default role: no role in the body.
    await waitFor(async () => expect(await fetchMock.bodiesOf(DELETE)).toEqual([{ matches: [{ id: 1 }] }]));
  });

  it('offers the database roles besides the built-in ones, but none it cannot act as', async () => {
    const roles = [
      ...bootstrapRoles(),
      pgRole(20, 'reporting'),
      pgRole(21, 'pg_read_all_data'),
      pgRole(22, 'postgres_admin_copy', { is_superuser: true }),
      pgRole(23, 'dash_project_ro', { can_login: true, can_bypass_rls: true }),
      pgRole(24, 'pgbouncer', { can_login: true }),
    ];
    const { fetchMock } = await openGrid('owner', { [`GET ${API}/roles`]: { body: roles } });
    await userEvent.click(screen.getByRole('button', { name: 'Role: postgres (default)' }));
    const other = await screen.findByRole('combobox', { name: 'Other role' });
    // service_role is a NOLOGIN role requests act as; authenticator, dashboard_user and the rest are not.
    await waitFor(() => expect(within(other).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a role', 'service_role', 'reporting']));
    await userEvent.selectOptions(other, 'reporting');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(async () => expect((await fetchMock.bodiesOf(SELECT)).at(-1)).toMatchObject({ role: { role: 'reporting' } }));
  });
});

describe('grid: row panel and context menu', () => {
  it('inserts a row from the side panel, leaving empty fields to their defaults', async () => {
    const { fetchMock } = await openGrid('owner', { [INSERT]: { status: 201, body: { row: countryRow(9) } } });
    await userEvent.click(screen.getByRole('button', { name: 'Insert' }));
    await userEvent.click(screen.getByRole('menuitem', { name: /Insert row/ }));
    const panel = await screen.findByRole('dialog', { name: 'Insert a new row into countries' });
    expect(within(panel).getByLabelText(/^active/).textContent).toContain('Default: true');
    expect((within(panel).getByLabelText(/^founded/) as HTMLInputElement).getAttribute('aria-describedby')).toBeTruthy();
    expect(panel.textContent).toContain(Messages.timestamptzHint);
    await userEvent.type(within(panel).getByLabelText(/^name/), 'Wakanda');
    await userEvent.type(within(panel).getByLabelText(/^data/), '{{"iso": "WK"}');
    await userEvent.selectOptions(within(panel).getByLabelText(/^continent/), 'Africa');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Inserted a row into countries')).toBeTruthy();
    expect(await fetchMock.bodiesOf(INSERT)).toEqual([{ values: { name: 'Wakanda', data: '{"iso":"WK"}', continent: 'Africa' } }]);
    expect(screen.queryByRole('dialog', { name: 'Insert a new row into countries' })).toBeNull();
    await waitFor(async () => expect((await fetchMock.bodiesOf(SELECT)).length).toBe(2));
  });

  it('keeps the panel open with the JSON error when a field does not parse', async () => {
    const { fetchMock } = await openGrid('owner', { [INSERT]: { status: 201, body: { row: countryRow(9) } } });
    await userEvent.click(screen.getByRole('button', { name: 'Insert' }));
    await userEvent.click(screen.getByRole('menuitem', { name: /Insert row/ }));
    const panel = screen.getByRole('dialog', { name: 'Insert a new row into countries' });
    await userEvent.type(within(panel).getByLabelText(/^data/), 'not json');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(within(panel).getByText(Messages.invalidJson)).toBeTruthy();
    expect(await fetchMock.bodiesOf(INSERT)).toEqual([]);
  });

  it('edits a row from the context menu, sending only the changed fields', async () => {
    const { fetchMock } = await openGrid();
    fireEvent.contextMenu(cell('name', 1));
    await userEvent.click(within(screen.getByRole('menu', { name: 'Row actions' })).getByRole('menuitem', { name: 'Edit row' }));
    const panel = screen.getByRole('dialog', { name: 'Update row from countries' });
    expect((within(panel).getByLabelText(/^id/) as HTMLInputElement).disabled).toBe(true);
    const name = within(panel).getByLabelText(/^name/) as HTMLInputElement;
    expect(name.value).toBe('Country 2');
    await userEvent.clear(name);
    await userEvent.type(name, 'Renamed');
    await userEvent.clear(within(panel).getByLabelText(/^capital_id/));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 2 }, values: { name: 'Renamed', capital_id: null } }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());
  });

  it('deletes a row from the context menu after confirmation', async () => {
    const { fetchMock } = await openGrid('owner', { [DELETE]: { body: { deleted: 1 } } });
    fireEvent.contextMenu(cell('name', 2));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete row' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this row?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf(DELETE)).toEqual([{ matches: [{ id: 3 }] }]));
  });

  it('copies a cell, and only warns in the console when the clipboard refuses', async () => {
    await openGrid('read_only');
    const writeText = jest.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('Document is not focused'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});

    fireEvent.contextMenu(cell('data', 0));
    const menu = screen.getByRole('menu', { name: 'Row actions' });
    expect(within(menu).queryByRole('menuitem', { name: 'Edit row' })?.hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Copy cell content' }));
    expect(writeText).toHaveBeenLastCalledWith('{"iso":"C1"}');
    expect(await screen.findByText('Copied cell content')).toBeTruthy();

    fireEvent.contextMenu(cell('name', 1));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Copy cell content' }));
    expect(writeText).toHaveBeenLastCalledWith('Country 2');
    await waitFor(() => expect(warn.mock.calls.some(([message]) => String(message).includes('Could not copy'))).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
    warn.mockRestore();
  });
});

describe('grid: the row panel keeps every value whole', () => {
  const LONG = 'x'.repeat(50);
  /** A page whose second row has its name cut, as the service sends a value over the cell limit. */
  const cutPage = () => {
    const page = rowsReply(1, 3, [{ row: 1, column: 'name' }]);
    page.rows[1].name = `${LONG.slice(0, 10)}...`;
    return page;
  };
  const editRow = async (row: number) => {
    fireEvent.contextMenu(cell('name', row));
    await userEvent.click(within(screen.getByRole('menu', { name: 'Row actions' })).getByRole('menuitem', { name: 'Edit row' }));
    return screen.findByRole('dialog', { name: 'Update row from countries' });
  };

  it('loads a cut value in full before its field can be edited, and never writes the cut text back', async () => {
    const { fetchMock } = await openGrid('owner', { [SELECT]: { body: cutPage() }, [VALUE]: { body: { value: LONG } } });
    const panel = await editRow(1);
    const name = within(panel).getByLabelText(/^name/) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe(LONG));
    expect(name.disabled).toBe(false);
    expect(await fetchMock.bodiesOf(VALUE)).toEqual([{ match: { id: 2 }, column: 'name' }]);

    // Another field changed: the untouched long value is not sent at all.
    await userEvent.clear(within(panel).getByLabelText(/^capital_id/));
    await userEvent.type(within(panel).getByLabelText(/^capital_id/), '5');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 2 }, values: { capital_id: '5' } }]));

    // An edit of the long value sends the whole edited text.
    const again = await editRow(1);
    const field = within(again).getByLabelText(/^name/) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe(LONG));
    await userEvent.type(field, '!');
    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 2 }, values: { name: `${LONG}!` } }));
  });

  it('keeps a cut field read-only, and out of the save, when its full value cannot be loaded', async () => {
    const { fetchMock } = await openGrid('owner', {
      [SELECT]: { body: cutPage() },
      [VALUE]: { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'The row was not found' } },
    });
    const panel = await editRow(1);
    expect(await within(panel).findByText(/The full value could not be loaded, so this field is not saved: The row was not found/)).toBeTruthy();
    expect((within(panel).getByLabelText(/^name/) as HTMLInputElement).disabled).toBe(true);
    await userEvent.type(within(panel).getByLabelText(/^capital_id/), '9');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 2 }, values: { capital_id: '209' } }]));
  });

  it('round-trips a JSON string, number and null: shown as JSON, untouched ones not sent, edits sent as JSON text', async () => {
    const page = rowsReply(1, 3);
    page.rows[0].data = 'str';
    page.rows[1].data = 42;
    const { fetchMock } = await openGrid('owner', { [SELECT]: { body: page } });
    expect(cell('data', 0).textContent).toBe('"str"');
    expect(cell('data', 1).textContent).toBe('42');

    let panel = await editRow(0);
    const data = within(panel).getByLabelText(/^data/) as HTMLTextAreaElement;
    expect(data.value).toBe('"str"');
    await userEvent.type(within(panel).getByLabelText(/^capital_id/), '1');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { capital_id: '101' } }]));
    expect(screen.queryByText(Messages.invalidJson)).toBeNull();

    panel = await editRow(1);
    const number = within(panel).getByLabelText(/^data/) as HTMLTextAreaElement;
    expect(number.value).toBe('42');
    await userEvent.clear(number);
    await userEvent.type(number, '"other"');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 2 }, values: { data: '"other"' } }));

    panel = await editRow(2);
    await userEvent.clear(within(panel).getByLabelText(/^data/));
    await userEvent.type(within(panel).getByLabelText(/^data/), 'null');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    // JSON null, not SQL NULL (which an emptied field sends).
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 3 }, values: { data: 'null' } }));
  });

  it("asks 'Discard changes' when Escape or Cancel would drop an edit, and closes an untouched panel at once", async () => {
    const { fetchMock } = await openGrid();
    await editRow(1);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull();
    expect(screen.queryByRole('dialog', { name: Messages.discardChanges })).toBeNull();

    const panel = await editRow(1);
    await userEvent.type(within(panel).getByLabelText(/^name/), ' half done');
    await userEvent.keyboard('{Escape}');
    const ask = screen.getByRole('dialog', { name: Messages.discardChanges });
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect((within(panel).getByLabelText(/^name/) as HTMLInputElement).value).toBe('Country 2 half done');

    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: Messages.discardChanges })).getByRole('button', { name: Messages.discardChanges }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());
    expect(await updates(fetchMock)).toEqual([]);
  });
});

describe('grid: JSON null and SQL NULL', () => {
  /** Answers an update as the service does: a JSON column's text stored as JSON, JSON nulls listed. */
  const jsonUpdateAnswer = async (request: Request) => {
    const { match, values } = (await request.json()) as { match: { id: number }; values: Body };
    const row: Body = { ...countryRow(match.id), ...values };
    if (typeof values.data === 'string') row.data = JSON.parse(values.data) as unknown;
    return { body: { row, ...(typeof values.data === 'string' && row.data === null ? { jsonNulls: ['data'] } : {}) } };
  };
  const openNulls = () => {
    const page = rowsReply(1, 3);
    page.rows[0].data = null;
    page.rows[1].data = null;
    return openGrid('owner', { [SELECT]: { body: { ...page, jsonNulls: [{ row: 0, column: 'data' }] } }, [UPDATE]: jsonUpdateAnswer });
  };
  const editData = async (row: number, text: string) => {
    await userEvent.dblClick(cell('data', row));
    const area = screen.getByRole('textbox', { name: 'Edit data' }) as HTMLTextAreaElement;
    const before = area.value;
    await userEvent.clear(area);
    if (text) await userEvent.type(area, text);
    await userEvent.keyboard('{Enter}');
    return before;
  };

  it('shows a JSON null as null and SQL NULL as NULL, and edits turn one into the other only when asked', async () => {
    const { fetchMock } = await openNulls();
    expect(cell('data', 0).textContent).toBe('null');
    expect(cell('data', 0).querySelector('.te-cell__null')).toBeNull();
    expect(cell('data', 1).textContent).toBe('NULL');

    // The editor starts from `null`; saving it unchanged writes nothing.
    expect(await editData(0, 'null')).toBe('null');
    expect(await editData(1, '')).toBe('');
    expect(await updates(fetchMock)).toEqual([]);

    // SQL NULL to JSON null, and JSON null to SQL NULL (an emptied editor).
    await editData(1, 'null');
    await waitFor(() => expect(cell('data', 1).textContent).toBe('null'));
    await editData(0, '');
    await waitFor(() => expect(cell('data', 0).textContent).toBe('NULL'));
    expect(await updates(fetchMock)).toEqual([
      { match: { id: 2 }, values: { data: 'null' } },
      { match: { id: 1 }, values: { data: null } },
    ]);    // The second edit's basis is row 1's JSON null, named as one (an SQL NULL basis would not be).
    const bases = ((await fetchMock.bodiesOf(UPDATE)) as Body[]).map(({ expected, expectedJsonNulls }) => ({ expected, expectedJsonNulls }));
    expect(bases).toEqual([{ expected: { data: null } }, { expected: { data: null }, expectedJsonNulls: ['data'] }]);
  });

  it('round-trips a JSON null through the row panel; an emptied field is SQL NULL', async () => {
    const { fetchMock } = await openNulls();
    const editRow = async (row: number) => {
      fireEvent.contextMenu(cell('name', row));
      await userEvent.click(within(screen.getByRole('menu', { name: 'Row actions' })).getByRole('menuitem', { name: 'Edit row' }));
      return screen.findByRole('dialog', { name: 'Update row from countries' });
    };
    let panel = await editRow(0);
    expect((within(panel).getByLabelText(/^data/) as HTMLTextAreaElement).value).toBe('null');
    await userEvent.type(within(panel).getByLabelText(/^capital_id/), '1');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { capital_id: '101' } }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());

    panel = await editRow(1);
    expect((within(panel).getByLabelText(/^data/) as HTMLTextAreaElement).value).toBe('');
    await userEvent.type(within(panel).getByLabelText(/^data/), 'null');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 2 }, values: { data: 'null' } }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());

    panel = await editRow(0);
    await userEvent.clear(within(panel).getByLabelText(/^data/));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await updates(fetchMock)).at(-1)).toEqual({ match: { id: 1 }, values: { data: null } }));
  });
});

describe('grid: copy and paste', () => {
  /** A clipboard event's data as the browser gives it: what is set, and what a paste reads. */
  const clipboard = (text = '') => {
    const data = new Map<string, string>([['text/plain', text]]);
    return { setData: (type: string, value: string) => data.set(type, value), getData: (type: string) => data.get(type) ?? '', data };
  };

  it("copies the selected cell's value with Ctrl/Cmd+C, JSON as JSON", async () => {
    await openGrid('read_only');
    await userEvent.click(cell('name', 1));
    const copied = clipboard();
    fireEvent.copy(cell('name', 1), { clipboardData: copied });
    expect(copied.data.get('text/plain')).toBe('Country 2');

    await userEvent.click(cell('data', 0));
    const json = clipboard();
    fireEvent.copy(cell('data', 0), { clipboardData: json });
    expect(json.data.get('text/plain')).toBe('{"iso":"C1"}');
  });

  it('writes pasted text into the selected cell, and nothing when the clipboard has no text', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.click(cell('name', 0));
    fireEvent.paste(cell('name', 0), { clipboardData: clipboard('') });
    // No editor opened on the paste, so leaving the cell has nothing to commit.
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
    await userEvent.click(cell('capital_id', 2));
    expect(cell('name', 0).textContent).toBe('Country 1');
    expect(await updates(fetchMock)).toEqual([]);

    await userEvent.click(cell('name', 0));
    fireEvent.paste(cell('name', 0), { clipboardData: clipboard('Pasted') });
    await waitFor(async () => expect(await updates(fetchMock)).toEqual([{ match: { id: 1 }, values: { name: 'Pasted' } }]));
    expect(cell('name', 0).textContent).toBe('Pasted');
  });

  it('leaves copy and paste inside a cell editor to the editor', async () => {
    const { fetchMock } = await openGrid();
    await userEvent.dblClick(cell('name', 0));
    const input = screen.getByRole('textbox', { name: 'Edit name' });
    const copied = clipboard();
    fireEvent.copy(input, { clipboardData: copied });
    fireEvent.paste(input, { clipboardData: clipboard('from outside') });
    expect(copied.data.get('text/plain')).toBe('');
    expect(screen.getByRole('textbox', { name: 'Edit name' })).toBeTruthy();
    expect(await updates(fetchMock)).toEqual([]);
  });
});
