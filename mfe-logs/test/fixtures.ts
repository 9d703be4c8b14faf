import type { RouteReply, logsRoutes } from '@dash/contracts';

export const edgeLogsReply: RouteReply<typeof logsRoutes.edgeLogs> = {
  events: [
    {
      id: 'e2',
      timestamp: '2026-11-22T10:00:02.000Z',
      method: 'GET',
      path: '/api/pg-meta/default/tables',
      status: 200,
      duration_ms: 12.5,
      event_message: 'GET /api/pg-meta/default/tables 200',
    },
    {
      id: 'e1',
      timestamp: '2026-11-22T10:00:01.000Z',
      method: 'POST',
      path: '/api/storage/default/buckets',
      status: 403,
      duration_ms: 3.25,
      event_message: 'POST /api/storage/default/buckets 403',
    },
  ],
};
