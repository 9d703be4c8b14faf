import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { writeDraft, readDraft } from '../src/snippets/drafts';
import { IDS, REF, fakeServer, snippet } from './snippet-fixtures';
import { currentPath, editor, renderSql } from './render-sql';

jest.mock('../src/workbench', () => jest.requireActual('./workbench-double'), { virtual: true });
jest.mock('../src/templates', () => jest.requireActual('./templates-double'), { virtual: true });

const content = `/api/platform/projects/${REF}/content/sql`;
const DELETE = `POST ${content}/delete`;

beforeEach(() => localStorage.clear());

const sidebar = () => screen.getByRole('complementary', { name: 'SQL editor menu' });
const group = (name: string) => within(sidebar()).getByRole('list', { name });
const names = (name: string) => within(group(name)).getAllByRole('link').map((a) => a.querySelector('.sql-item__name')?.textContent);

async function openSidebar(url = `/${IDS.users}`) {
  renderSql(url);
  await within(await screen.findByRole('complementary', { name: 'SQL editor menu' })).findByRole('list', { name: 'Private' });
}

async function chooseAction(snippetName: string, action: string) {
  await userEvent.click(within(sidebar()).getByRole('button', { name: `Actions for ${snippetName}` }));
  await userEvent.click(screen.getByRole('menuitem', { name: action }));
}

async function confirmDialog(title: string, button: string) {
  const dialog = await screen.findByRole('dialog', { name: title });
  await userEvent.click(within(dialog).getByRole('button', { name: button }));
}

describe('the snippets menu', () => {
  it('groups the member’s favourites, private and project snippets', async () => {
    fakeServer();
    await openSidebar();
    expect(names('Favorites')).toEqual(['Top customers']);
    expect(names('Private')).toEqual(['Orders by day', 'Users by email', 'Daily signups']);
    expect(names('Project')).toEqual(['Shared revenue', 'Grace report']);
    // Another member's snippet says whose it is.
    expect(within(group('Project')).getByRole('link', { name: /Grace report/ }).textContent).toContain('Grace');
    expect(within(sidebar()).getByRole('link', { name: 'Templates' })).toBeTruthy();
    expect(within(sidebar()).getByRole('link', { name: 'Quickstarts' })).toBeTruthy();
    expect(within(sidebar()).getByRole('link', { name: 'Running queries' })).toBeTruthy();
  });

  it('says "No project queries found" when nothing is shared, and leaves out running queries without admin permission', async () => {
    fakeServer({ role: 'read_only', snippets: [snippet(IDS.users, { name: 'Mine' })] });
    await openSidebar();
    expect(within(sidebar()).getByText(Messages.noProjectQueries)).toBeTruthy();
    expect(within(sidebar()).queryByRole('link', { name: 'Running queries' })).toBeNull();
  });

  it('previews the first 43 characters of the SQL, whitespace collapsed, on hover', async () => {
    fakeServer();
    await openSidebar();
    const link = (name: string) => within(sidebar()).getByRole('link', { name: new RegExp(`^${name}`) });
    expect(link('Orders by day').getAttribute('title')).toBe("select date_trunc('day', created_at), count");
    expect(link('Daily signups').getAttribute('title')).toBe(Messages.queryEmpty);
    expect(link('Top customers').getAttribute('title')).toBe('select 42;');
  });

  it('searches names, trimmed and case-insensitive, and says "No results found"', async () => {
    fakeServer();
    await openSidebar();
    const search = within(sidebar()).getByRole('searchbox', { name: 'Search queries' });
    await userEvent.type(search, '  ORDERS ');
    expect(names('Private')).toEqual(['Orders by day']);
    expect(within(sidebar()).queryByRole('list', { name: 'Project' })).toBeNull();
    expect(within(sidebar()).queryByText(Messages.noProjectQueries)).toBeNull();

    await userEvent.clear(search);
    await userEvent.type(search, 'revenue');
    expect(names('Project')).toEqual(['Shared revenue']);
    expect(within(sidebar()).queryByRole('list', { name: 'Private' })).toBeNull();

    await userEvent.clear(search);
    await userEvent.type(search, 'nothing like it');
    expect(within(sidebar()).getByText(Messages.noResults)).toBeTruthy();
  });

  it('opens the most recent snippet at /sql, and a new query when there is none', async () => {
    fakeServer();
    const view = renderSql('');
    await waitFor(() => expect(currentPath()).toBe(`/${IDS.orders}`));
    view.unmount();
    fakeServer({ snippets: [] });
    renderSql('');
    await waitFor(() => expect(currentPath()).toBe('/new'));
    expect(await editor()).toBeTruthy();
  });
});

describe('selection', () => {
  const box = (name: string) => within(sidebar()).getByRole('checkbox', { name: `Select ${name}` }) as HTMLInputElement;
  const checked = () =>
    within(sidebar())
      .getAllByRole('checkbox')
      .filter((c) => (c as HTMLInputElement).checked)
      .map((c) => c.getAttribute('aria-label')?.replace('Select ', ''));

  it('offers only the member’s own snippets', async () => {
    fakeServer();
    await openSidebar();
    expect(within(sidebar()).queryByRole('checkbox', { name: 'Select Grace report' })).toBeNull();
    expect(box('Shared revenue')).toBeTruthy();
  });

  it('selects a range with Shift-click within the non-favourites, skipping other members’ snippets', async () => {
    fakeServer({
      snippets: [
        ...fakeServerSnippets(),
        snippet('77777777-7777-4777-8777-777777777777', { name: 'Mine shared too', visibility: 'project' }),
      ],
    });
    await openSidebar();
    const user = userEvent.setup();
    await user.click(box('Users by email'));
    await user.keyboard('{Shift>}');
    await user.click(box('Mine shared too'));
    await user.keyboard('{/Shift}');
    expect(checked()).toEqual(['Users by email', 'Daily signups', 'Shared revenue', 'Mine shared too']);
    expect(within(sidebar()).getByRole('region', { name: 'Selected queries' }).textContent).toContain('4 selected');
  });

  it('does not extend a range across favourites and non-favourites', async () => {
    fakeServer();
    await openSidebar();
    const user = userEvent.setup();
    await user.click(box('Orders by day'));
    await user.keyboard('{Shift>}');
    await user.click(box('Top customers'));
    // A plain toggle of the favourite: nothing in between. It is the anchor now: a range among favourites only.
    expect(checked()).toEqual(['Top customers', 'Orders by day']);
    await user.click(box('Daily signups'));
    expect(checked()).toEqual(['Top customers', 'Orders by day', 'Daily signups']);
    await user.keyboard('{/Shift}');
    await user.click(box('Orders by day'));
    expect(checked()).toEqual(['Top customers', 'Daily signups']);
  });

  it('deletes the selection with one call and goes to the first remaining snippet if the open one went', async () => {
    const server = fakeServer();
    await openSidebar(`/${IDS.users}`);
    await userEvent.click(box('Users by email'));
    await userEvent.click(box('Daily signups'));
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Delete' }));
    await confirmDialog('Delete 2 queries', 'Delete');
    await waitFor(() => expect(within(group('Private')).queryByRole('link', { name: 'Users by email' })).toBeNull());
    expect(await server.bodiesOf(DELETE)).toEqual([{ ids: [IDS.users, IDS.daily] }]);
    expect(names('Private')).toEqual(['Orders by day']);
    expect(within(sidebar()).queryByRole('region', { name: 'Selected queries' })).toBeNull();
    // The sidebar's order: favourites first.
    await waitFor(() => expect(currentPath()).toBe(`/${IDS.favorite}`));
  });

  it('counts a 404 "Content not found" as deleted', async () => {
    const server = fakeServer();
    server.override(DELETE, { status: 404, body: { statusCode: 404, error: 'Not Found', message: Messages.contentNotFound } });
    await openSidebar(`/${IDS.orders}`);
    await userEvent.click(box('Users by email'));
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Delete' }));
    await confirmDialog('Delete 1 query', 'Delete');
    await waitFor(() => expect(names('Private')).toEqual(['Orders by day', 'Daily signups']));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(currentPath()).toBe(`/${IDS.orders}`);
  });

  it('reports any other failure with the spec’s toast and keeps the snippets', async () => {
    const server = fakeServer();
    server.override(DELETE, { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'You need additional permissions to do this' } });
    await openSidebar();
    await userEvent.click(box('Users by email'));
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Delete' }));
    await confirmDialog('Delete 1 query', 'Delete');
    expect(await screen.findByText('Failed to delete queries: You need additional permissions to do this')).toBeTruthy();
    expect(names('Private')).toContain('Users by email');
    expect(checked()).toEqual(['Users by email']);
  });
});

describe('a snippet’s actions', () => {
  it('delete of the open snippet goes to the first remaining one', async () => {
    const server = fakeServer();
    await openSidebar(`/${IDS.orders}`);
    await chooseAction('Orders by day', 'Delete query');
    await confirmDialog('Delete query', 'Delete query');
    await waitFor(() => expect(currentPath()).toBe(`/${IDS.favorite}`));
    expect(await server.bodiesOf(DELETE)).toEqual([{ ids: [IDS.orders] }]);
  });

  it('delete of another snippet stays on the open one', async () => {
    fakeServer();
    await openSidebar(`/${IDS.orders}`);
    await chooseAction('Users by email', 'Delete query');
    await confirmDialog('Delete query', 'Delete query');
    await waitFor(() => expect(within(group('Private')).queryByRole('link', { name: 'Users by email' })).toBeNull());
    expect(currentPath()).toBe(`/${IDS.orders}`);
  });

  it('delete of the last snippet goes to a new query, and forgets its draft', async () => {
    fakeServer({ snippets: [snippet(IDS.users, { name: 'Only one', version: 2 })] });
    writeDraft(REF, IDS.users, { sql: 'select unsaved', baseVersion: 2 });
    await openSidebar(`/${IDS.users}`);
    await chooseAction('Only one', 'Delete query');
    await confirmDialog('Delete query', 'Delete query');
    await waitFor(() => expect(currentPath()).toBe('/new'));
    expect(readDraft(REF, IDS.users)).toBeNull();
  });

  it('counts a 404 "Contents not found" as already deleted and removes it here', async () => {
    const server = fakeServer();
    server.override(DELETE, { status: 404, body: { statusCode: 404, error: 'Not Found', message: Messages.contentsNotFound } });
    await openSidebar(`/${IDS.orders}`);
    await chooseAction('Orders by day', 'Delete query');
    await confirmDialog('Delete query', 'Delete query');
    await waitFor(() => expect(currentPath()).toBe(`/${IDS.favorite}`));
    expect(names('Private')).toEqual(['Users by email', 'Daily signups']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reports another failure as "Failed to delete query: …"', async () => {
    const server = fakeServer();
    server.override(DELETE, { status: 500, body: { statusCode: 500, error: 'Error', message: 'connection reset' } });
    await openSidebar(`/${IDS.orders}`);
    await chooseAction('Users by email', 'Delete query');
    await confirmDialog('Delete query', 'Delete query');
    expect(await screen.findByText('Failed to delete query: connection reset')).toBeTruthy();
    expect(names('Private')).toContain('Users by email');
  });

  it('favourites and unfavourites the owner’s snippet', async () => {
    const server = fakeServer();
    await openSidebar();
    await chooseAction('Users by email', 'Add to favorites');
    await waitFor(() => expect(names('Favorites')).toEqual(['Users by email', 'Top customers']));
    await chooseAction('Top customers', 'Remove from favorites');
    await waitFor(() => expect(names('Favorites')).toEqual(['Users by email']));
    expect(await server.bodiesOf(`PATCH ${content}/${IDS.users}`)).toEqual([{ base_version: 1, content: { favorite: true } }]);
    expect(await server.bodiesOf(`PATCH ${content}/${IDS.favorite}`)).toEqual([{ base_version: 1, content: { favorite: false } }]);
  });

  it('shares a personal snippet with the project after asking, and reports a failure', async () => {
    const server = fakeServer();
    await openSidebar();
    await chooseAction('Users by email', 'Share with project');
    await confirmDialog('Share query with project', 'Share query');
    await waitFor(() => expect(names('Project')).toContain('Users by email'));
    expect(server.keys()).toContain(`POST ${content}/${IDS.users}/share`);

    server.override(`POST ${content}/${IDS.daily}/share`, { status: 500, body: { statusCode: 500, error: 'Error', message: 'nope' } });
    await chooseAction('Daily signups', 'Share with project');
    await confirmDialog('Share query with project', 'Share query');
    expect(await screen.findByText('Failed to share query: nope')).toBeTruthy();
  });

  it('offers no sharing of project snippets', async () => {
    fakeServer();
    await openSidebar();
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Actions for Shared revenue' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Share with project' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Duplicate as personal copy' })).toBeNull();
  });

  it('offers other members’ snippets for duplication only, and says why the rest is disabled', async () => {
    const server = fakeServer();
    await openSidebar();
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Actions for Grace report' }));
    const menu = screen.getByRole('menu');
    const rename = within(menu).getByRole('menuitem', { name: 'Rename query' }) as HTMLButtonElement;
    expect(rename.disabled).toBe(true);
    await userEvent.hover(rename.parentElement!);
    expect(within(menu).getByRole('tooltip').textContent).toBe('Only the owner of this query can rename it');
    expect((within(menu).getByRole('menuitem', { name: 'Delete query' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(menu).queryByRole('menuitem', { name: /favorites/ })).toBeNull();

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Duplicate as personal copy' }));
    await waitFor(() => expect(names('Private')).toContain('Grace report (copy)'));
    const [body] = (await server.bodiesOf(`POST ${content}/${IDS.graces}/duplicate`)) as { id: string }[];
    await waitFor(() => expect(currentPath()).toBe(`/${body.id}`));
  });

  it('disables the owner’s actions, with the reason, for members who may not write snippets', async () => {
    fakeServer({ role: 'read_only', snippets: [snippet(IDS.users, { name: 'Old one' })] });
    await openSidebar();
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Actions for Old one' }));
    const menu = screen.getByRole('menu');
    for (const item of within(menu).getAllByRole('menuitem')) expect((item as HTMLButtonElement).disabled).toBe(true);
    await userEvent.hover(within(menu).getByRole('menuitem', { name: 'Delete query' }).parentElement!);
    expect(within(menu).getByRole('tooltip').textContent).toBe('You need additional permissions to delete queries');
  });

  it('renames from the menu with the SQL the service derives a name from', async () => {
    const server = fakeServer();
    await openSidebar(`/${IDS.orders}`);
    await chooseAction('Users by email', 'Rename query');
    const dialog = await screen.findByRole('dialog', { name: 'Rename query' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest name' }));
    await waitFor(() => expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Orders by day'));
    expect(await server.bodiesOf(`POST /api/pg-meta/${REF}/sql/title`)).toEqual([{ sql: 'select * from users order by email;' }]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename query' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(names('Private')).toEqual(['Orders by day', 'Orders by day', 'Daily signups']);
  });
});

function fakeServerSnippets() {
  // The usual list, in the order the fixtures give it.
  return [
    snippet(IDS.orders, { name: 'Orders by day', version: 3 }),
    snippet(IDS.users, { name: 'Users by email' }),
    snippet(IDS.daily, { name: 'Daily signups' }),
    snippet(IDS.favorite, { name: 'Top customers', favorite: true }),
    snippet(IDS.shared, { name: 'Shared revenue', visibility: 'project' }),
    snippet(IDS.graces, { name: 'Grace report', visibility: 'project', owner_id: 'user-grace', owner_name: 'Grace' }),
  ];
}
