import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { NEW_REPORT_CONTENT, ReportMessages, reportRoutes, type CustomReport, type DatabaseReport, type QueryRun, type SqlSnippet } from '@dash/contracts';
import { ReportsMenu } from '../src/reports/ReportsMenu';
import { ReportsRoutes } from '../src/reports/ReportsRoutes';
import { chartPoints, moveBlock } from '../src/reports/report-blocks';

const ajv = addFormats(new Ajv({ strict: false }));
/** Fixtures are checked against the contract, so the tests cannot drift from the services. */
function valid<T>(schema: object, value: T): T {
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(ajv.errorsText(validate.errors));
  return value;
}

const SNIPPET_ID = '11111111-1111-4111-8111-111111111111';
const REPORT_ID = '22222222-2222-4222-8222-222222222222';
const BLOCK_A = '33333333-3333-4333-8333-333333333333';
const BLOCK_B = '44444444-4444-4444-8444-444444444444';

const report = (layout: CustomReport['content']['layout'] = []): CustomReport =>
  valid(reportRoutes.getReport.response, {
    id: REPORT_ID,
    type: 'report',
    project_id: 1,
    name: 'Signups',
    description: 'Daily signups',
    visibility: 'project',
    owner_id: 'u1',
    content: { ...NEW_REPORT_CONTENT, layout },
    inserted_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
  });

const snippet: SqlSnippet = {
  id: SNIPPET_ID,
  type: 'sql',
  name: 'Signups per day',
  description: null,
  visibility: 'project',
  owner_id: 'u1',
  owner_name: 'Olivia',
  project_id: 1,
  content: { sql: 'select day, signups from stats', favorite: false },
  version: 1,
  inserted_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
};

const run: QueryRun = {
  results: [{ command: 'SELECT', columns: [{ name: 'day', type: 'date' }, { name: 'signups', type: 'int8' }], rows: [['2026-03-01', '4'], ['2026-03-02', '7']], rowCount: 2, truncated: false }],
  notices: [],
  durationMs: 1,
  ranAs: 'postgres',
};

const common = (role: 'owner' | 'read_only' = 'owner'): Record<string, MockAnswer> => ({
  ...permissionsAnswer('default', role),
  'GET /api/platform/projects/default/content/reports': { body: { data: [report()] } },
  'GET /api/platform/projects/default/content/sql': { body: { data: [snippet] } },
  'POST /api/pg-meta/default/sql/run': { body: run },
});

/** The area as the shell draws it: the menu's custom reports section beside the routes. */
function Area() {
  return (
    <>
      <ReportsMenu />
      <ReportsRoutes />
    </>
  );
}

/** Clicks "+ New custom report" once the member's permissions have loaded and enabled it. */
async function openCreateDialog() {
  const button = await screen.findByRole<HTMLButtonElement>('button', { name: '+ New custom report' });
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
}

describe('create-report dialog', () => {
  it('requires a name, creates the report, says so and opens it', async () => {
    const created = report();
    const fetchMock = mockFetch({
      ...common(),
      'POST /api/platform/projects/default/content/reports': { status: 201, body: [created] },
      [`GET /api/platform/projects/default/content/reports/${REPORT_ID}`]: { body: created },
    });
    renderArea(Area, { mount: 'reports', url: `/project/default/reports/${REPORT_ID}x` });
    await openCreateDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Create a custom report' });
    expect(within(dialog).getByText(ReportMessages.nameRequiredMarker)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create report' }));
    expect(await within(dialog).findByText(ReportMessages.nameRequired)).toBeTruthy();
    expect(fetchMock.calls.some((c) => c.method === 'POST' && c.url.endsWith('/content/reports'))).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Signups  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText(ReportMessages.created)).toBeTruthy();
    const [body] = (await fetchMock.bodiesOf('POST /api/platform/projects/default/content/reports')) as Array<Record<string, unknown>>;
    expect(body).toMatchObject({ name: 'Signups', description: null, content: NEW_REPORT_CONTENT });
    expect(body!.id).toMatch(/^[0-9a-f-]{36}$/);
    // The new report opens: its empty state.
    expect(await screen.findByText('This report has no blocks yet')).toBeTruthy();
  });

  it('shows the service\'s message when creating fails', async () => {
    mockFetch({
      ...common(),
      'POST /api/platform/projects/default/content/reports': { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'Another item already has this id' } },
    });
    renderArea(Area, { mount: 'reports', url: '/project/default/reports/database' });
    await openCreateDialog();
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Signups' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText(ReportMessages.createFailed('Another item already has this id'))).toBeTruthy();
  });

  it('is disabled for members who may not create content', async () => {
    mockFetch({ ...common('read_only'), 'GET /api/pg-meta/default/reports/database': { status: 500, body: { statusCode: 500, error: 'x', message: 'down' } } });
    renderArea(Area, { mount: 'reports', url: '/project/default/reports/database' });
    const button = await screen.findByRole('button', { name: '+ New custom report' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(await screen.findByRole('link', { name: 'Signups' })).toBeTruthy();
  });
});

describe('built-in reports', () => {
  it('shows the API report of the shared range, with the moved notice', async () => {
    const fetchMock = mockFetch({
      ...common(),
      'GET /api/logs/default/reports/api-overview': {
        body: valid(reportRoutes.apiOverview.response, {
          from: '2026-03-01T00:00:00.000Z',
          to: '2026-03-02T00:00:00.000Z',
          interval: 'hour',
          totals: { requests: 1234, errors: 12 },
          series: [{ time: '2026-03-01T00:00:00.000Z', requests: 1234, errors: 12, p50_ms: 3, p95_ms: 20, p99_ms: 80 }],
          top_paths: [{ path: '/rest/v1/todos', requests: 1000, errors: 2, avg_ms: 4.5 }],
          status_codes: [{ status: 200, requests: 1222 }, { status: 500, requests: 12 }],
        }),
      },
    });
    renderArea(Area, { mount: 'reports', url: '/project/default/reports' });
    expect(await screen.findByText('1,234')).toBeTruthy();
    expect(screen.getByText(ReportMessages.movedNotice)).toBeTruthy();
    expect(screen.getByText('/rest/v1/todos')).toBeTruthy();
    expect(within(screen.getByText('Error rate').parentElement!).getByText('1.0%')).toBeTruthy();
    const call = fetchMock.calls.find((c) => c.url.includes('/reports/api-overview'));
    expect(new URL(call!.url).searchParams.get('range')).toBe('24h');
  });

  it('says how to enable pg_stat_statements when the server does not load it', async () => {
    const db: DatabaseReport = valid(reportRoutes.database.response, {
      database_size_bytes: 8_000_000,
      max_connections: 100,
      connections: [{ state: 'active', count: 1 }, { state: 'idle', count: 4 }],
      cache_hit_ratio: { tables: 0.995, indexes: null },
      largest_tables: [{ schema: 'public', name: 'todos', total_bytes: 65536, table_bytes: 40960, index_bytes: 16384, row_estimate: -1 }],
      statements: { state: 'not_loaded' },
    });
    mockFetch({ ...common(), 'GET /api/pg-meta/default/reports/database': { body: db } });
    renderArea(Area, { mount: 'reports', url: '/project/default/reports/database' });
    expect(await screen.findByText(/pg_stat_statements is not loaded/)).toBeTruthy();
    expect(screen.getByText(/shared_preload_libraries = 'pg_stat_statements'/)).toBeTruthy();
    expect(screen.getByText('5 / 100')).toBeTruthy();
    expect(screen.getByText('99.5%')).toBeTruthy();
    expect(screen.getByText('todos')).toBeTruthy();
  });
});

describe('a custom report', () => {
  const twoBlocks = () =>
    report([
      { id: BLOCK_A, snippet_id: SNIPPET_ID, view: 'table' },
      { id: BLOCK_B, snippet_id: SNIPPET_ID, view: 'chart', chart: { type: 'bar', x: 'day', y: 'signups' } },
    ]);

  it('shows each block\'s snippet result and moves a block down with the keyboard-reachable button', async () => {
    const fetchMock = mockFetch({
      ...common(),
      [`GET /api/platform/projects/default/content/reports/${REPORT_ID}`]: { body: twoBlocks() },
      [`PATCH /api/platform/projects/default/content/reports/${REPORT_ID}`]: async (request) => {
        const body = (await request.json()) as { content: CustomReport['content'] };
        return { body: { ...twoBlocks(), content: body.content } };
      },
    });
    renderArea(Area, { mount: 'reports', url: `/project/default/reports/${REPORT_ID}` });
    const blocks = await screen.findByRole('list', { name: 'Blocks' });
    expect((await within(blocks).findAllByText('2026-03-02')).length).toBeGreaterThan(0);
    // The run is read-only.
    const [runBody] = (await fetchMock.bodiesOf('POST /api/pg-meta/default/sql/run')) as Array<Record<string, unknown>>;
    expect(runBody).toEqual({ query: 'select day, signups from stats', readOnly: true });

    fireEvent.click((await within(blocks).findAllByRole('button', { name: 'Move Signups per day down' }))[0]!);
    await waitFor(async () => expect(await fetchMock.bodiesOf(`PATCH /api/platform/projects/default/content/reports/${REPORT_ID}`)).toHaveLength(1));
    const [patch] = (await fetchMock.bodiesOf(`PATCH /api/platform/projects/default/content/reports/${REPORT_ID}`)) as Array<{ content: CustomReport['content'] }>;
    expect(patch!.content.layout.map((b) => b.id)).toEqual([BLOCK_B, BLOCK_A]);
  });

  it('puts the blocks back and says why when saving the order fails', async () => {
    mockFetch({
      ...common(),
      [`GET /api/platform/projects/default/content/reports/${REPORT_ID}`]: { body: twoBlocks() },
      [`PATCH /api/platform/projects/default/content/reports/${REPORT_ID}`]: { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Forbidden' } },
    });
    renderArea(Area, { mount: 'reports', url: `/project/default/reports/${REPORT_ID}` });
    const blocks = await screen.findByRole('list', { name: 'Blocks' });
    fireEvent.click((await within(blocks).findAllByRole('button', { name: 'Move Signups per day down' }))[0]!);
    expect(await screen.findByText(ReportMessages.updateFailed('Forbidden'))).toBeTruthy();
    await waitFor(() => expect(within(blocks).getAllByRole('listitem')[0]!.textContent).toContain('Table'));
  });

  it('deletes the report after confirmation and returns to the reports', async () => {
    const fetchMock = mockFetch({
      ...common(),
      [`GET /api/platform/projects/default/content/reports/${REPORT_ID}`]: { body: report() },
      'POST /api/platform/projects/default/content/reports/delete': { body: { deleted: [REPORT_ID] } },
      'GET /api/logs/default/reports/api-overview': { status: 500, body: { statusCode: 500, error: 'x', message: 'down' } },
    });
    renderArea(Area, { mount: 'reports', url: `/project/default/reports/${REPORT_ID}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for report Signups' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete report' }));
    expect(await screen.findByText(ReportMessages.deleted)).toBeTruthy();
    expect(await fetchMock.bodiesOf('POST /api/platform/projects/default/content/reports/delete')).toEqual([{ ids: [REPORT_ID] }]);
    expect(await screen.findByText('Failed to load the API report')).toBeTruthy();
  });
});

describe('block helpers', () => {
  it('moves a block and ignores moves out of range', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => ({ id, snippet_id: id, view: 'table' as const }));
    expect(moveBlock([a!, b!, c!], 0, 2).map((x) => x.id)).toEqual(['b', 'c', 'a']);
    expect(moveBlock([a!, b!, c!], 2, 0).map((x) => x.id)).toEqual(['c', 'a', 'b']);
    expect(moveBlock([a!, b!], 0, 5).map((x) => x.id)).toEqual(['a', 'b']);
  });

  it('reads chart points by column name, numbers from Postgres text, skipping rows without a number', () => {
    const result = { ...run.results[0]!, rows: [['a', '1.5'], ['b', null], ['c', 'x'], [null, 3]] };
    expect(chartPoints(result, 'day', 'signups')).toEqual([
      { x: 'a', y: 1.5 },
      { x: '', y: 3 },
    ]);
    expect(chartPoints(result, 'day', 'missing')).toBeNull();
  });
});
