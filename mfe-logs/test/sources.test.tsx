import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea } from '@dash/shell-sdk/testing';
import { LogsMessages, Messages } from '@dash/contracts';
import { LogsRoutes } from '../src/LogsRoutes';
import { edgeLogsReply, olderEdgeLogsReply } from './fixtures';

const url = '/project/default/logs';
const EDGE = 'GET /api/logs/default/sources/edge/events';
const paramsOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const listCalls = (calls: Request[], source = 'edge') => calls.filter((c) => new URL(c.url).pathname === `/api/logs/default/sources/${source}/events`);

describe('log source pages', () => {
  it('lists the API gateway events, newest first, over the last hour', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'read_only'), [EDGE]: { body: edgeLogsReply } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    const table = await screen.findByRole('table', { name: 'API Gateway logs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('/api/pg-meta/default/tables');
    expect(rows[0]!.textContent).toContain('12.5 ms');
    expect(rows[1]!.textContent).toContain('403');
    expect(screen.getByText(/Events are kept 7 days/)).toBeTruthy();
    const params = paramsOf(listCalls(fetchMock.calls)[0]!);
    expect(params.limit).toBe('100');
    expect(Date.now() - Date.parse(params.from!)).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.now() - Date.parse(params.from!)).toBeLessThan(3_700_000);
    expect(params.to).toBeUndefined();
  });

  it('sends the search text and the status and method filters', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'owner'), [EDGE]: { body: edgeLogsReply } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    await screen.findByRole('table', { name: 'API Gateway logs' });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '4xx' } });
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'POST' } });
    fireEvent.change(screen.getByLabelText('Search events'), { target: { value: 'buckets' } });
    await waitFor(() => expect(listCalls(fetchMock.calls).map(paramsOf).some((p) => p.search === 'buckets')).toBe(true));
    expect(listCalls(fetchMock.calls).map(paramsOf).at(-1)).toMatchObject({ status: '4xx', method: 'POST', search: 'buckets' });
    expect(screen.queryByLabelText('Level')).toBeNull();
  });

  it('pages back with the cursor, below the newest events', async () => {
    const fetchMock = mockFetch({
      ...permissionsAnswer('default', 'owner'),
      [EDGE]: (request) => ({ body: paramsOf(request).before_id ? olderEdgeLogsReply : edgeLogsReply }),
    });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    const table = await screen.findByRole('table', { name: 'API Gateway logs' });
    fireEvent.click(screen.getByRole('button', { name: 'Load older' }));
    await screen.findByText('No older events in this time range.');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('/api/pg-meta/default/tables'),
      expect.stringContaining('/api/storage/default/buckets'),
      expect.stringContaining('/api/platform/organizations'),
    ]);
    expect(paramsOf(listCalls(fetchMock.calls).at(-1)!)).toMatchObject({ before: edgeLogsReply.next!.before, before_id: edgeLogsReply.next!.before_id });
  });

  it('polls for new events while live tail is on', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'owner'), [EDGE]: { body: edgeLogsReply } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    await screen.findByRole('table', { name: 'API Gateway logs' });
    const before = listCalls(fetchMock.calls).length;
    fireEvent.click(screen.getByRole('button', { name: 'Live tail' }));
    expect(screen.getByRole('button', { name: 'Stop live tail' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(listCalls(fetchMock.calls).length).toBeGreaterThan(before), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Stop live tail' }));
    expect(screen.getByRole('button', { name: 'Live tail' })).toBeTruthy();
  });

  it('opens an event’s whole metadata as JSON beside the list', async () => {
    const event = edgeLogsReply.events[1]!;
    mockFetch({
      ...permissionsAnswer('default', 'owner'),
      [EDGE]: { body: edgeLogsReply },
      [`GET /api/logs/default/sources/edge/events/${event.id}`]: { body: { ...event, metadata: { ...event.metadata, user_agent: 'curl/8' } } },
    });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    await screen.findByRole('table', { name: 'API Gateway logs' });
    fireEvent.click(screen.getByText('/api/storage/default/buckets'));
    const panel = await screen.findByRole('complementary', { name: 'Event details' });
    await waitFor(() => expect(within(panel).getByTestId('event-json').textContent).toContain('"user_agent": "curl/8"'));
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close details' }));
    expect(screen.queryByRole('complementary', { name: 'Event details' })).toBeNull();
  });

  it('shows each source’s own columns and filters', async () => {
    mockFetch({
      ...permissionsAnswer('default', 'developer'),
      'GET /api/logs/default/sources/postgres/events': {
        body: {
          events: [{ id: '00000000-0000-4000-8000-000000000009', timestamp: '2026-11-22T10:00:00.000Z', event_message: 'relation "nope" does not exist', metadata: { error_severity: 'ERROR', user_name: 'dash_admin', duration_ms: null } }],
          next: null,
          retention_days: 3,
        },
      },
    });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/postgres-logs` });
    const table = await screen.findByRole('table', { name: 'Postgres logs' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Timestamp', 'Severity', 'Message', 'User', 'Duration']);
    expect(within(table).getByText('ERROR')).toBeTruthy();
    expect(screen.getByLabelText('Level')).toBeTruthy();
    expect(screen.queryByLabelText('Status')).toBeNull();
  });

  it('says plainly that there is no realtime server nor pooler, without asking for events', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'owner') });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/realtime-logs` });
    expect(await screen.findByText(/no Realtime server/)).toBeTruthy();
    expect(listCalls(fetchMock.calls, 'realtime')).toHaveLength(0);
  });

  it('has no pooler page in a self-hosted deployment', async () => {
    mockFetch({ ...permissionsAnswer('default', 'owner'), 'GET /api/platform/config': { body: { mode: 'self-hosted', flags: {} } } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/pooler-logs` });
    expect(await screen.findByText(LogsMessages.poolerHostedOnly)).toBeTruthy();
  });

  it('shows the empty state when nothing was recorded', async () => {
    mockFetch({ ...permissionsAnswer('default', 'owner'), 'GET /api/logs/default/sources/storage/events': { body: { events: [], next: null, retention_days: 7 } } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/storage-logs` });
    expect(await screen.findByText(Messages.noResults)).toBeTruthy();
    expect(screen.getByText('No Storage events were recorded for this project in this time range.')).toBeTruthy();
  });

  it('shows the service error with Retry when loading fails', async () => {
    mockFetch({
      ...permissionsAnswer('default', 'owner'),
      [EDGE]: { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'logs database is down' } },
    });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    expect(await screen.findByText('Failed to retrieve logs')).toBeTruthy();
    // The message may come a render after the title on a busy machine.
    expect(await screen.findByText('logs database is down')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
