import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { READ_ONLY_MEMBER_NOTE } from '../src/workbench';
import { TRUNCATED_NOTICE } from '../src/workbench/results/ResultsPanel';
import { ROLE_PICKER_READ_ONLY } from '../src/workbench/toolbar/RolePicker';
import {
  SUB,
  analyzedPlan,
  catalog,
  cancelledRun,
  cellsRun,
  divisionByZero,
  duplicateColumns,
  missingTable,
  multiStatement,
  plan,
  truncatedRun,
  wbPaths,
  writesOnly,
} from './workbench-fixtures';
import { deferred, editorView, giveElementsASize, pageText, pressMod, renderWorkbench } from './workbench-render';

giveElementsASize();

const isDisabled = (el: Element) => (el as HTMLButtonElement).disabled;

const runButton = () => screen.getByRole('button', { name: /^Run( selected)?$/ });

async function run() {
  await editorView();
  await userEvent.click(runButton());
}

const tab = (name: RegExp | string) => screen.getByRole('tab', { name });
const grid = (name: RegExp) => screen.findByRole('grid', { name });

describe('Workbench: editor', () => {
  it('loads CodeMirror lazily in the editor host, as an accessible text box with the text', async () => {
    renderWorkbench({ sql: 'select 42' });
    const host = screen.getByTestId('sql-editor');
    const view = await editorView();
    expect(host.contains(view.contentDOM)).toBe(true);
    expect(view.contentDOM.getAttribute('role')).toBe('textbox');
    expect(view.state.doc.toString()).toBe('select 42');
    expect(screen.getByRole('heading', { name: 'My query' })).toBeTruthy();
  });

  it('reports edits to the page, and Ctrl+S saves without the browser dialog', async () => {
    const onSave = jest.fn();
    renderWorkbench({ sql: 'select 1', onSave });
    const view = await editorView();
    act(() => view.dispatch({ changes: { from: 8, insert: ', 2' } }));
    expect(pageText()).toBe('select 1, 2');
    const event = pressMod(view.contentDOM, 's');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('Ctrl+Enter runs the selection only, and the Run button says so', async () => {
    const { fetchMock } = renderWorkbench({
      sql: 'select 1 as a, 2 as a;\nselect now();',
      answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } },
    });
    const view = await editorView();
    act(() => view.dispatch({ selection: { anchor: 0, head: 21 } }));
    expect(runButton().textContent).toContain('Run selected');
    pressMod(view.contentDOM, 'Enter');
    await grid(/1 SELECT/);
    const [body] = (await fetchMock.bodiesOf(`POST ${wbPaths.run}`)) as { query: string; runId: string }[];
    expect(body!.query).toBe('select 1 as a, 2 as a');
    expect(body!.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).not.toHaveProperty('runAs');
  });

  it('formats the whole text with sql-formatter (PostgreSQL)', async () => {
    renderWorkbench({ sql: 'select id,name from orders where total>10' });
    await editorView();
    await userEvent.click(screen.getByRole('button', { name: 'Format' }));
    await waitFor(() => expect(pageText()).toBe('select\n  id,\n  name\nfrom\n  orders\nwhere\n  total > 10'));
  });

  it('does not format a read-only text', async () => {
    renderWorkbench({ sql: 'select 1', readOnly: true });
    const view = await editorView();
    expect(isDisabled(screen.getByRole('button', { name: 'Format' }))).toBe(true);
    expect(view.state.readOnly).toBe(true);
    expect(view.contentDOM.getAttribute('aria-readonly')).toBe('true');
  });
});

describe('Workbench: results', () => {
  it('shows duplicate column names with their own values (columns by position)', async () => {
    renderWorkbench({ sql: 'select 1 as a, 2 as a', answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } } });
    await run();
    const result = await grid(/1 SELECT · 1 row/);
    const headers = within(result).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1)).toEqual(['aint4', 'aint4']);
    const cells = within(result).getAllByRole('gridcell').map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(['1', '2']);
  });

  it('shows one tab per result, the last result with rows first, and NOTICEs in Messages', async () => {
    renderWorkbench({ sql: 'do $$ begin raise notice $m$hello$m$; end $$; create table t(); insert …; select …; select …', answers: { [`POST ${wbPaths.run}`]: { body: multiStatement } } });
    await run();
    await grid(/5 SELECT · 1 row/);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      '1 DO',
      '2 CREATE',
      '3 INSERT · 3 rows',
      '4 SELECT · 3 rows',
      '5 SELECT · 1 row',
      'Messages2',
    ]);
    expect(tab('5 SELECT · 1 row').getAttribute('aria-selected')).toBe('true');

    await userEvent.click(tab('4 SELECT · 3 rows'));
    const second = await grid(/4 SELECT/);
    expect(within(second).getByText('Grace')).toBeTruthy();
    expect(within(second).getByText('NULL').classList.contains('wb-null')).toBe(true);

    await userEvent.click(tab('3 INSERT · 3 rows'));
    expect(screen.getByText('3 rows affected')).toBeTruthy();
    await userEvent.click(tab('2 CREATE'));
    expect(screen.getByText('Success. No rows returned')).toBeTruthy();

    await userEvent.click(tab(/^Messages/));
    const notices = screen.getByRole('list', { name: 'Notices' });
    const [notice, warning] = within(notices).getAllByRole('listitem');
    expect(notice!.textContent).toBe('NOTICE: hello from plpgsql');
    expect(warning!.textContent).toMatch(/^WARNING: something to look at/);
    expect(within(warning!).getByText('the detail', { exact: false }).textContent).toBe('DETAIL: the detail');
    expect(within(warning!).getByText('the hint', { exact: false }).textContent).toBe('HINT: the hint');
    expect(screen.getByText('5 statements ran as project_default_admin in 12 ms')).toBeTruthy();
  });

  it('moves between result tabs with the arrow keys', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: multiStatement } } });
    await run();
    await grid(/5 SELECT/);
    tab('5 SELECT · 1 row').focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(tab(/^Messages/).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab(/^Messages/));
    await userEvent.keyboard('{Home}');
    expect(tab('1 DO').getAttribute('aria-selected')).toBe('true');
  });

  it('shows "rows affected" for writes, and refreshes the completion catalog after them', async () => {
    const { fetchMock } = renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: writesOnly } } });
    await waitFor(() => expect(fetchMock.calls.filter((c) => c.url.endsWith('/sql/completions'))).toHaveLength(1));
    await run();
    expect(await screen.findByText('3 rows affected')).toBeTruthy();
    await waitFor(() => expect(fetchMock.calls.filter((c) => c.url.endsWith('/sql/completions'))).toHaveLength(2));
  });

  it('completes a column of a table created by the last run (Ctrl+Space)', async () => {
    let created = false;
    renderWorkbench({
      sql: 'create table public.e2e_orders (id int primary key, customer_email text)',
      answers: {
        [`POST ${wbPaths.run}`]: () => {
          created = true;
          return { body: writesOnly };
        },
        [`GET ${wbPaths.completions}`]: () => ({
          body: created
            ? { ...catalog, relations: [...catalog.relations, { schema: 'public', name: 'e2e_orders', kind: 'table', columns: [{ name: 'customer_email', type: 'text' }] }] }
            : catalog,
        }),
      },
    });
    await run();
    await screen.findByText('3 rows affected');
    const view = await editorView();
    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: 'select customer_em' }, selection: { anchor: 18 } }));
    view.focus();
    // Ctrl+Space as the keyboard sends it, again until the refreshed catalog has arrived.
    await waitFor(async () => {
      act(() => {
        view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', ctrlKey: true, bubbles: true, cancelable: true }));
      });
      await new Promise((r) => setTimeout(r, 100));
      const labels = [...document.querySelectorAll('.cm-tooltip-autocomplete .cm-completionLabel')].map((l) => l.textContent);
      expect(labels).toContain('customer_email');
    });
  });

  it('keeps the completion catalog after a run of SELECTs only', async () => {
    const { fetchMock } = renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } } });
    await run();
    await grid(/1 SELECT/);
    expect(fetchMock.calls.filter((c) => c.url.endsWith('/sql/completions'))).toHaveLength(1);
  });

  it('says when a result was cut at the row limit', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: truncatedRun } } });
    await run();
    await grid(/1 SELECT · 250,000 rows/);
    expect(screen.getByRole('note').textContent).toContain('Showing the first 100,000 rows. Export to get the whole result.');
    expect(TRUNCATED_NOTICE).toBe('Showing the first 100,000 rows. Export to get the whole result.');
  });

  it('says the query is empty without calling the service', async () => {
    const { fetchMock } = renderWorkbench({ sql: '  -- nothing here\n ; ' });
    await run();
    expect(screen.getByText(Messages.queryEmpty)).toBeTruthy();
    expect(fetchMock.calls.some((c) => c.url.endsWith('/sql/run'))).toBe(false);
  });

  it('shows an error with its line and column, marks it in the editor, and clears the mark on the next edit', async () => {
    renderWorkbench({
      sql: 'select 1;\nselect * from missing_table;',
      answers: { [`POST ${wbPaths.run}`]: { status: 400, body: missingTable } },
    });
    await run();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('ERROR: 42P01: relation "missing_table" does not exist');
    expect(alert.textContent).toContain('Line 2, column 15');
    const view = await editorView();
    await waitFor(() => expect(view.contentDOM.querySelector('.cm-sql-error-line')?.textContent).toBe('select * from missing_table;'));
    expect(view.contentDOM.querySelector('.cm-sql-error-mark')?.textContent).toContain('m');
    act(() => view.dispatch({ changes: { from: 0, insert: '-- ' } }));
    expect(view.contentDOM.querySelector('.cm-sql-error-line')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Line 2, column 15');
  });

  it('places the error of a selection run in the whole text', async () => {
    renderWorkbench({
      sql: 'select 1;\nselect 2;\nselect 1/0;',
      answers: { [`POST ${wbPaths.run}`]: { status: 400, body: { ...missingTable, position: 8 } } },
    });
    const view = await editorView();
    act(() => view.dispatch({ selection: { anchor: 20, head: 31 } }));
    pressMod(view.contentDOM, 'Enter');
    expect((await screen.findByRole('alert')).textContent).toContain('Line 3, column 8');
  });

  it('shows the detail and hint of an error', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { status: 400, body: divisionByZero } } });
    await run();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('DETAIL: a detail from Postgres');
    expect(alert.textContent).toContain('HINT: a hint from Postgres');
    expect(alert.textContent).not.toContain('Line');
  });
});

describe('Workbench: cancel', () => {
  it('cancels the run with the id the run was sent with; the editor stays usable; Postgres’s error shows', async () => {
    const reply = deferred<{ status: number; body: unknown }>();
    const { fetchMock } = renderWorkbench({
      sql: 'select pg_sleep(30)',
      answers: {
        [`POST ${wbPaths.run}`]: () => reply.promise,
      },
    });
    // The cancel path holds the run id: answer any of them.
    const cancelPaths: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      if (/\/sql\/runs\/[^/]+\/cancel$/.test(new URL(request.url).pathname)) {
        cancelPaths.push(new URL(request.url).pathname);
        return new Response(JSON.stringify({ cancelled: true }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      return realFetch(request);
    }) as typeof fetch;

    await run();
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    expect(screen.getByText('Running…')).toBeTruthy();
    const [body] = (await fetchMock.bodiesOf(`POST ${wbPaths.run}`)) as { runId: string }[];

    const view = await editorView();
    expect(view.state.readOnly).toBe(false);
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: ';' } }));
    expect(pageText()).toBe('select pg_sleep(30);');

    await userEvent.click(cancel);
    await waitFor(() => expect(cancelPaths).toEqual([wbPaths.cancel(body!.runId)]));

    await act(async () => reply.resolve({ status: 400, body: cancelledRun }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`ERROR: 57014: ${Messages.queryCancelled}`);
    expect(alert.textContent).toContain('DETAIL: canceling statement due to user request');
    expect(isDisabled(runButton())).toBe(false);
  });
});

describe('Workbench: role picker', () => {
  it('runs as authenticated with the user’s sub and email as claims', async () => {
    const { fetchMock } = renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } } });
    await editorView();
    const picker = await screen.findByRole('button', { name: 'Role: postgres' });
    await waitFor(() => expect(isDisabled(picker)).toBe(false));
    await userEvent.click(picker);
    const dialog = screen.getByRole('dialog', { name: 'Run as a role' });
    await userEvent.click(within(dialog).getByRole('radio', { name: /^authenticated/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'User id (sub)' }), 'not-a-uuid');
    expect(within(dialog).getByRole('alert').textContent).toContain("The user's id is a UUID");
    expect(isDisabled(runButton())).toBe(true);
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'User id (sub)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'User id (sub)' }), SUB);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email (optional)' }), 'ada@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('button', { name: 'Role: authenticated (ada@example.com)' })).toBeTruthy();

    await userEvent.click(runButton());
    await grid(/1 SELECT/);
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.run}`);
    expect(body).toEqual({
      query: 'select 1',
      runId: expect.any(String),
      runAs: { role: 'authenticated', claims: { aud: 'authenticated', sub: SUB, email: 'ada@example.com' } },
    });
  });

  it('runs as service_role without claims', async () => {
    const { fetchMock } = renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } } });
    await editorView();
    const picker = screen.getByRole('button', { name: 'Role: postgres' });
    await waitFor(() => expect(isDisabled(picker)).toBe(false));
    await userEvent.click(picker);
    await userEvent.click(screen.getByRole('radio', { name: /^service_role/ }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(runButton());
    await grid(/1 SELECT/);
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.run}`);
    expect((body as { runAs: unknown }).runAs).toEqual({ role: 'service_role' });
  });

  it('is disabled with its reason for a read-only member, who runs read-only without runAs', async () => {
    const { fetchMock } = renderWorkbench({ role: 'read_only', answers: { [`POST ${wbPaths.run}`]: { body: duplicateColumns } } });
    expect((await screen.findByRole('note')).textContent).toContain(READ_ONLY_MEMBER_NOTE);
    const picker = screen.getByRole('button', { name: 'Role: postgres' });
    expect(isDisabled(picker)).toBe(true);
    const anchor = picker.closest('.dash-tooltip-anchor') as HTMLElement;
    fireEvent.mouseEnter(anchor);
    expect(within(anchor).getByRole('tooltip').textContent).toContain(ROLE_PICKER_READ_ONLY);
    expect((within(anchor).getByRole('tooltip') as HTMLElement).hidden).toBe(false);

    await run();
    await grid(/1 SELECT/);
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.run}`);
    expect(body).not.toHaveProperty('runAs');
  });
});

describe('Workbench: export', () => {
  let click: jest.SpyInstance;
  beforeEach(() => {
    click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  });
  afterEach(() => click.mockRestore());

  it('is disabled until a result with rows exists', async () => {
    renderWorkbench();
    await editorView();
    expect(isDisabled(screen.getByRole('button', { name: 'Export' }))).toBe(true);
  });

  it('prepares the export of the shown statement, then navigates to the download path', async () => {
    const { fetchMock } = renderWorkbench({
      sql: 'create table t();\ninsert into t default values;\nselect * from orders;\nselect count(*) from orders',
      answers: {
        [`POST ${wbPaths.run}`]: {
          body: {
            ...multiStatement,
            results: multiStatement.results.slice(1),
            notices: [],
          },
        },
        [`POST ${wbPaths.exports}`]: { status: 201, body: { token: 'tok_ABCDEFGHIJKLMNOP', expiresInSeconds: 60 } },
      },
    });
    await run();
    await grid(/4 SELECT/);
    await userEvent.click(tab('3 SELECT · 3 rows'));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.exports}`);
    expect(body).toEqual({ query: 'select * from orders', format: 'csv' });
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(new URL(link.href).pathname).toBe(wbPaths.download('tok_ABCDEFGHIJKLMNOP'));
    expect(link.hasAttribute('download')).toBe(true);
    expect(fetchMock.calls.some((c) => c.url.includes('/sql/exports/tok_'))).toBe(false);
  });

  it('exports as the role the result was made with, and says why an export failed', async () => {
    const { fetchMock } = renderWorkbench({
      answers: {
        [`POST ${wbPaths.run}`]: { body: duplicateColumns },
        [`POST ${wbPaths.exports}`]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'permission denied for table orders', code: '42501' } },
      },
    });
    await editorView();
    const picker = screen.getByRole('button', { name: 'Role: postgres' });
    await waitFor(() => expect(isDisabled(picker)).toBe(false));
    await userEvent.click(picker);
    await userEvent.click(screen.getByRole('radio', { name: /^anon/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await userEvent.click(runButton());
    await grid(/1 SELECT/);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Download JSON' }));
    expect(await screen.findByText('Failed to export results: permission denied for table orders')).toBeTruthy();
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.exports}`);
    expect(body).toEqual({ query: 'select 1', format: 'json', runAs: { role: 'anon' } });
    expect(click).not.toHaveBeenCalled();
  });
});

describe('Workbench: explain', () => {
  it('shows the plan as a nested tree with costs, the most expensive node highlighted', async () => {
    const { fetchMock } = renderWorkbench({
      sql: 'select * from orders o join customers c on c.id = o.customer_id where total > 100',
      answers: { [`POST ${wbPaths.explain}`]: { body: plan } },
    });
    await editorView();
    await userEvent.click(screen.getByRole('button', { name: 'Explain' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Explain' }));
    const tree = await screen.findByRole('list', { name: 'Query plan' });
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.explain}`);
    expect(body).toEqual({ query: 'select * from orders o join customers c on c.id = o.customer_id where total > 100', analyze: false });

    const root = tree.querySelector('[data-plan-path=""]') as HTMLElement;
    expect(root.textContent).toMatch(/^Hash Join/);
    expect(root.textContent).toContain('cost=1.09..40.50');
    expect(root.textContent).toContain('Hash Cond: (o.customer_id = c.id)');
    const orders = tree.querySelector('[data-plan-path="0"]') as HTMLElement;
    const hash = tree.querySelector('[data-plan-path="1"]') as HTMLElement;
    const customers = tree.querySelector('[data-plan-path="1.0"]') as HTMLElement;
    expect(orders.parentElement!.closest('li')).toBe(root);
    expect(customers.parentElement!.closest('li')).toBe(hash);
    expect(orders.querySelector('.wb-plan__type')?.textContent).toBe('Seq Scan');
    expect(orders.querySelector('.wb-plan__relation')?.textContent).toBe('on public.orders o');
    expect(orders.textContent).toContain('rows=2260');
    expect(orders.textContent).toContain('width=36');
    expect(orders.textContent).toContain('Filter: (total > 100)');
    expect(customers.querySelector('.wb-plan__relation')?.textContent).toBe('on public.customers c');
    // The orders scan costs 32.60 by itself, the join 40.50 - 32.60 - 1.04 = 6.86.
    expect(orders.classList.contains('is-hot')).toBe(true);
    expect(within(orders).getByText('Most expensive')).toBeTruthy();
    expect(tree.querySelectorAll('.is-hot')).toHaveLength(1);
  });

  it('shows actual times, rows and loops for explain analyze', async () => {
    const { fetchMock } = renderWorkbench({ sql: 'select count(*) from events', answers: { [`POST ${wbPaths.explain}`]: { body: analyzedPlan } } });
    await editorView();
    await userEvent.click(screen.getByRole('button', { name: 'Explain' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Explain analyze' }));
    const tree = await screen.findByRole('list', { name: 'Query plan' });
    const [body] = await fetchMock.bodiesOf(`POST ${wbPaths.explain}`);
    expect(body).toEqual({ query: 'select count(*) from events', analyze: true });
    const scan = tree.querySelector('[data-plan-path="0"]') as HTMLElement;
    expect(scan.textContent).toContain('actual time=0.010..4.900 rows=1000 loops=1');
    expect(scan.classList.contains('is-hot')).toBe(true);
    expect(screen.getByText('Execution time 5.3 ms')).toBeTruthy();
  });
});

describe('Workbench: copy', () => {
  const clipboard = () => {
    const data: Record<string, string> = {};
    return { data, clipboardData: { setData: (type: string, value: string) => (data[type] = value), getData: (type: string) => data[type] ?? '' } };
  };

  it('copies the selected cell', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: cellsRun } } });
    await run();
    const result = await grid(/1 SELECT/);
    await userEvent.click(within(result).getByText('{"theme":"dark"}'));
    const { data, clipboardData } = clipboard();
    fireEvent.copy(result, { clipboardData });
    expect(data['text/plain']).toBe('{"theme":"dark"}');
  });

  it('copies the selected rows as TSV with a header line', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: cellsRun } } });
    await run();
    const result = await grid(/1 SELECT/);
    await userEvent.click(within(result).getAllByRole('checkbox', { name: 'Select' })[0]!);
    await userEvent.click(within(result).getAllByRole('checkbox', { name: 'Select' })[1]!);
    await userEvent.click(within(result).getByText('plain'));
    await userEvent.click(within(result).getByText('say "hi"'));
    const { data, clipboardData } = clipboard();
    fireEvent.copy(result, { clipboardData });
    expect(data['text/plain']).toBe('id\tsettings\tnote\n1\t{"theme":"dark"}\t"tab\there"\n2\t\tsay "hi"');
  });

  it('starts a new run with a new grid: no rows of the last result stay selected', async () => {
    renderWorkbench({ answers: { [`POST ${wbPaths.run}`]: { body: cellsRun } } });
    await run();
    const first = await grid(/1 SELECT/);
    await userEvent.click(within(first).getAllByRole('checkbox', { name: 'Select' })[0]!);
    expect(within(first).getAllByRole('checkbox', { name: 'Select' }).filter((c) => (c as HTMLInputElement).checked)).toHaveLength(1);
    await userEvent.click(runButton());
    await waitFor(() => expect(screen.queryByRole('grid')).not.toBe(first));
    const second = await grid(/1 SELECT/);
    expect(within(second).getAllByRole('checkbox', { name: 'Select' }).filter((c) => (c as HTMLInputElement).checked)).toHaveLength(0);
  });
});
