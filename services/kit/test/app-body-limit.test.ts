import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { access, defineRoute, ServiceMessages } from '@dash/contracts';
import { addRoute, createServiceApp, type ServiceApp } from '../src/app';
import { TEST_SECRET } from '../src/testing';

// A proxy (the gateway) streams a body on to a service while the service already knows it is too large.
// The 413 must reach it: answering and closing mid-upload makes the proxy fail with EPIPE instead.
const save = defineRoute({
  service: 'platform',
  method: 'POST',
  url: '/save',
  body: Type.Object({ text: Type.String() }),
  response: Type.Object({ length: Type.Integer() }),
  access: access.public,
});

let app: ServiceApp;
let url: string;

beforeAll(async () => {
  app = createServiceApp({ name: 'kit-test', secret: TEST_SECRET, bodyLimit: 1024 * 1024 });
  addRoute(app, save, async ({ body }) => ({ length: body.text.length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/save`;
});

afterAll(() => app.close());

/** A JSON body of about `megabytes` MB, sent as a stream in 64 KB chunks, as a proxy forwards it. */
function streamedBody(megabytes: number): { body: ReadableStream<Uint8Array>; length: number } {
  const json = Buffer.from(JSON.stringify({ text: 'x'.repeat(megabytes * 1024 * 1024) }));
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= json.length) return controller.close();
      controller.enqueue(json.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
  return { body, length: json.length };
}

describe('a body over the limit', () => {
  it('gets a 413 with a message, every time, also when streamed with its length', async () => {
    for (let i = 0; i < 5; i++) {
      const { body, length } = streamedBody(10);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) }, body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: ServiceMessages.bodyTooLarge });
    }
  });

  it('gets a 413 when streamed without a length too, and a body within the limit still works', async () => {
    const { body } = streamedBody(3);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'abc' }) });
    expect(await ok.json()).toEqual({ length: 3 });
  });
});
