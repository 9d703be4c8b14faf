import type { RouteReply, pgMetaRoutes } from '@dash/contracts';

type Reply = RouteReply<typeof pgMetaRoutes.runQuery>;

export const selectReply: Reply = {
  command: 'SELECT',
  columns: [
    { name: 'id', type: 'int8' },
    { name: 'name', type: 'text' },
    { name: 'settings', type: 'jsonb' },
    { name: 'active', type: 'bool' },
  ],
  rows: [
    { id: 1, name: 'Ada', settings: { theme: 'dark', tags: ['a', 'b'] }, active: true },
    { id: 2, name: null, settings: null, active: false },
  ],
  rowCount: 2,
  truncated: false,
  durationMs: 4.25,
};

export const truncatedReply: Reply = {
  command: 'SELECT',
  columns: [{ name: 'n', type: 'int4' }],
  rows: [{ n: 1 }, { n: 2 }],
  rowCount: 2,
  truncated: true,
  durationMs: 12,
};

export const updateReply: Reply = {
  command: 'UPDATE',
  columns: [],
  rows: [],
  rowCount: 3,
  truncated: false,
  durationMs: 1.5,
};

export const syntaxError = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'relation "missing_table" does not exist',
  code: '42P01',
};
