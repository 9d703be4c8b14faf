import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea } from '@dash/shell-sdk/testing';
import { ExplorerMessages, LOG_QUERY_TEMPLATES, type ExplorerQueryResult } from '@dash/contracts';
import { LogsRoutes } from '../src/LogsRoutes';

const QUERY = 'POST /api/logs/default/explorer/query';
const RECENT = 'GET /api/logs/default/explorer/recent';

const result: ExplorerQueryResult = {
  columns: [{ name: 'path', type: 'text' }, { name: 'metadata', type: 'jsonb' }],
  rows: [['/rest/v1/todos', { status: 200, nested: { a: 1 } }]],
  row_count: 1,
  truncated: false,
  range: { from: '2026-11-22T09:00:00.000Z', to: '2026-11-22T10:00:00.000Z' },
  histogram: {
    interval_seconds: 60,
    tables: ['edge_logs'],
    buckets: [{ start: '2026-11-22T09:58:00.000Z', count: 0 }, { start: '2026-11-22T09:59:00.000Z', count: 1 }],
  },
  duration_ms: 3.2,
};

describe('logs explorer', () => {
  it('opens on the explorer and runs the query with the time range on Ctrl+Enter', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'read_only'), [QUERY]: { body: result } });
    renderArea(LogsRoutes, { mount: 'logs', url: '/project/default/logs' });
    const editor = await screen.findByRole('textbox', { name: 'SQL query' });
    fireEvent.change(editor, { target: { value: 'select path from edge_logs' } });
    fireEvent.keyDown(editor, { key: 'Enter', ctrlKey: true });
    const table = await screen.findByRole('table', { name: 'Query results' });
    expect(within(table).getByText('/rest/v1/todos')).toBeTruthy();
    // JSON cells are pretty-printed.
    expect(table.querySelector('pre')!.textContent).toBe(JSON.stringify({ status: 200, nested: { a: 1 } }, null, 2));
    expect(screen.getByRole('figure', { name: 'Events histogram' }).textContent).toContain('1 events in edge_logs');
    const sent = await fetchMock.calls.find((c) => c.method === 'POST')!.json();
    expect(sent).toEqual({ sql: 'select path from edge_logs', range: { preset: '1h' } });
  });

  it("shows the guard's message and re-runs when the range changes", async () => {
    let calls = 0;
    const fetchMock = mockFetch({
      ...permissionsAnswer('default', 'owner'),
      [QUERY]: () => (++calls === 1 ? { status: 400, body: { statusCode: 400, error: 'Bad Request', message: ExplorerMessages.onlySelect } } : { body: result }),
    });
    renderArea(LogsRoutes, { mount: 'logs', url: '/project/default/logs/explorer' });
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ExplorerMessages.onlySelect);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('table', { name: 'Query results' });
    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: '7d' } });
    await waitFor(() => expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(3));
    expect(await fetchMock.calls.filter((c) => c.method === 'POST')[2]!.json()).toMatchObject({ range: { preset: '7d' } });
  });

  it('refuses a custom range that ends before it starts, without a call', async () => {
    mockFetch({ ...permissionsAnswer('default', 'owner'), [QUERY]: { body: result } });
    renderArea(LogsRoutes, { mount: 'logs', url: '/project/default/logs/explorer' });
    fireEvent.change(await screen.findByLabelText('Time range'), { target: { value: 'custom' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-22T10:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-22T09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The time range must end after it starts');
  });

  it('runs a template from the templates page', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'developer'), [QUERY]: { body: result }, [RECENT]: { body: { queries: [] } } });
    renderArea(LogsRoutes, { mount: 'logs', url: '/project/default/logs/explorer/templates' });
    const list = await screen.findByRole('list', { name: 'Templates' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(LOG_QUERY_TEMPLATES.length);
    fireEvent.click(screen.getByRole('button', { name: `Run ${LOG_QUERY_TEMPLATES[0]!.name}` }));
    await screen.findByRole('table', { name: 'Query results' });
    expect((screen.getByRole('textbox', { name: 'SQL query' }) as HTMLTextAreaElement).value).toBe(LOG_QUERY_TEMPLATES[0]!.sql);
    expect(await fetchMock.calls.find((c) => c.method === 'POST')!.json()).toMatchObject({ sql: LOG_QUERY_TEMPLATES[0]!.sql });
  });
});
