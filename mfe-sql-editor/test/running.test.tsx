import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { formatQueryStart } from '../src/running/format';
import { REF, fakeServer } from './snippet-fixtures';
import { renderSql } from './render-sql';

jest.mock('../src/workbench', () => jest.requireActual('./workbench-double'), { virtual: true });
jest.mock('../src/templates', () => jest.requireActual('./templates-double'), { virtual: true });

const LIST = `GET /api/pg-meta/${REF}/sql/running-queries`;

describe('formatQueryStart ("DD MMM YYYY HH:mm (ZZ)")', () => {
  it('writes the spec’s format', () => {
    expect(formatQueryStart('2026-11-25T07:30:00.000Z', 0)).toBe('25 Nov 2026 07:30 (+00:00)');
  });

  it('shows the wall time of the given offset, which may move the day', () => {
    expect(formatQueryStart('2026-11-25T20:45:59Z', 330)).toBe('26 Nov 2026 02:15 (+05:30)');
    expect(formatQueryStart('2026-01-01T03:05:00Z', -480)).toBe('31 Dec 2025 19:05 (-08:00)');
    expect(formatQueryStart('2026-03-09T00:00:00+02:00', 120)).toBe('09 Mar 2026 00:00 (+02:00)');
  });

  it('uses the browser’s timezone by default', () => {
    const at = new Date('2026-06-15T12:34:00Z');
    const offset = -at.getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    const local = `${String(at.getDate()).padStart(2, '0')} Jun 2026 ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    expect(formatQueryStart(at.toISOString())).toBe(`${local} (${sign}${hh}:${mm})`);
  });

  it('shows an unreadable timestamp as it came', () => {
    expect(formatQueryStart('yesterday')).toBe('yesterday');
  });
});

describe('running queries', () => {
  it('lists pid, query (full text on hover) and start, and aborts one after asking', async () => {
    const server = fakeServer();
    renderSql('/running-queries');
    const table = await screen.findByRole('table', { name: 'Running queries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = within(rows[1]).getAllByRole('cell');
    expect(cells[0].textContent).toBe('4343');
    const code = cells[1].querySelector('code')!;
    expect(code.getAttribute('title')).toBe(server.running[1].query);
    expect(code.textContent).toBe('update orders set total = total * 2 where id in (select id from orders where total < 10)');
    expect(cells[2].textContent).toBe(formatQueryStart('2026-11-25T07:31:15.000Z'));

    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Abort query 4242' }));
    const dialog = await screen.findByRole('dialog', { name: 'Abort query' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abort query' }));
    expect(await screen.findByText('Query aborted')).toBeTruthy();
    expect(server.keys()).toContain(`DELETE /api/pg-meta/${REF}/sql/running-queries/4242`);
    // The list is read again: the aborted query is gone.
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
  });

  it('does nothing when the abort is cancelled', async () => {
    const server = fakeServer();
    renderSql('/running-queries');
    await userEvent.click(await screen.findByRole('button', { name: 'Abort query 4242' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Abort query' })).getByRole('button', { name: 'Cancel' }));
    expect(server.keys().some((k) => k.startsWith('DELETE'))).toBe(false);
  });

  it('reports a failed abort with the spec’s toast', async () => {
    const server = fakeServer();
    server.override(`DELETE /api/pg-meta/${REF}/sql/running-queries/4242`, { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'No such query is running' } });
    renderSql('/running-queries');
    await userEvent.click(await screen.findByRole('button', { name: 'Abort query 4242' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Abort query' })).getByRole('button', { name: 'Abort query' }));
    expect(await screen.findByText('Failed to abort query: No such query is running')).toBeTruthy();
  });

  it('says "No ongoing queries running on database" when none runs, and refreshes on demand', async () => {
    const server = fakeServer({ running: [] });
    renderSql('/running-queries');
    expect(await screen.findByText(Messages.noOngoingQueries)).toBeTruthy();
    server.running = [{ pid: 7, query: 'select 7', query_start: '2026-11-25T07:30:00.000Z' }];
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('table', { name: 'Running queries' })).toBeTruthy();
    expect(server.keys().filter((k) => k === LIST)).toHaveLength(2);
  });

  it('polls every 5 seconds', async () => {
    jest.useFakeTimers();
    try {
      const server = fakeServer({ running: [] });
      renderSql('/running-queries');
      await screen.findByText(Messages.noOngoingQueries);
      expect(server.keys().filter((k) => k === LIST)).toHaveLength(1);
      await act(async () => {
        jest.advanceTimersByTime(4000);
      });
      expect(server.keys().filter((k) => k === LIST)).toHaveLength(1);
      await act(async () => {
        jest.advanceTimersByTime(1100);
      });
      await waitFor(() => expect(server.keys().filter((k) => k === LIST)).toHaveLength(2));
    } finally {
      jest.useRealTimers();
    }
  });

  it('is for members with the admin permission only', async () => {
    const server = fakeServer({ role: 'read_only' });
    renderSql('/running-queries');
    expect(await screen.findByText('You need additional permissions')).toBeTruthy();
    expect(server.keys()).not.toContain(LIST);
  });
});
