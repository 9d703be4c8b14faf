import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import { ENTITY_SORT_KEY } from '../src/preferences';
import { entitiesReply, fullPage, schemasReply, tablesReply } from './fixtures';

const url = '/project/default/editor';
const ENTITIES = 'GET /api/pg-meta/default/entities';

function answers(role: 'owner' | 'read_only', entities: MockAnswer = { body: entitiesReply }): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    [ENTITIES]: entities,
  };
}

const entityCalls = (calls: Request[]) => calls.filter((c) => new URL(c.url).pathname.endsWith('/entities')).map((c) => new URL(c.url).searchParams);

beforeEach(() => localStorage.clear());

describe('table editor: entity list', () => {
  it('lists the entities of the public schema with their type, each linking to its editor', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url });

    const list = await screen.findByRole('navigation', { name: 'Entities in public' });
    const items = await within(list).findAllByTestId('entity-item');
    expect(items.map((i) => i.textContent)).toEqual(['Vactive_profiles', 'Tcountries', 'Pevents', 'Tprofiles']);
    expect(within(items[0]).getByRole('img', { name: 'View' })).toBeTruthy();
    expect(within(items[1]).getByRole('img', { name: 'Table' })).toBeTruthy();
    expect(within(items[2]).getByRole('img', { name: 'Partitioned table' })).toBeTruthy();
    expect(within(list).getByRole('link', { name: /countries/ }).getAttribute('href')).toBe('/project/default/editor/16385');

    const [params] = entityCalls(fetchMock.calls);
    expect(params.get('schema')).toBe('public');
    expect(params.get('limit')).toBe('100');
    expect(params.get('offset')).toBe('0');
    expect(params.get('sort')).toBe('alphabetical');
    expect(params.has('search')).toBe(false);
    expect(screen.getByText('Select a table from the list to view its data')).toBeTruthy();
  });

  it('sends the search trimmed and says No results found when nothing matches', async () => {
    const fetchMock = mockFetch(
      answers('owner', (request) =>
        new URL(request.url).searchParams.has('search') ? { body: { data: [], hasMore: false } } : { body: entitiesReply },
      ),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tables' }), '  zebra  ');
    expect(await screen.findByText(Messages.noResults)).toBeTruthy();
    const searches = entityCalls(fetchMock.calls).filter((p) => p.has('search')).map((p) => p.get('search')!);
    // Debounced (fewer requests than keystrokes) and trimmed (no request carries the spaces).
    expect(searches.length).toBeLessThan('  zebra  '.length);
    expect(searches.at(-1)).toBe('zebra');
    expect(searches.every((s) => s === s.trim() && s.length > 0)).toBe(true);
    expect(screen.queryByText('countries')).toBeNull();
  });

  it('says No entities available for a schema without tables or views', async () => {
    mockFetch(answers('owner', { body: { data: [], hasMore: false } }));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    expect(await screen.findByText(Messages.noEntities)).toBeTruthy();
    expect(screen.queryByText(Messages.noResults)).toBeNull();
  });

  it('requests the next page at offset 100 when scrolled to the end while hasMore, and stops after the last page', async () => {
    const fetchMock = mockFetch(
      answers('owner', (request) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return offset === 0 ? { body: fullPage('public', 0) } : { body: { data: [fullPage('public', 100).data[0]], hasMore: false } };
      }),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    const list = await screen.findByRole('navigation', { name: 'Entities in public' });
    await within(list).findByText('table_099');
    expect(entityCalls(fetchMock.calls).map((p) => p.get('offset'))).toEqual(['0']);

    fireEvent.scroll(list);
    expect(await within(list).findByText('table_100')).toBeTruthy();
    expect(within(list).getAllByTestId('entity-item')).toHaveLength(101);
    expect(entityCalls(fetchMock.calls).map((p) => p.get('offset'))).toEqual(['0', '100']);

    fireEvent.scroll(list);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(entityCalls(fetchMock.calls).map((p) => p.get('offset'))).toEqual(['0', '100']);
  });

  it('keeps the sort as a preference and groups the list by entity type', async () => {
    const order = ['table', 'view', 'foreign_table', 'materialized_view', 'partitioned_table'];
    const grouped = [...entitiesReply.data].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || a.name.localeCompare(b.name));
    const bySort: MockAnswer = (request) =>
      new URL(request.url).searchParams.get('sort') === 'grouped-alphabetical' ? { body: { data: grouped, hasMore: false } } : { body: entitiesReply };
    const fetchMock = mockFetch(answers('owner', bySort));
    const first = renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort entities' }), 'Entity Type');
    await waitFor(() => expect(entityCalls(fetchMock.calls).some((p) => p.get('sort') === 'grouped-alphabetical')).toBe(true));
    expect(localStorage.getItem(ENTITY_SORT_KEY)).toBe('grouped-alphabetical');
    expect(await screen.findByText('Tables')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByTestId('entity-item').map((i) => i.textContent)).toEqual(['Tcountries', 'Tprofiles', 'Vactive_profiles', 'Pevents']),
    );
    expect(screen.getByText('Views')).toBeTruthy();
    expect(screen.getByText('Partitioned tables')).toBeTruthy();
    first.unmount();

    const again = mockFetch(answers('owner', bySort));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    expect((screen.getByRole('combobox', { name: 'Sort entities' }) as HTMLSelectElement).value).toBe('grouped-alphabetical');
    expect(entityCalls(again.calls)[0].get('sort')).toBe('grouped-alphabetical');
  });

  it("offers each table's policies through its menu, as a plain URL of the policies area", async () => {
    mockFetch(answers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    expect(screen.queryByRole('button', { name: 'Actions for active_profiles' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for countries' }));
    const item = within(screen.getByRole('menu')).getByRole('menuitem', { name: 'View policies' });
    expect(item.getAttribute('href')).toBe('/project/default/auth/policies?schema=public&search=16385');
  });

  it('lists another schema when picked, with links that keep the schema', async () => {
    const fetchMock = mockFetch(
      answers('owner', (request) =>
        new URL(request.url).searchParams.get('schema') === 'sales'
          ? { body: { data: [{ id: 17001, schema: 'sales', name: 'orders', type: 'table', comment: null }], hasMore: false } }
          : { body: entitiesReply },
      ),
    );
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');
    await screen.findByRole('option', { name: 'sales' });

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Schema' }), 'sales');
    const link = await screen.findByRole('link', { name: /orders/ });
    expect(link.getAttribute('href')).toBe('/project/default/editor/17001?schema=sales');
    expect(entityCalls(fetchMock.calls).map((p) => p.get('schema'))).toContain('sales');
  });
});

describe('table editor: permissions', () => {
  it('shows New table disabled for read-only members, with the reason on hover', async () => {
    mockFetch(answers('read_only'));
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    await screen.findByText('countries');

    const button = screen.getByRole('button', { name: 'New table' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const tooltip = screen.getByRole('tooltip', { hidden: true });
    expect(tooltip.hidden).toBe(true);
    await userEvent.hover(button.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.needPermissionsCreateTables);
  });

  it('shows the no-access screen when SQL read permission cannot be established, and asks for no tables', async () => {
    // Every org role has tenant_sql_admin_read (contracts/permissions.ts), so the screen shows when the
    // permissions of the member cannot be read: the remote denies rather than guesses.
    const fetchMock = mockFetch({
      ...answers('read_only'),
      'GET /api/platform/projects/default/permissions': { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'You need additional permissions to do this' } },
    });
    renderArea(TableEditorRoutes, { mount: 'editor', url: '/project/default/editor/16385' });
    expect(await screen.findByText(new RegExp(Messages.noTablesAccess))).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: /Entities in/ })).toBeNull();
    expect(screen.queryByRole('grid')).toBeNull();
    expect(fetchMock.calls.filter((c) => new URL(c.url).pathname.startsWith('/api/pg-meta/'))).toEqual([]);
  });

  it('opens the selected table in the grid, with its header and policies link', async () => {
    const fetchMock = mockFetch({
      ...answers('owner'),
      'GET /api/pg-meta/default/tables/16385': { body: { ...tablesReply[0], columns: [] } },
      'POST /api/pg-meta/default/tables/16385/rows/select': { body: { rows: [], truncated: [] } },
      'POST /api/pg-meta/default/tables/16385/rows/count': { body: { count: 0, estimate: false } },
    });
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${url}/16385` });

    const details = await screen.findByRole('article', { name: 'countries details' });
    expect(within(details).getByRole('heading', { level: 1 }).textContent).toBe('countries');
    expect(details.textContent).toContain('public');
    expect(details.textContent).toContain('Table');
    expect(details.textContent).toContain('RLS enabled');
    expect(details.textContent).toContain('ISO 3166 countries');
    expect(within(details).getByRole('link', { name: 'View policies' }).getAttribute('href')).toBe(
      '/project/default/auth/policies?schema=public&search=16385',
    );
    expect(await within(details).findByText(Messages.tableEmpty)).toBeTruthy();
    expect(fetchMock.calls.some((c) => new URL(c.url).pathname === '/api/pg-meta/default/tables/16385')).toBe(true);
    const active = screen.getByRole('link', { name: /countries/, current: 'page' });
    expect(active.getAttribute('href')).toBe('/project/default/editor/16385');
  });

  it('opens a view of the entity list read-only, without the policies link', async () => {
    mockFetch({
      ...answers('owner'),
      'GET /api/pg-meta/default/columns': { body: [] },
      'POST /api/pg-meta/default/tables/16400/rows/select': { body: { rows: [], truncated: [] } },
      'POST /api/pg-meta/default/tables/16400/rows/count': { body: { count: 0, estimate: false } },
    });
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${url}/16400` });
    const details = await screen.findByRole('article', { name: 'active_profiles details' });
    expect(details.textContent).toContain('View');
    expect(details.textContent).toContain('Read-only');
    expect(within(details).queryByRole('link', { name: 'View policies' })).toBeNull();
    expect(within(details).queryByRole('button', { name: 'Insert' })).toBeNull();
  });

  it('sends paths it does not serve to the table list', async () => {
    mockFetch(answers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${url}/16385/definition/extra` });
    expect(await screen.findByText('Select a table from the list to view its data')).toBeTruthy();
  });

  it('says when the table id does not exist in the schema', async () => {
    mockFetch(answers('owner'));
    renderArea(TableEditorRoutes, { mount: 'editor', url: `${url}/99999` });
    expect(await screen.findByText('Table not found')).toBeTruthy();
  });
});

/** The table editor with the URL it is at, to see what it leaves in the address. */
function EditorWithLocation() {
  const location = useLocation();
  return (
    <>
      <TableEditorRoutes />
      <output aria-label="Location">{location.pathname + location.search}</output>
    </>
  );
}

describe('table editor: requests from other areas and failures', () => {
  it("opens the new-table form for a link that asks for one ('Create a table'), once, on that schema", async () => {
    mockFetch(answers('owner'));
    renderArea(EditorWithLocation, { mount: 'editor', url: `${url}?schema=sales&new=table` });
    const panel = await screen.findByRole('dialog', { name: 'Create a new table under sales' });
    await waitFor(() => expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/project/default/editor?schema=sales'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create a new table under sales' })).toBeNull());
  });

  it('opens no form for a member who may not create tables, and drops the request', async () => {
    mockFetch(answers('read_only'));
    renderArea(EditorWithLocation, { mount: 'editor', url: `${url}?new=table` });
    await screen.findByText('countries');
    await waitFor(() => expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/project/default/editor'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("says 'Failed to load schemas' and reloads them with 'Reload schemas'", async () => {
    let fail = true;
    const fetchMock = mockFetch({
      ...answers('owner'),
      'GET /api/pg-meta/default/schemas': () =>
        fail ? { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'connection refused' } } : { body: schemasReply },
    });
    renderArea(TableEditorRoutes, { mount: 'editor', url });
    const alert = await screen.findByText('Failed to load schemas');
    expect(alert.closest('[role="alert"]')!.textContent).toContain('connection refused');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reload schemas' }));
    await waitFor(() => expect(screen.queryByText('Failed to load schemas')).toBeNull());
    expect(within(screen.getByRole('combobox', { name: 'Schema' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['public', 'sales']);
    expect(fetchMock.calls.filter((c) => new URL(c.url).pathname.endsWith('/schemas')).length).toBeGreaterThanOrEqual(2);
  });
});
