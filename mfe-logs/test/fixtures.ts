import type { RouteReply, logsRoutes } from '@dash/contracts';

export const edgeLogsReply: RouteReply<typeof logsRoutes.sourceEvents> = {
  events: [
    {
      id: '00000000-0000-4000-8000-000000000002',
      timestamp: '2026-11-22T10:00:02.000Z',
      event_message: 'GET /api/pg-meta/default/tables 200',
      metadata: { method: 'GET', path: '/api/pg-meta/default/tables', status: 200, duration_ms: 12.5, user_agent: 'test/1.0' },
    },
    {
      id: '00000000-0000-4000-8000-000000000001',
      timestamp: '2026-11-22T10:00:01.000Z',
      event_message: 'POST /api/storage/default/buckets 403',
      metadata: { method: 'POST', path: '/api/storage/default/buckets', status: 403, duration_ms: 3.25 },
    },
  ],
  next: { before: '2026-11-22T10:00:01.000Z', before_id: '00000000-0000-4000-8000-000000000001' },
  retention_days: 7,
};

export const olderEdgeLogsReply: RouteReply<typeof logsRoutes.sourceEvents> = {
  events: [
    {
      id: '00000000-0000-4000-8000-000000000000',
      timestamp: '2026-11-22T09:59:00.000Z',
      event_message: 'GET /api/platform/organizations 200',
      metadata: { method: 'GET', path: '/api/platform/organizations', status: 200, duration_ms: 1 },
    },
  ],
  next: null,
  retention_days: 7,
};
