import { screen, within } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { LogsRoutes } from '../src/LogsRoutes';
import { edgeLogsReply } from './fixtures';

const url = '/project/default/logs';

describe('API gateway logs page', () => {
  it('lists the latest edge events, newest first', async () => {
    const fetchMock = mockFetch({
      ...permissionsAnswer('default', 'read_only'),
      'GET /api/logs/default/edge-logs': { body: edgeLogsReply },
    });
    renderArea(LogsRoutes, { mount: 'logs', url });
    const table = await screen.findByRole('table', { name: 'API gateway logs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('/api/pg-meta/default/tables');
    expect(rows[0].textContent).toContain('200');
    expect(rows[1].textContent).toContain('403');
    const logsCall = fetchMock.calls.find((c) => c.url.includes('/edge-logs'));
    expect(new URL(logsCall!.url).searchParams.get('limit')).toBe('100');
  });

  it('shows the empty state when nothing was recorded', async () => {
    mockFetch({ ...permissionsAnswer('default', 'owner'), 'GET /api/logs/default/edge-logs': { body: { events: [] } } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/edge-logs` });
    expect(await screen.findByText(Messages.noResults)).toBeTruthy();
  });

  it('shows the service error with Retry when loading fails', async () => {
    mockFetch({
      ...permissionsAnswer('default', 'owner'),
      'GET /api/logs/default/edge-logs': { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'logs database is down' } },
    });
    renderArea(LogsRoutes, { mount: 'logs', url });
    expect(await screen.findByText('Failed to retrieve logs')).toBeTruthy();
    expect(screen.getByText('logs database is down')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('sends unknown paths to the API gateway page', async () => {
    mockFetch({ ...permissionsAnswer('default', 'owner'), 'GET /api/logs/default/edge-logs': { body: edgeLogsReply } });
    renderArea(LogsRoutes, { mount: 'logs', url: `${url}/nope/deep` });
    expect(await screen.findByRole('table', { name: 'API gateway logs' })).toBeTruthy();
  });
});
