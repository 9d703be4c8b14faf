import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { SqlEditorRoutes } from '../src/SqlEditorRoutes';
import { NEED_PERMISSIONS_RUN_QUERIES } from '../src/pages/SqlEditorPage';
import { selectReply, syntaxError, truncatedReply, updateReply } from './fixtures';

const url = '/project/default/sql/new';
const RUN = 'POST /api/pg-meta/default/query';

function answers(role: 'owner' | 'developer' | 'read_only', run: MockAnswer = { body: selectReply }): Record<string, MockAnswer> {
  return { ...permissionsAnswer('default', role), [RUN]: run };
}

async function editor() {
  return (await screen.findByRole('textbox', { name: 'SQL query' })) as HTMLTextAreaElement;
}

describe('SQL editor', () => {
  it('runs the typed SQL with Run', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), 'select * from profiles;');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('table', { name: 'Query results' });
    expect(await fetchMock.bodiesOf(RUN)).toEqual([{ query: 'select * from profiles;' }]);
  });

  it('renders the rows: headers from the columns, NULL for null, JSON for objects', async () => {
    mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), 'select 1');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    const table = await screen.findByRole('table', { name: 'Query results' });
    const headers = within(table).getAllByRole('columnheader').slice(1);
    expect(headers.map((h) => h.textContent)).toEqual(['idint8', 'nametext', 'settingsjsonb', 'activebool']);
    const [first, second] = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').slice(1));
    expect(first.map((c) => c.textContent)).toEqual(['1', 'Ada', '{"theme":"dark","tags":["a","b"]}', 'true']);
    expect(second.map((c) => c.textContent)).toEqual(['2', 'NULL', 'NULL', 'false']);
    expect(second[1].className).toContain('sql-null');

    const footer = screen.getByRole('contentinfo', { name: 'Result summary' });
    expect(footer.textContent).toContain('2 rows');
    expect(footer.textContent).toContain('SELECT');
    expect(footer.textContent).toContain('4.3 ms');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('shows the Postgres message and SQLSTATE in an error panel', async () => {
    mockFetch(answers('owner', { status: 400, body: syntaxError }));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), 'select * from missing_table');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Query failed')).toBeTruthy();
    expect(alert.textContent).toContain('relation "missing_table" does not exist');
    expect(alert.textContent).toContain('SQLSTATE 42P01');
  });

  it('runs with Ctrl+Enter and with Cmd+Enter', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    const input = await editor();
    await userEvent.type(input, 'select 1');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await screen.findByRole('table', { name: 'Query results' });
    await userEvent.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(async () => expect(await fetchMock.bodiesOf(RUN)).toEqual([{ query: 'select 1' }, { query: 'select 1' }]));
    expect(input.value).toBe('select 1');
  });

  it('says when rows were cut off', async () => {
    mockFetch(answers('owner', { body: truncatedReply }));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), 'select generate_series(1, 5000)');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('table', { name: 'Query results' });
    expect(screen.getByRole('note').textContent).toBe('Showing the first 2 rows. Add a LIMIT or a WHERE clause to see the rest.');
  });

  it('reports a command without result columns with its affected row count', async () => {
    mockFetch(answers('owner', { body: updateReply }));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), "update profiles set name = 'x'");
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Success. No rows returned')).toBeTruthy();
    expect(screen.getByRole('contentinfo', { name: 'Result summary' }).textContent).toContain('3 rows affected');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps Run disabled for an empty query and says This query is empty on an attempt', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    const input = await editor();
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(input, '   ');
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(Messages.queryEmpty)).toBeTruthy();
    expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('inserts two spaces with Tab instead of leaving the editor', async () => {
    mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    const input = await editor();
    await userEvent.type(input, 'select');
    await userEvent.keyboard('{Enter}{Tab}1');
    expect(input.value).toBe('select\n  1');
    expect(document.activeElement).toBe(input);
  });

  it('runs only the selected text when there is a selection', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    const input = await editor();
    await userEvent.type(input, 'select 1;\nselect 2;');
    input.setSelectionRange(10, 19);
    fireEvent.select(input);
    await userEvent.click(await screen.findByRole('button', { name: 'Run selected' }));
    await screen.findByRole('table', { name: 'Query results' });
    expect(await fetchMock.bodiesOf(RUN)).toEqual([{ query: 'select 2;' }]);
  });
});

describe('SQL editor: routes and permissions', () => {
  it('opens a new query at /sql', async () => {
    mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url: '/project/default/sql' });
    expect(await editor()).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New query');
  });

  it('opens a new query for paths it does not serve yet', async () => {
    mockFetch(answers('owner'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url: '/project/default/sql/123/extra' });
    expect(await editor()).toBeTruthy();
  });

  it('lets members without tenant_sql_query write SQL but not run it, and says why', async () => {
    const fetchMock = mockFetch(answers('read_only'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    await userEvent.type(await editor(), 'select 1');
    const run = screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    await userEvent.hover(run.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(NEED_PERMISSIONS_RUN_QUERIES);
    expect(screen.getByText(/Your role can write SQL here but not run it/)).toBeTruthy();
    expect(screen.getByText('Your role cannot run queries in this project.')).toBeTruthy();

    await userEvent.click(await editor());
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells members without snippet permission that their queries will not be saved', async () => {
    mockFetch(answers('read_only'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    expect(await screen.findByText(Messages.queriesNotSaved)).toBeTruthy();
  });

  it('shows no such notice to members who may save snippets', async () => {
    mockFetch(answers('developer'));
    renderArea(SqlEditorRoutes, { mount: 'sql', url });
    // The editor renders once the member's permissions are known, so the notice would be there by now.
    await editor();
    expect(screen.queryByText(Messages.queriesNotSaved)).toBeNull();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
