import { Type } from '@sinclair/typebox';
import pg from 'pg';
import { access, defineRoute, ServiceMessages } from '@dash/contracts';
import { addRoute, createServiceApp, sendError, type ServiceApp } from '../src/app';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isConnectionFailure } from '../src/connection-errors';
import { HttpError } from '../src/errors';
import { callService } from '../src/service-calls';
import { TEST_SECRET } from '../src/testing';

// What a request meets while Postgres restarts, as pg reports it: the server ending the session, a refused
// or reset socket, pg's own "Connection terminated", a server still starting up.
function dbError(code: string, message = 'boom'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

const connectionFailures: [string, Error][] = [
  ['57P01 admin_shutdown', dbError('57P01', 'terminating connection due to administrator command')],
  ['57P02 crash_shutdown', dbError('57P02')],
  ['57P03 cannot_connect_now', dbError('57P03', 'the database system is starting up')],
  ['08000 connection_exception', dbError('08000')],
  ['08003 connection_does_not_exist', dbError('08003')],
  ['08006 connection_failure', dbError('08006')],
  ['53300 too_many_connections', dbError('53300')],
  ['ECONNREFUSED', socketError('ECONNREFUSED')],
  ['ECONNRESET', socketError('ECONNRESET')],
  ['EPIPE', socketError('EPIPE')],
  ['Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
  ['Connection terminated', new Error('Connection terminated')],
  ['not queryable', new Error('Client has encountered a connection error and is not queryable')],
];

const notConnectionFailures: [string, Error][] = [
  ['42P01 undefined_table', dbError('42P01')],
  ['57014 query_canceled', dbError('57014')],
  ['a bug', new TypeError('x is undefined')],
  ['a missing file', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' })],
  ['a message that only mentions connections', new Error('the connection string is malformed')],
];

describe('connection failures', () => {
  it.each(connectionFailures)('%s is a connection failure', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each(notConnectionFailures)('%s is not', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });

  it('has one wording, from the contracts messages', () => {
    expect(DATABASE_UNAVAILABLE).toBe(ServiceMessages.databaseUnavailable);
  });
});

describe("the kit's error handler", () => {
  const fail = defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/fail/:which',
    params: Type.Object({ which: Type.String() }),
    response: Type.Object({ ok: Type.Boolean() }),
    access: access.public,
  });
  const failures = new Map([...connectionFailures, ...notConnectionFailures].map(([name, error], i) => [String(i), { name, error }]));
  let app: ServiceApp;

  beforeAll(async () => {
    app = createServiceApp({ name: 'kit-test', secret: TEST_SECRET });
    addRoute(app, fail, async ({ params }) => {
      if (params.which === 'paused') throw new HttpError(503, 'The project is paused');
      throw failures.get(params.which)!.error;
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a connection failure with 503, the message and Retry-After, never 500', async () => {
    for (let i = 0; i < connectionFailures.length; i++) {
      const res = await app.inject({ method: 'GET', url: `/fail/${i}` });
      expect({ name: connectionFailures[i]![0], status: res.statusCode }).toEqual({ name: connectionFailures[i]![0], status: 503 });
      expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: DATABASE_UNAVAILABLE });
      expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    }
  });

  it('gives no Retry-After to a 503 that will not pass by itself (a paused project)', async () => {
    const res = await app.inject({ method: 'GET', url: '/fail/paused' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('keeps statement errors and bugs as they were (a bug is still a 500)', async () => {
    const offset = connectionFailures.length;
    const statuses = [];
    for (let i = 0; i < notConnectionFailures.length; i++) statuses.push((await app.inject({ method: 'GET', url: `/fail/${offset + i}` })).statusCode);
    // 42P01 has no mapping of the kit's own (routes map statement errors themselves): a 500 here.
    expect(statuses).toEqual([500, 500, 500, 500, 500]);
  });
});

describe('a 503 between services', () => {
  const ping = defineRoute({ service: 'platform', method: 'GET', url: '/ping', response: Type.Object({ ok: Type.Boolean() }), access: access.public });
  let upstream: ServiceApp;
  let url: string;

  beforeAll(async () => {
    upstream = createServiceApp({ name: 'upstream', secret: TEST_SECRET });
    upstream.get('/ping', async (_request, reply) => sendError(reply, 503, DATABASE_UNAVAILABLE));
    url = await upstream.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => upstream.close());

  it("stays a 503 with the database message for the caller (not a 502)", async () => {
    const error = await callService(url, TEST_SECRET, 'test', ping).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 503, message: DATABASE_UNAVAILABLE });
  });
});
