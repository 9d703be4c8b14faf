import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderArea } from '@dash/shell-sdk/testing';
import { Messages, ROW_CHANGED, RowConflictMessages } from '@dash/contracts';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import { COUNTRIES_URL, SELECT, UPDATE, VALUE, countryRow, gridAnswers, rowsReply } from './grid-fixtures';
import { giveElementsASize } from './grid-setup';

/*
 * Concurrent editors (issue 15, section 5): every cell edit and row save sends the values it was based
 * on; a 409 ROW_CHANGED puts the other editor's row in the grid and says the edit was not saved.
 * The network is mocked at fetch, as the service answers.
 */

giveElementsASize();
beforeEach(() => localStorage.clear());

type Body = Record<string, unknown>;
const grid = () => screen.getByRole('grid', { name: 'Table rows' });
const headerNames = () => within(grid()).getAllByRole('columnheader').map((h) => h.querySelector('.te-col-header__name')?.textContent ?? '');
function cell(column: string, row: number): HTMLElement {
  const index = headerNames().indexOf(column);
  return within(within(grid()).getAllByRole('row')[row + 1]).getAllByRole('gridcell')[index];
}

/** The service's 409 when someone else changed row `id`: their row comes back as it is now. */
const conflictReply = (row: Body, truncated: string[] = []) => ({
  status: 409,
  body: { statusCode: 409, error: 'Conflict', message: RowConflictMessages.reply, code: ROW_CHANGED, current: { row, truncated } },
});
const saved = async (request: Request) => {
  const { match, values } = (await request.json()) as { match: { id: number }; values: Body };
  return { body: { row: { ...countryRow(match.id), ...values } } };
};

async function openGrid(update: (request: Request) => Promise<{ status?: number; body: unknown }>, overrides = {}) {
  const fetchMock = mockFetch(gridAnswers('owner', { [UPDATE]: update, ...overrides }));
  renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
  await screen.findByText('Country 1');
  return fetchMock;
}

async function typeInto(column: string, row: number, text: string) {
  await userEvent.dblClick(cell(column, row));
  const input = screen.getByRole('textbox', { name: `Edit ${column}` });
  await userEvent.clear(input);
  await userEvent.type(input, `${text}{Enter}`);
}

describe('grid: concurrent editors', () => {
  it('sends the edited cell’s value as shown as the basis of a cell edit, and of its undo', async () => {
    const fetchMock = await openGrid(saved);
    await typeInto('name', 1, 'Mine');
    await screen.findByText(Messages.changesSaved);
    await userEvent.click(screen.getByRole('button', { name: 'Undo edit of name' }));
    await waitFor(() => expect(cell('name', 1).textContent).toBe('Country 2'));
    expect(await fetchMock.bodiesOf(UPDATE)).toEqual([
      { match: { id: 2 }, values: { name: 'Mine' }, expected: { name: 'Country 2' } },
      { match: { id: 2 }, values: { name: 'Country 2' }, expected: { name: 'Mine' } },
    ]);
  });

  it('on a conflict shows the other editor’s row in place and says the typed value was not saved', async () => {
    const theirs = countryRow(2, { name: 'Theirs', capital_id: 99 });
    const fetchMock = await openGrid(async () => conflictReply(theirs));
    await typeInto('name', 1, 'Mine');

    expect(await screen.findByText(RowConflictMessages.title)).toBeTruthy();
    expect(screen.getByText(RowConflictMessages.cellNotSaved('name', 'Mine'))).toBeTruthy();
    await waitFor(() => expect(cell('name', 1).textContent).toBe('Theirs'));
    expect(cell('capital_id', 1).textContent).toContain('99');
    expect(cell('name', 0).textContent).toBe('Country 1');
    expect(screen.queryByText(Messages.changesSaved)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo edit of name' })).toBeNull();
    expect(await fetchMock.bodiesOf(UPDATE)).toEqual([{ match: { id: 2 }, values: { name: 'Mine' }, expected: { name: 'Country 2' } }]);

    // The next edit is based on what the grid shows now.
    await typeInto('name', 1, 'Again');
    await waitFor(async () => expect((await fetchMock.bodiesOf(UPDATE)).at(-1)).toEqual({ match: { id: 2 }, values: { name: 'Again' }, expected: { name: 'Theirs' } }));
  });

  it('keeps a cell the other editor’s row has cut as cut (Load full value) after a conflict', async () => {
    await openGrid(async () => conflictReply(countryRow(1, { name: 'long...' }), ['name']));
    await typeInto('name', 0, 'Mine');
    await screen.findByText(RowConflictMessages.title);
    await waitFor(() => expect(cell('name', 0).textContent).toContain('long...'));
    expect(within(cell('name', 0)).getByRole('button', { name: Messages.loadFullValue })).toBeTruthy();
  });
});

describe('row panel: concurrent editors', () => {
  const editRow = async (row: number) => {
    fireEvent.contextMenu(cell('name', row));
    await userEvent.click(within(screen.getByRole('menu', { name: 'Row actions' })).getByRole('menuitem', { name: 'Edit row' }));
    return screen.findByRole('dialog', { name: 'Update row from countries' });
  };

  it('sends every value it showed as the basis; a cut one only once loaded in full', async () => {
    const page = rowsReply(1, 3, [{ row: 1, column: 'name' }]);
    page.rows[1].name = 'xxxxx...';
    const fetchMock = await openGrid(saved, { [SELECT]: { body: page }, [VALUE]: { body: { value: 'x'.repeat(40) } } });
    const panel = await editRow(1);
    await waitFor(() => expect((within(panel).getByLabelText(/^name/) as HTMLInputElement).value).toBe('x'.repeat(40)));
    await userEvent.type(within(panel).getByLabelText(/^capital_id/), '1');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(async () =>
      expect(await fetchMock.bodiesOf(UPDATE)).toEqual([{ match: { id: 2 }, values: { capital_id: '201' }, expected: countryRow(2, { name: 'x'.repeat(40) }) }]),
    );
  });

  it('on a conflict stays open: the typed value stays, untouched fields take the current values, changed ones say so; Save again is based on the current row', async () => {
    const theirs = countryRow(2, { name: 'Theirs', capital_id: 99 });
    let answer = async (_request: Request): Promise<{ status?: number; body: unknown }> => conflictReply(theirs);
    const fetchMock = await openGrid((request) => answer(request));
    const panel = await editRow(1);
    const name = within(panel).getByLabelText(/^name/) as HTMLInputElement;
    await userEvent.clear(name);
    await userEvent.type(name, 'Mine');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));

    expect((await within(panel).findByRole('alert')).textContent).toBe(RowConflictMessages.panelNotSaved);
    expect(screen.getByRole('dialog', { name: 'Update row from countries' })).toBe(panel);
    expect(name.value).toBe('Mine');
    expect((within(panel).getByLabelText(/^capital_id/) as HTMLInputElement).value).toBe('99');
    expect(within(panel).getByText(RowConflictMessages.fieldChanged('Theirs'))).toBeTruthy();
    expect(within(panel).getByText(RowConflictMessages.fieldChanged('99'))).toBeTruthy();
    // The grid behind shows their row.
    await waitFor(() => expect(cell('name', 1).textContent).toBe('Theirs'));

    answer = saved;
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());
    expect(await fetchMock.bodiesOf(UPDATE)).toEqual([
      { match: { id: 2 }, values: { name: 'Mine' }, expected: countryRow(2) },
      { match: { id: 2 }, values: { name: 'Mine' }, expected: theirs },
    ]);
  });
});
