import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { ServiceMessages } from '@dash/contracts';
import { createServiceApp, type ServiceApp } from '../src/app';
import { TEST_SECRET } from '../src/testing';

// Requests Node's HTTP parser refuses before Fastify sees them (a URL or headers over 16 KB, a broken
// request line) get a JSON reply that says the connection closes: a keep-alive client must not send its
// next request on that socket (the contract fuzzer saw unrelated requests die with ECONNRESET).

let app: ServiceApp;
let port: number;

beforeAll(async () => {
  app = createServiceApp({ name: 'kit-test', secret: TEST_SECRET });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

afterAll(() => app.close());

/** Sends raw bytes and returns everything the server writes until it closes the connection. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString('latin1')));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as unknown;

it('answers a URL over the header limit with a 431, a message and Connection: close', async () => {
  const reply = await raw(`GET /health?x=${'x'.repeat(100 * 1024)} HTTP/1.1\r\nHost: a\r\n\r\n`);
  expect(reply).toMatch(/^HTTP\/1\.1 431 /);
  expect(reply).toMatch(/\r\nConnection: close\r\n/i);
  expect(bodyOf(reply)).toEqual({ statusCode: 431, error: 'Request Header Fields Too Large', message: ServiceMessages.headersTooLarge });
});

it('answers a malformed request line with a 400, a message and Connection: close', async () => {
  const reply = await raw('NOT HTTP AT ALL\r\n\r\n');
  expect(reply).toMatch(/^HTTP\/1\.1 400 /);
  expect(reply).toMatch(/\r\nConnection: close\r\n/i);
  expect(bodyOf(reply)).toEqual({ statusCode: 400, error: 'Bad Request', message: ServiceMessages.malformedRequest });
});

it('lets a keep-alive client go on after a refused request, on a new connection', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        })
        .on('error', reject);
    });
  try {
    for (let i = 0; i < 20; i++) {
      const refused = await get(`/health?x=${'x'.repeat(20 * 1024)}`);
      expect(refused.status).toBe(431);
      expect(refused.headers.connection).toBe('close');
      expect((await get('/health')).status).toBe(200);
    }
  } finally {
    agent.destroy();
  }
});
