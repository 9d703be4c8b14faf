import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderArea } from '@dash/shell-sdk/testing';
import { CSV_EXPORT_ROW_LIMIT, GRID_SAVE_DEBOUNCE_MS, Messages, ROW_LOAD_RETRY_DELAY_MS, gridViewStorageKey } from '@dash/contracts';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import { PAGE_SIZE_KEY } from '../src/grid/saved-view';
import {
  API,
  COUNT,
  COUNTRIES_ID,
  COUNTRIES_URL,
  EXPORT,
  SELECT,
  VALUE,
  countriesColumns,
  countriesTable,
  gridAnswers,
  noKeyTable,
  rowsReply,
} from './grid-fixtures';
import { tablesReply } from './fixtures';
import { giveElementsASize } from './grid-setup';

giveElementsASize();
beforeEach(() => localStorage.clear());

const grid = () => screen.getByRole('grid', { name: 'Table rows' });
const headerNames = () => within(grid()).getAllByRole('columnheader').map((h) => h.querySelector('.te-col-header__name')?.textContent ?? '');
function cellsOf(name: string): HTMLElement[] {
  const index = headerNames().indexOf(name);
  return within(grid())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('gridcell')[index]);
}
type Body = Record<string, unknown>;
const lastBody = async (fetchMock: ReturnType<typeof mockFetch>, key: string) => (await fetchMock.bodiesOf(key)).at(-1) as Body;

describe('grid: rows, URL filters and sorts', () => {
  it('shows one page of rows, the columns with their formats and keys, and the record count', async () => {
    const fetchMock = mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });

    expect(await screen.findByText('Country 1')).toBeTruthy();
    expect(cellsOf('name').map((c) => c.textContent)).toEqual(['Country 1', 'Country 2', 'Country 3']);
    expect(headerNames()).toEqual(['', ...countriesColumns.map((c) => c.name), '']);
    const idHeader = within(grid()).getAllByRole('columnheader')[1];
    expect(within(idHeader).getByRole('img', { name: 'Primary key' })).toBeTruthy();
    expect(idHeader.textContent).toContain('int8');
    expect(await screen.findByText(Messages.records(3))).toBeTruthy();
    expect(await fetchMock.bodiesOf(SELECT)).toEqual([{ filters: [], sorts: [], page: 1, limit: 100 }]);
    expect(await fetchMock.bodiesOf(COUNT)).toEqual([{ filters: [] }]);
    expect(screen.getByRole('button', { name: 'Filter' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sort' })).toBeTruthy();
  });

  it('applies the filter and sort of the URL: labels the buttons and requests sorted, filtered rows', async () => {
    const fetchMock = mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?filter=name:eq:Country%202:x&sort=name:desc&sort=id:asc` });

    expect(await screen.findByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sorted by 2 rules' })).toBeTruthy();
    await screen.findByText('Country 1');
    expect(await lastBody(fetchMock, SELECT)).toEqual({
      filters: [{ column: 'name', operator: 'eq', value: 'Country 2:x' }],
      sorts: [
        { column: 'name', ascending: false },
        { column: 'id', ascending: true },
      ],
      page: 1,
      limit: 100,
    });
    expect(await lastBody(fetchMock, COUNT)).toEqual({ filters: [{ column: 'name', operator: 'eq', value: 'Country 2:x' }] });
    const nameHeader = within(grid()).getAllByRole('columnheader')[2];
    expect(within(nameHeader).getByLabelText('sorted descending')).toBeTruthy();
  });

  it('adds a filter with the operator symbols and type hints, and goes back to page 1', async () => {
    const fetchMock = mockFetch(gridAnswers('owner', { [COUNT]: { body: { count: 250, estimate: false } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    await waitFor(async () => expect((await lastBody(fetchMock, SELECT)).page).toBe(2));

    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = screen.getByRole('dialog', { name: 'Filters' });
    const operator = within(dialog).getByRole('combobox', { name: 'Operator of filter 1' });
    expect(within(operator).getAllByRole('option').map((o) => o.textContent)).toEqual(['=', '<>', '>', '<', '>=', '<=', 'like', 'ilike', 'in', 'is']);
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Column of filter 1' }), 'founded');
    expect(within(dialog).getByRole('textbox', { name: 'Value of filter 1' }).getAttribute('placeholder')).toBe(Messages.timestamptzHint);
    await userEvent.selectOptions(operator, 'is');
    const isValue = within(dialog).getByRole('combobox', { name: 'Value of filter 1' });
    expect(within(isValue).getAllByRole('option').map((o) => o.textContent)).toEqual(['null', 'not null', 'true', 'false']);
    await userEvent.selectOptions(isValue, 'not null');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply filter' }));

    expect(await screen.findByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    await waitFor(async () =>
      expect(await lastBody(fetchMock, SELECT)).toEqual({ filters: [{ column: 'founded', operator: 'is', value: 'not null' }], sorts: [], page: 1, limit: 100 }),
    );
  });

  it('sorts from the column menu and from the Sort popover', async () => {
    const fetchMock = mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');

    await userEvent.click(screen.getByRole('button', { name: 'Column menu of name' }));
    await userEvent.click(within(screen.getByRole('menu', { name: 'name column actions' })).getByRole('menuitem', { name: 'Sort descending' }));
    expect(await screen.findByRole('button', { name: 'Sorted by 1 rule' })).toBeTruthy();
    await waitFor(async () => expect((await lastBody(fetchMock, SELECT)).sorts).toEqual([{ column: 'name', ascending: false }]));

    await userEvent.click(screen.getByRole('button', { name: 'Sorted by 1 rule' }));
    const dialog = screen.getByRole('dialog', { name: 'Sorts' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Pick a column to sort by' }), 'id');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply sorting' }));
    await waitFor(async () =>
      expect((await lastBody(fetchMock, SELECT)).sorts).toEqual([
        { column: 'name', ascending: false },
        { column: 'id', ascending: true },
      ]),
    );
    expect(screen.getByRole('button', { name: 'Sorted by 2 rules' })).toBeTruthy();
  });

  it("clears the sort when the service says a sorted column does not exist", async () => {
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [SELECT]: async (request) => {
          const body = (await request.json()) as Body;
          return (body.sorts as unknown[]).length
            ? { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'column "nickname" does not exist', code: '42703' } }
            : { body: rowsReply(1, 3) };
        },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?sort=nickname:asc&filter=id:gt:0` });

    expect(await screen.findByText('Country 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sort' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    const sent = (await fetchMock.bodiesOf(SELECT)) as Body[];
    expect(sent.map((b) => b.sorts)).toEqual([[{ column: 'nickname', ascending: true }], []]);
  });

  it('says when rows cannot be retrieved, with the server message', async () => {
    mockFetch(gridAnswers('owner', { [SELECT]: { status: 500, body: { statusCode: 500, error: 'Internal', message: 'permission denied for table countries' } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(Messages.rowsLoadFailed)).toBeTruthy();
    expect(alert.textContent).toContain('permission denied for table countries');
    expect(alert.textContent).toContain('Retrying in 5 s (attempt 2 of 3)');
  });

  it('retries a failed page after 5 s, three attempts in all', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const fetchMock = mockFetch(gridAnswers('owner', { [SELECT]: { status: 503, body: { statusCode: 503, error: 'Unavailable', message: 'the database is starting up' } } }));
      renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
      const attempts = () => fetchMock.calls.filter((c) => `${c.method} ${new URL(c.url).pathname}` === SELECT).length;
      expect((await screen.findByRole('alert')).textContent).toContain('attempt 2 of 3');
      expect(attempts()).toBe(1);
      await act(() => jest.advanceTimersByTimeAsync(ROW_LOAD_RETRY_DELAY_MS - 100));
      expect(attempts()).toBe(1);
      await act(() => jest.advanceTimersByTimeAsync(200));
      await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('attempt 3 of 3'));
      expect(attempts()).toBe(2);
      await act(() => jest.advanceTimersByTimeAsync(ROW_LOAD_RETRY_DELAY_MS));
      await waitFor(() => expect(attempts()).toBe(3));
      await waitFor(() => expect(screen.getByRole('alert').textContent).not.toContain('Retrying'));
      await act(() => jest.advanceTimersByTimeAsync(ROW_LOAD_RETRY_DELAY_MS * 3));
      expect(attempts()).toBe(3);
      expect(screen.getByRole('alert').textContent).toContain('the database is starting up');
    } finally {
      jest.useRealTimers();
    }
  });

  it('says when the count fails', async () => {
    mockFetch(gridAnswers('owner', { [COUNT]: { status: 500, body: { statusCode: 500, error: 'Internal', message: 'boom' } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    expect(await screen.findByText(Messages.countFailed)).toBeTruthy();
  });

  it('shows an estimate with ~ and asks for the exact count on request', async () => {
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [COUNT]: async (request) => ((await request.json()) as Body).exact ? { body: { count: 123_456, estimate: false } } : { body: { count: 120_000, estimate: true } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    const count = await screen.findByTestId('record-count');
    await waitFor(() => expect(count.textContent).toContain(`~${Messages.records(120_000)}`));
    await userEvent.click(within(count).getByRole('button', { name: 'Get exact count' }));
    await waitFor(() => expect(count.textContent).toBe(Messages.records(123_456)));
    expect(await lastBody(fetchMock, COUNT)).toEqual({ filters: [], exact: true });
  });
});

describe('grid: empty states', () => {
  it('says the table is empty and offers a CSV import to members who may insert', async () => {
    mockFetch(gridAnswers('owner', { [SELECT]: { body: { rows: [], truncated: [] } }, [COUNT]: { body: { count: 0, estimate: false } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    expect(await screen.findByText(Messages.tableEmpty)).toBeTruthy();
    expect(screen.getByText(Messages.records(0))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: Messages.importViaCsv }));
    expect(await screen.findByRole('dialog', { name: 'Import data into countries' })).toBeTruthy();
  });

  it('offers no import to read-only members', async () => {
    mockFetch(gridAnswers('read_only', { [SELECT]: { body: { rows: [], truncated: [] } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    expect(await screen.findByText(Messages.tableEmpty)).toBeTruthy();
    expect(screen.queryByRole('button', { name: Messages.importViaCsv })).toBeNull();
  });

  it('says the filters returned nothing and removes them on request', async () => {
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [SELECT]: async (request) => (((await request.json()) as Body).filters as unknown[]).length ? { body: { rows: [], truncated: [] } } : { body: rowsReply(1, 2) },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?schema=public&filter=name:~~*:%25zz%25` });
    expect(await screen.findByText(Messages.filtersNoResults)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: Messages.removeAllFilters }));
    expect(await screen.findByText('Country 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filter' })).toBeTruthy();
    expect((await lastBody(fetchMock, SELECT)).filters).toEqual([]);
  });
});

describe('grid: paging', () => {
  it('moves between pages and clamps a typed page number to 1..last page', async () => {
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [COUNT]: { body: { count: 250, estimate: false } },
        [SELECT]: async (request) => ({ body: rowsReply(((((await request.json()) as Body).page as number) - 1) * 100 + 1, 3) }),
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    expect(await screen.findByText('of 3')).toBeTruthy();
    const pages = async () => ((await fetchMock.bodiesOf(SELECT)) as Body[]).map((b) => b.page);

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Country 101')).toBeTruthy();
    const input = screen.getByRole('textbox', { name: 'Page number' }) as HTMLInputElement;
    await userEvent.clear(input);
    await userEvent.type(input, '99{Enter}');
    expect(await screen.findByText('Country 201')).toBeTruthy();
    expect(input.value).toBe('3');
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(input);
    await userEvent.type(input, '-4{Enter}');
    expect(await screen.findByText('Country 1')).toBeTruthy();
    expect(input.value).toBe('1');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect(await pages()).toEqual([1, 2, 3]);
  });

  it('falls back to 100 rows for an invalid page size and keeps a chosen one', async () => {
    localStorage.setItem(PAGE_SIZE_KEY, '250');
    const fetchMock = mockFetch(gridAnswers('owner', { [COUNT]: { body: { count: 2500, estimate: false } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    expect((await lastBody(fetchMock, SELECT)).limit).toBe(100);
    const size = screen.getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement;
    expect(size.value).toBe('100');

    await userEvent.selectOptions(size, '500');
    await waitFor(async () => expect(await lastBody(fetchMock, SELECT)).toMatchObject({ limit: 500, page: 1 }));
    expect(screen.getByText('of 5')).toBeTruthy();
    expect(localStorage.getItem(PAGE_SIZE_KEY)).toBe('500');
  });
});

describe('grid: permissions', () => {
  it('shows Insert and the add-column button disabled to read-only members, with the reason', async () => {
    mockFetch(gridAnswers('read_only'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');

    const insert = screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement;
    expect(insert.disabled).toBe(true);
    await userEvent.hover(insert.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.needPermissionsGeneric);
    expect((screen.getByRole('button', { name: 'Add column' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets writers open the Insert menu: row, column and CSV import', async () => {
    mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Insert' }));
    const menu = screen.getByRole('menu', { name: 'Insert' });
    expect(within(menu).getAllByRole('menuitem').map((i) => i.firstChild?.textContent)).toEqual(['Insert row', 'Insert column', 'Import data from CSV']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Insert column/ }));
    expect(await screen.findByRole('dialog', { name: 'Add new column to countries' })).toBeTruthy();
  });
});

describe('grid: links, cut values, views and the definition', () => {
  it("links a foreign-key cell to the referenced table's editor filtered to the value", async () => {
    mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    const [first] = cellsOf('capital_id');
    const link = await within(first).findByRole('link', { name: 'Open the referenced row in cities' });
    expect(link.getAttribute('href')).toBe('/project/default/editor/17000?filter=id:eq:10');
    expect(within(grid()).getAllByRole('columnheader')[8].querySelector('[aria-label="Foreign key to public.cities.id"]')).toBeTruthy();
  });

  it('loads the full value of a cut cell by primary key', async () => {
    const cut = rowsReply(1, 2);
    cut.rows[0].name = 'A very long na...';
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [SELECT]: { body: { ...cut, truncated: [{ row: 0, column: 'name' }] } },
        [VALUE]: { body: { value: 'A very long name indeed' } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('A very long na...');
    expect(within(cellsOf('name')[1]).queryByRole('button', { name: Messages.loadFullValue })).toBeNull();
    // A cut value is not edited (it would be saved cut).
    await userEvent.dblClick(cellsOf('name')[0]);
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
    expect(await screen.findByText(`${Messages.loadFullValue} to edit this cell`)).toBeTruthy();
    await userEvent.click(within(cellsOf('name')[0]).getByRole('button', { name: Messages.loadFullValue }));
    expect(await screen.findByText('A very long name indeed')).toBeTruthy();
    expect(await fetchMock.bodiesOf(VALUE)).toEqual([{ match: { id: 1 }, column: 'name' }]);
    expect(screen.queryByRole('button', { name: Messages.loadFullValue })).toBeNull();
  });

  it('shows a view read-only: no Insert, no selection, no add-column', async () => {
    const viewColumns = countriesColumns.slice(0, 2).map((c) => ({ ...c, table_id: 16400, table: 'active_profiles', id: `16400.${c.ordinal_position}` }));
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [`GET ${API}/columns`]: { body: viewColumns },
        [`POST ${API}/tables/16400/rows/select`]: { body: rowsReply(1, 2) },
        [`POST ${API}/tables/16400/rows/count`]: { body: { count: 2, estimate: false } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: '/project/default/editor/16400' });
    expect(await screen.findByText('Country 2')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('active_profiles');
    expect(screen.getByText('Read-only')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Insert' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add column' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(headerNames()).toEqual(['id', 'name']);
    const columnsCall = fetchMock.calls.find((c) => new URL(c.url).pathname === `${API}/columns`);
    expect(new URL(columnsCall!.url).searchParams.get('table_id')).toBe('16400');
    await userEvent.dblClick(cellsOf('name')[0]);
    expect(screen.queryByRole('textbox', { name: 'Edit name' })).toBeNull();
  });

  it('cannot load a full value without a primary key, and says so', async () => {
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [`GET ${API}/tables/${COUNTRIES_ID}`]: { body: noKeyTable },
        [SELECT]: { body: { ...rowsReply(1, 1), truncated: [{ row: 0, column: 'data' }] } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: Messages.loadFullValue }));
    expect(await screen.findByText(Messages.noPrimaryKeyForValue)).toBeTruthy();
    expect(await fetchMock.bodiesOf(VALUE)).toEqual([]);
  });

  it('switches to the definition view and back, keeping other parameters', async () => {
    mockFetch(gridAnswers('owner', { [`GET ${API}/tables/${COUNTRIES_ID}/definition`]: { body: { sql: 'create table public.countries (id bigint);' } } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?filter=id:gt:1` });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Definition' }));
    expect(await screen.findByText('create table public.countries (id bigint);')).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.getByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Data' }));
    expect(await screen.findByText('Country 1')).toBeTruthy();
  });
});

describe('grid: CSV export', () => {
  const createObjectURL = jest.fn(() => 'blob:countries');
  beforeEach(() => {
    createObjectURL.mockClear();
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
  });

  /** mockFetch answers JSON; the export answers a CSV stream in two chunks. */
  function withCsvExport(fetchMock: ReturnType<typeof mockFetch>, csv: string[]) {
    const json = globalThis.fetch;
    const bodies: unknown[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input.clone() : new Request(String(input), init);
      if (`${request.method} ${new URL(request.url).pathname}` !== EXPORT) return json(input, init);
      bodies.push(await request.json());
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of csv) controller.enqueue(encoder.encode(part));
          controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/csv' } });
    }) as typeof fetch;
    return { bodies, fetchMock };
  }

  it('streams every row matching the filters and saves countries.csv', async () => {
    const { bodies } = withCsvExport(mockFetch(gridAnswers('owner')), ['id,name\n1,"Multi\nline"\n', '2,B\n3,C']);
    const anchorClick = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('countries.csv');
    });
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?filter=id:gt:0&sort=id:desc` });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await waitFor(() => expect(anchorClick).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ filters: [{ column: 'id', operator: 'gt', value: '0' }], sorts: [{ column: 'id', ascending: false }] }]);
    const blob = (createObjectURL.mock.calls as unknown as [Blob][])[0][0];
    expect(await blob.text()).toBe('id,name\n1,"Multi\nline"\n2,B\n3,C');
    anchorClick.mockRestore();
  });

  it('exports only the selected rows, by primary key, with the current sorts', async () => {
    const { bodies } = withCsvExport(mockFetch(gridAnswers('owner')), ['id,name\n1,Country 1\n3,Country 3\n']);
    const anchorClick = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${COUNTRIES_URL}?sort=name:asc` });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    expect(screen.getByText('2 rows selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await waitFor(() => expect(anchorClick).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ matches: [{ id: 1 }, { id: 3 }], sorts: [{ column: 'name', ascending: true }] }]);
    const blob = (createObjectURL.mock.calls as unknown as [Blob][])[0][0];
    expect(await blob.text()).toBe('id,name\n1,Country 1\n3,Country 3\n');
    anchorClick.mockRestore();
  });

  it('shows the rows received against the count while the export streams, and can cancel it', async () => {
    mockFetch(gridAnswers('owner'));
    const json = globalThis.fetch;
    let push: (text: string) => void = () => {};
    let aborted = false;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      if (`${request.method} ${new URL(request.url).pathname}` !== EXPORT) return json(input, init);
      const signal = init?.signal ?? request.signal;
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(encoder.encode(text));
          signal?.addEventListener('abort', () => {
            aborted = true;
            controller.error(new DOMException('Aborted', 'AbortError'));
          });
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/csv' } });
    }) as typeof fetch;
    const anchorClick = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    const status = await screen.findByText(/Exporting/);
    expect(status.getAttribute('role')).toBe('status');
    expect(status.textContent).toMatch(/Exporting 0 \/ 3 rows/);
    act(() => push('id,name\n1,A\n2,B\n'));
    await waitFor(() => expect(screen.getByText(/Exporting/).textContent).toMatch(/Exporting 2 \/ 3 rows/));
    await userEvent.click(within(screen.getByText(/Exporting/)).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export to CSV' })).toBeTruthy());
    expect(aborted).toBe(true);
    expect(anchorClick).not.toHaveBeenCalled();
    expect(createObjectURL).not.toHaveBeenCalled();
    anchorClick.mockRestore();
  });

  it('refuses more rows than the export limit without asking the server', async () => {
    const { bodies } = withCsvExport(mockFetch(gridAnswers('owner', { [COUNT]: { body: { count: CSV_EXPORT_ROW_LIMIT + 1, estimate: false } } })), ['id\n']);
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText(Messages.records(CSV_EXPORT_ROW_LIMIT + 1));
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    expect(await screen.findByText(Messages.csvExportTooLarge)).toBeTruthy();
    expect(bodies).toEqual([]);
  });
});

describe('grid: saved view', () => {
  const key = gridViewStorageKey('default');

  it('restores the saved column order, frozen flags and filters when the table opens', async () => {
    localStorage.setItem(key, JSON.stringify({ countries: { columns: [{ name: 'name' }, { name: 'id', frozen: true }], filters: ['id:gt:1'], sorts: [] } }));
    const fetchMock = mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    // Frozen columns come first (after the select column); the others follow the saved order.
    expect(headerNames().slice(0, 4)).toEqual(['', 'id', 'name', 'data']);
    expect(await screen.findByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    await waitFor(async () => expect((await lastBody(fetchMock, SELECT)).filters).toEqual([{ column: 'id', operator: 'gt', value: '1' }]));
  });

  it('saves a frozen column and the sorts after the debounce', async () => {
    mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Column menu of data' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Freeze column' }));
    await userEvent.click(screen.getByRole('button', { name: 'Column menu of name' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sort ascending' }));
    expect(localStorage.getItem(key)).toBeNull();
    await act(() => new Promise((resolve) => setTimeout(resolve, GRID_SAVE_DEBOUNCE_MS + 100)));
    const saved = JSON.parse(localStorage.getItem(key)!).countries;
    expect(saved.columns.find((c: { name: string }) => c.name === 'data')).toEqual({ name: 'data', frozen: true });
    expect(saved.sorts).toEqual(['name:asc']);
    expect(headerNames().slice(0, 3)).toEqual(['', 'data', 'id']);
  });

  it('reorders columns by dragging, but never the select or add-column columns', async () => {
    mockFetch(gridAnswers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    const headers = () => within(grid()).getAllByRole('columnheader');
    const drag = (from: HTMLElement, to: HTMLElement) => {
      const dataTransfer = { setDragImage: () => {}, dropEffect: '' };
      fireEvent.dragStart(from, { dataTransfer });
      fireEvent.dragOver(to, { dataTransfer });
      fireEvent.drop(to, { dataTransfer });
      fireEvent.dragEnd(from, { dataTransfer });
    };
    drag(headers()[3], headers()[1]); // data onto id
    expect(headerNames().slice(0, 4)).toEqual(['', 'data', 'id', 'name']);
    expect(headers()[0].getAttribute('draggable')).toBeNull();
    expect(headers().at(-1)!.getAttribute('draggable')).toBeNull();
    drag(headers()[1], headers().at(-1)!);
    expect(headerNames().slice(0, 4)).toEqual(['', 'data', 'id', 'name']);
  });

  it('keeps the sorts and filters when the table is left and opened again from the list, and applies them', async () => {
    const PROFILES_ID = 16392;
    const profiles = { ...tablesReply[1], columns: countriesColumns.slice(0, 2).map((c) => ({ ...c, table_id: PROFILES_ID, table: 'profiles', id: `${PROFILES_ID}.${c.ordinal_position}` })) };
    const fetchMock = mockFetch(
      gridAnswers('owner', {
        [`GET ${API}/tables/${PROFILES_ID}`]: { body: profiles },
        [`POST ${API}/tables/${PROFILES_ID}/rows/select`]: { body: { rows: [{ id: 7, name: 'Profile 7' }], truncated: [] } },
        [`POST ${API}/tables/${PROFILES_ID}/rows/count`]: { body: { count: 1, estimate: false } },
      }),
    );
    localStorage.setItem(key, JSON.stringify({ countries: { filters: ['id:gt:1'] } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    await userEvent.click(screen.getByRole('button', { name: 'Column menu of name' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sort descending' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, GRID_SAVE_DEBOUNCE_MS + 100)));
    expect(JSON.parse(localStorage.getItem(key)!).countries).toMatchObject({ filters: ['id:gt:1'], sorts: ['name:desc'] });
    const list = screen.getByRole('navigation', { name: 'Entities in public' });

    await userEvent.click(within(list).getByRole('link', { name: 'Table profiles' }));
    await screen.findByText('Profile 7');
    // Leaving the table did not save the next table's (empty) URL state over its view.
    expect(JSON.parse(localStorage.getItem(key)!).countries).toMatchObject({ filters: ['id:gt:1'], sorts: ['name:desc'] });
    expect(screen.queryByRole('button', { name: /Filtered by/ })).toBeNull();

    await userEvent.click(within(list).getByRole('link', { name: 'Table countries' }));
    expect(await screen.findByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sorted by 1 rule' })).toBeTruthy();
    await waitFor(async () =>
      expect(await lastBody(fetchMock, SELECT)).toMatchObject({ filters: [{ column: 'id', operator: 'gt', value: '1' }], sorts: [{ column: 'name', ascending: false }] }),
    );

    // Opening the table shown from the list again keeps them too.
    await userEvent.click(within(list).getByRole('link', { name: 'Table countries' }));
    expect(await screen.findByRole('button', { name: 'Sorted by 1 rule' })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, GRID_SAVE_DEBOUNCE_MS + 100)));
    expect(JSON.parse(localStorage.getItem(key)!).countries).toMatchObject({ filters: ['id:gt:1'], sorts: ['name:desc'] });

    // Removing one in the grid is a choice, and it is kept.
    await userEvent.click(screen.getByRole('button', { name: 'Sorted by 1 rule' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove sort 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply sorting' }));
    expect(await screen.findByRole('button', { name: 'Sort' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filtered by 1 rule' })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, GRID_SAVE_DEBOUNCE_MS + 100)));
    expect(JSON.parse(localStorage.getItem(key)!).countries).toMatchObject({ filters: ['id:gt:1'], sorts: [] });
  });
});
describe('grid: column types', () => {
  it('shows an array column as text[] in its header and in the row panel, never as _text', async () => {
    const tags = { ...countriesColumns[1], id: `${COUNTRIES_ID}.9`, ordinal_position: 9, name: 'tags', format: '_text', data_type: 'ARRAY', is_nullable: true };
    mockFetch(
      gridAnswers('owner', {
        [`GET ${API}/tables/${COUNTRIES_ID}`]: { body: { ...countriesTable, columns: [...countriesColumns, tags] } },
        [SELECT]: { body: { rows: [{ id: 1, name: 'Country 1', tags: ['a', 'b'] }], truncated: [] } },
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await screen.findByText('Country 1');
    const header = within(grid()).getAllByRole('columnheader').find((h) => h.querySelector('.te-col-header__name')?.textContent === 'tags')!;
    expect(header.querySelector('.te-col-header__format')?.textContent).toBe('text[]');
    await userEvent.click(screen.getByRole('button', { name: 'Insert' }));
    await userEvent.click(screen.getByRole('menuitem', { name: /Insert row/ }));
    const panel = await screen.findByRole('dialog', { name: 'Insert a new row into countries' });
    expect(within(panel).getByLabelText(/^tags/).closest('.dash-field')!.querySelector('.te-row-panel__format')?.textContent).toBe('text[]');
    expect(panel.textContent).not.toContain('_text');
  });
});
