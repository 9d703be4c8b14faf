// Replies of the SQL editor's run, explain, export and completion routes for the workbench's tests, as
// pg-meta sends them (module.contract.test.ts checks them against the contracts' schemas).
import { Messages, type CompletionCatalog, type ErrorReply, type QueryPlan, type QueryRun, type StatementResult } from '@dash/contracts';

export const WB_REF = 'default';

export const wbPaths = {
  run: `/api/pg-meta/${WB_REF}/sql/run`,
  cancel: (runId: string) => `/api/pg-meta/${WB_REF}/sql/runs/${runId}/cancel`,
  explain: `/api/pg-meta/${WB_REF}/sql/explain`,
  exports: `/api/pg-meta/${WB_REF}/sql/exports`,
  download: (token: string) => `/api/pg-meta/${WB_REF}/sql/exports/${token}`,
  completions: `/api/pg-meta/${WB_REF}/sql/completions`,
};

export function select(columns: [string, string][], rows: unknown[][], extra: Partial<StatementResult> = {}): StatementResult {
  return { command: 'SELECT', columns: columns.map(([name, type]) => ({ name, type })), rows, rowCount: rows.length, truncated: false, ...extra };
}

export function queryRun(results: StatementResult[], extra: Partial<QueryRun> = {}): QueryRun {
  return { results, notices: [], durationMs: 3.5, ranAs: 'project_default_admin', ...extra };
}

/** `select 1 as a, 2 as a`: two columns of one name, each with its own value. */
export const duplicateColumns = queryRun([select([['a', 'int4'], ['a', 'int4']], [[1, 2]])]);

/** A DO block with a NOTICE, a CREATE, an INSERT and two SELECTs. */
export const multiStatement = queryRun(
  [
    { command: 'DO', columns: [], rows: [], rowCount: null, truncated: false },
    { command: 'CREATE', columns: [], rows: [], rowCount: null, truncated: false },
    { command: 'INSERT', columns: [], rows: [], rowCount: 3, truncated: false },
    select([['id', 'int8'], ['name', 'text']], [['1', 'Ada'], ['2', null], ['3', 'Grace']]),
    select([['n', 'int8']], [['3']]),
  ],
  {
    notices: [
      { severity: 'NOTICE', message: 'hello from plpgsql' },
      { severity: 'WARNING', message: 'something to look at', detail: 'the detail', hint: 'the hint' },
    ],
    durationMs: 12.25,
  },
);

export const writesOnly = queryRun([
  { command: 'CREATE', columns: [], rows: [], rowCount: null, truncated: false },
  { command: 'UPDATE', columns: [], rows: [], rowCount: 3, truncated: false },
]);

export const truncatedRun = queryRun([select([['n', 'int4']], [[1], [2], [3]], { rowCount: 250_000, truncated: true })]);

export const cellsRun = queryRun([
  select(
    [['id', 'int8'], ['settings', 'jsonb'], ['note', 'text']],
    [
      ['1', { theme: 'dark' }, 'tab\there'],
      ['2', null, 'say "hi"'],
      ['3', [1, 2], 'plain'],
    ],
  ),
]);

/** Postgres's error for `select * from missing_table` on line 2 (position 25 of the text sent). */
export const missingTable: ErrorReply = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'relation "missing_table" does not exist',
  code: '42P01',
  position: 25,
};

export const divisionByZero: ErrorReply = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'division by zero',
  code: '22012',
  detail: 'a detail from Postgres',
  hint: 'a hint from Postgres',
};

export const cancelledRun: ErrorReply = {
  statusCode: 400,
  error: 'Bad Request',
  message: Messages.queryCancelled,
  code: '57014',
  detail: 'canceling statement due to user request',
};

export const plan: QueryPlan = {
  plan: {
    'Node Type': 'Hash Join',
    'Join Type': 'Inner',
    'Startup Cost': 1.09,
    'Total Cost': 40.5,
    'Plan Rows': 12,
    'Plan Width': 68,
    'Hash Cond': '(o.customer_id = c.id)',
    Plans: [
      {
        'Node Type': 'Seq Scan',
        'Relation Name': 'orders',
        Schema: 'public',
        Alias: 'o',
        'Startup Cost': 0,
        'Total Cost': 32.6,
        'Plan Rows': 2260,
        'Plan Width': 36,
        Filter: '(total > 100)',
      },
      {
        'Node Type': 'Hash',
        'Startup Cost': 1.04,
        'Total Cost': 1.04,
        'Plan Rows': 4,
        'Plan Width': 36,
        Plans: [
          { 'Node Type': 'Seq Scan', 'Relation Name': 'customers', Schema: 'public', Alias: 'c', 'Startup Cost': 0, 'Total Cost': 1.04, 'Plan Rows': 4, 'Plan Width': 36 },
        ],
      },
    ],
  },
  planningTimeMs: 0.21,
};

export const analyzedPlan: QueryPlan = {
  plan: {
    'Node Type': 'Aggregate',
    Strategy: 'Plain',
    'Startup Cost': 20,
    'Total Cost': 20.01,
    'Plan Rows': 1,
    'Plan Width': 8,
    'Actual Startup Time': 5.2,
    'Actual Total Time': 5.21,
    'Actual Rows': 1,
    'Actual Loops': 1,
    Plans: [
      {
        'Node Type': 'Seq Scan',
        'Relation Name': 'events',
        Schema: 'public',
        Alias: 'events',
        'Startup Cost': 0,
        'Total Cost': 17.5,
        'Plan Rows': 1000,
        'Plan Width': 0,
        'Actual Startup Time': 0.01,
        'Actual Total Time': 4.9,
        'Actual Rows': 1000,
        'Actual Loops': 1,
      },
    ],
  },
  planningTimeMs: 0.1,
  executionTimeMs: 5.3,
};

export const catalog: CompletionCatalog = {
  schemas: ['auth', 'public'],
  relations: [
    { schema: 'public', name: 'orders', kind: 'table', columns: [{ name: 'id', type: 'bigint' }, { name: 'total', type: 'numeric' }] },
    { schema: 'public', name: 'Customers', kind: 'table', columns: [{ name: 'Full Name', type: 'text' }] },
    { schema: 'public', name: 'daily_totals', kind: 'view', columns: [{ name: 'day', type: 'date' }] },
    { schema: 'auth', name: 'users', kind: 'table', columns: [{ name: 'email', type: 'text' }] },
  ],
  functions: [
    { schema: 'public', name: 'order_total', args: 'order_id bigint', returns: 'numeric' },
    { schema: 'public', name: 'order_total', args: 'order_id bigint, with_tax boolean', returns: 'numeric' },
    { schema: 'auth', name: 'uid', args: '', returns: 'uuid' },
  ],
};

export const SUB = '4d3c2b1a-0f9e-4d8c-9b7a-665544332211';
