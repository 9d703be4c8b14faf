import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { deadUrl, PUBLIC_ORIGIN, startGateway, type RunningGateway } from './stubs';

/*
 * The table editor's CSV routes through the gateway: an import body (text/csv, far above any JSON body
 * limit) must reach pg-meta as a stream, and an export reply must reach the browser as a stream, each
 * chunk as it comes, without the gateway holding the whole file.
 */

const MB = 1024 * 1024;
let upstream: FastifyInstance;
let gateway: RunningGateway;
/** Resolved by the stub when it has read the first chunk of an import body. */
let firstChunkSeen: () => void = () => {};
/** The stub's export sends its first chunk, then waits for this before sending the rest. */
let releaseExport: () => void = () => {};

beforeAll(async () => {
  upstream = Fastify();
  upstream.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  upstream.post('/default/tables/:id/rows/import', async (request) => {
    let bytes = 0;
    let lines = 0;
    for await (const chunk of request.body as AsyncIterable<Buffer>) {
      if (bytes === 0) firstChunkSeen();
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lines++;
    }
    return { contentType: request.headers['content-type'], bytes, lines };
  });
  upstream.post('/default/tables/:id/rows/export', async (_request, reply) => {
    const line = Buffer.from('1,"a ""quoted"" value",2024-01-01\n');
    const chunk = Buffer.concat(Array.from({ length: Math.ceil(MB / line.length) }, () => line));
    const waitForRelease = new Promise<void>((resolve) => (releaseExport = resolve));
    async function* body() {
      yield Buffer.from('id,label,at\n');
      yield chunk;
      await waitForRelease;
      for (let i = 0; i < 24; i++) yield chunk;
    }
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="t.csv"').send(Readable.from(body()));
  });
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  const pgMeta = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  const dead = await deadUrl();
  gateway = await startGateway({ platform: dead, 'pg-meta': pgMeta, storage: dead, logs: dead, rest: dead, graphql: dead, mail: dead, auth: dead });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

function request(method: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(gateway.url);
  return http.request({ hostname, port, method, path, headers: { origin: PUBLIC_ORIGIN, ...headers } });
}

describe('CSV through the gateway', () => {
  it('streams a 40 MB text/csv import body to pg-meta as it is sent', async () => {
    const line = Buffer.from('42,"multi\nline, with comma",3.5\n');
    const chunk = Buffer.concat(Array.from({ length: Math.ceil(MB / line.length) }, () => line));
    const upstreamReadFirst = new Promise<void>((resolve) => (firstChunkSeen = resolve));
    const req = request('POST', '/api/pg-meta/default/tables/1/rows/import?columns=%5B%22a%22%5D', { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' });
    const reply = new Promise<{ status: number; body: { contentType: string; bytes: number; lines: number } }>((resolve, reject) => {
      req.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) }));
      });
      req.on('error', reject);
    });
    req.write(chunk);
    // pg-meta reads the first megabyte while the rest has not been sent: nothing buffers the body.
    await upstreamReadFirst;
    for (let i = 1; i < 40; i++) req.write(chunk);
    req.end();
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body).toEqual({ contentType: 'text/csv', bytes: 40 * chunk.length, lines: 40 * 2 * (chunk.length / line.length) });
  });

  it('streams a text/csv export reply to the browser chunk by chunk', async () => {
    const req = request('POST', '/api/pg-meta/default/tables/1/rows/export', { 'content-type': 'application/json' });
    const result = await new Promise<{ headers: http.IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
      req.on('response', (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          // The first megabyte arrives while pg-meta still holds back the rest of the file.
          if (bytes === 0) releaseExport();
          bytes += c.length;
        });
        res.on('end', () => resolve({ headers: res.headers, bytes }));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(result.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(result.headers['content-disposition']).toBe('attachment; filename="t.csv"');
    const line = '1,"a ""quoted"" value",2024-01-01\n';
    expect(result.bytes).toBe('id,label,at\n'.length + 25 * Math.ceil(MB / line.length) * line.length);
  });
});
