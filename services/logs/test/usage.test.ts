import { ErrorReply, ServiceMessages, usageLogsRoutes, type LogEventInput } from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { contractValidator, setupPlatform, type Platform } from './helpers';

// The egress the organization usage page shows: response bytes of the gateway's edge events, per project.

let p: Platform;
const check = contractValidator();

beforeAll(async () => {
  p = await setupPlatform();
  const edge = (timestamp: string, ref: string | null, bytes: unknown, source: LogEventInput['source'] = 'edge'): LogEventInput => ({
    source,
    project_ref: ref,
    timestamp,
    event_message: 'GET /x 200',
    metadata: { method: 'GET', path: '/x', status: 200, duration_ms: 1, ...(bytes === undefined ? {} : { response_bytes: bytes }) },
  });
  const res = await p.app.inject({
    method: 'POST',
    url: '/internal/events',
    headers: serviceHeaders(),
    payload: {
      events: [
        edge('2026-03-01T00:00:00.000Z', 'shop', 1000),
        edge('2026-03-15T12:00:00.000Z', 'shop', 2500),
        edge('2026-03-31T23:59:59.999Z', 'shop', 500),
        edge('2026-04-01T00:00:00.000Z', 'shop', 7000), // next month
        edge('2026-02-28T23:59:59.999Z', 'shop', 9000), // previous month
        edge('2026-03-10T00:00:00.000Z', 'blog', 42),
        edge('2026-03-10T00:00:00.000Z', 'blog', undefined), // an event from before bytes were recorded
        edge('2026-03-10T00:00:00.000Z', 'blog', 'lots'),
        edge('2026-03-10T00:00:00.000Z', 'blog', 100_000, 'service'),
        edge('2026-03-10T00:00:00.000Z', null, 100_000),
      ],
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => p.close());

const egress = (body: object, headers: Record<string, string> = serviceHeaders('platform')) =>
  p.app.inject({ method: 'POST', url: '/internal/usage/egress', headers, payload: body });

describe('egress per project', () => {
  it('sums the response bytes of each project\'s edge events in [from, to), 0 for a project without any', async () => {
    const res = await egress({ from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z', refs: ['shop', 'blog', 'quiet'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(check(usageLogsRoutes.egress.response, body)).toBeNull();
    expect(body).toEqual({
      projects: [
        { ref: 'shop', egress_bytes: 4000 },
        { ref: 'blog', egress_bytes: 42 },
        { ref: 'quiet', egress_bytes: 0 },
      ],
    });
  });

  it('is for the platform\'s services only', async () => {
    const body = { from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z', refs: ['shop'] };
    const asUser = await egress(body, userHeaders({ shop: 'owner' }));
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ message: ServiceMessages.internalOnly });
    expect((await egress(body, {})).statusCode).toBe(401);
  });

  it('refuses a range that ends before it starts, and bad refs', async () => {
    const backwards = await egress({ from: '2026-04-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z', refs: ['shop'] });
    expect(backwards.statusCode).toBe(400);
    expect(check(ErrorReply, backwards.json())).toBeNull();
    expect((await egress({ from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z', refs: ['Not A Ref'] })).statusCode).toBe(400);
  });
});
