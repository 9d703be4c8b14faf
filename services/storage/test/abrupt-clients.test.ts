import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { prng, waitUntil } from '@dash/service-kit/dist/testing';
import { as, setupProject, type Project } from './helpers';
import { clientFor, createBucket, listenApi, objectRows, tempFiles } from './object-fixtures';

/*
 * Clients that go away at any point: raw sockets send part of an upload (raw or multipart, through the
 * storage API or the dashboard's route) or read part of a download, a zip or a render, then close or
 * reset the connection at a point a seeded generator picks. The service must stay up, and an upload
 * that did not arrive whole must leave no row, no bytes and no temporary file.
 */

const CASES = 60;
const SEED = 0x5eed27;

let p: Project;
let port: number;
const apiKey = () => `Bearer ${p.keys.service_role}`;

beforeAll(async () => {
  p = await setupProject();
  const base = new URL(await listenApi(p));
  port = Number(base.port);
  await createBucket(p, 'abrupt', { public: true });
  await createBucket(p, 'small', { fileSizeLimit: 50_000 });
  const storage = clientFor(base.href, p.keys.service_role);
  const picture = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#2a6' } }).png().toBuffer();
  for (const [name, bytes] of [['kept/big.bin', Buffer.alloc(3 << 20, 7)], ['kept/other.bin', Buffer.alloc(200_000, 8)], ['kept/picture.png', picture]] as const) {
    expect((await storage.from('abrupt').upload(name, bytes)).error).toBeNull();
  }
});

afterAll(async () => {
  await p.close();
});

/** A request's bytes: its head and its body. */
function request(method: string, target: string, headers: Record<string, string | number>, body: Buffer = Buffer.alloc(0)): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'host: 127.0.0.1', ...Object.entries({ ...headers, 'content-length': body.length }).map(([name, value]) => `${name}: ${value}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

/** A multipart form as storage-js sends it: the fields, then the file. */
function form(boundary: string, file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=""; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

interface Case {
  what: string;
  /** The whole request. */
  bytes: Buffer;
  /** Requests bytes sent before the client goes away (for uploads, fewer than all of them). */
  sent: number;
  /** Response bytes read before the client goes away (downloads). */
  read: number;
  /** The bucket and name of the object an upload would create. */
  upload?: { bucket: string; name: string };
}

function caseOf(i: number, random: () => number): Case {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const upTo = (n: number) => Math.floor(random() * n);
  const file = Buffer.alloc(1 + upTo(300_000), i);
  const name = `case-${i}.bin`;
  const kind = pick(['raw', 'multipart', 'dashboard', 'over limit', 'download', 'range', 'zip', 'render'] as const);
  // Half the uploads stop in their last 4 bytes: in a form, after the end of its file but not of the form.
  const cut = (length: number) => (random() < 0.5 ? upTo(length) : length - 1 - upTo(Math.min(4, length)));
  const upload = (bucket: string, bytes: Buffer): Case => ({ what: kind, bytes, sent: cut(bytes.length), read: 0, upload: { bucket, name } });
  switch (kind) {
    case 'raw':
      return upload('abrupt', request('POST', `/default/v1/object/abrupt/${name}`, { authorization: apiKey(), 'content-type': 'application/octet-stream' }, file));
    case 'multipart': {
      const boundary = `b${i}x`;
      return upload('abrupt', request('POST', `/default/v1/object/abrupt/${name}`, { authorization: apiKey(), 'content-type': `multipart/form-data; boundary=${boundary}` }, form(boundary, file)));
    }
    case 'dashboard':
      return upload('abrupt', request('POST', `/default/buckets/abrupt/objects/upload?path=${name}`, { ...as('owner'), 'content-type': 'application/octet-stream' }, file));
    case 'over limit':
      return upload('small', request('PUT', `/default/v1/object/small/${name}`, { authorization: apiKey(), 'content-type': 'application/octet-stream' }, Buffer.alloc(50_001 + upTo(200_000))));
    case 'download':
    case 'range': {
      const headers: Record<string, string> = { authorization: apiKey() };
      if (kind === 'range') headers.range = `bytes=${upTo(1 << 20)}-`;
      const bytes = request('GET', '/default/v1/object/abrupt/kept/big.bin', headers);
      return { what: kind, bytes, sent: bytes.length, read: upTo(2 << 20) };
    }
    case 'zip': {
      const bytes = request('POST', '/default/buckets/abrupt/objects/zip', { ...as('owner'), 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ paths: ['kept/'], name: 'kept.zip' })));
      return { what: kind, bytes, sent: bytes.length, read: upTo(3 << 20) };
    }
    case 'render': {
      const bytes = request('GET', `/default/v1/render/image/public/abrupt/kept/picture.png?width=${10 + upTo(500)}`, {});
      return { what: kind, bytes, sent: bytes.length, read: upTo(20_000) };
    }
  }
}

/**
 * Plays a case: sends its first `sent` bytes in a few writes, reads up to `read` bytes of the answer (a
 * shorter answer: until it stops coming), then ends the connection (FIN) or resets it (RST).
 */
async function play(c: Case, random: () => number): Promise<void> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  await once(socket, 'connect');
  const cuts = [0, ...Array.from({ length: 3 }, () => Math.floor(random() * c.sent)).sort((a, b) => a - b), c.sent];
  for (let k = 1; k < cuts.length; k++) {
    if (cuts[k]! > cuts[k - 1]!) socket.write(c.bytes.subarray(cuts[k - 1], cuts[k]));
    await new Promise((resolve) => setTimeout(resolve, random() * 5));
  }
  let received = 0;
  await new Promise<void>((resolve) => {
    const quiet = setTimeout(resolve, c.read === 0 ? random() * 300 : 200);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= c.read) resolve();
      else quiet.refresh();
    });
    socket.once('close', resolve);
  });
  if (random() < 0.5) socket.resetAndDestroy();
  else socket.end();
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))) : [];

describe('clients that go away', () => {
  it(`survives ${CASES} cut-off uploads and downloads, leaving no object, bytes or temporary file of the uploads`, async () => {
    const random = prng(SEED);
    const cases = Array.from({ length: CASES }, (_, i) => caseOf(i, random));
    // A few at a time, as clients come.
    for (let start = 0; start < cases.length; start += 4) {
      await Promise.all(cases.slice(start, start + 4).map((c) => play(c, random)));
    }
    expect(new Set(cases.map((c) => c.what)).size).toBe(8);
    // Among them, forms cut after their file but before their end (stored and answered 200 before).
    expect(cases.filter((c) => c.what === 'multipart' && c.bytes.length - c.sent <= 4).length).toBeGreaterThan(0);

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    await waitUntil(() => tempFiles(p).length === 0, 'the temporary files of the cut-off uploads are gone', 10_000);

    const uploads = cases.filter((c) => c.upload);
    for (const bucket of ['abrupt', 'small']) {
      const rows = await objectRows(p, bucket);
      const cutOff = new Set(uploads.filter((c) => c.upload!.bucket === bucket).map((c) => c.upload!.name));
      expect(rows.filter((row) => cutOff.has(row.name)).map((row) => `${row.name} (${cases[Number(/\d+/.exec(row.name)![0])]!.what})`)).toEqual([]);
      // Every stored file is a row's bytes: none of a cut-off upload.
      const files = filesUnder(path.join(p.backendDir, 'objects', 'default', bucket));
      expect(files.sort()).toEqual(rows.map((row) => `${row.id}/${row.version}`).sort());
    }

    // And it serves the next client as before.
    const after = await fetch(`http://127.0.0.1:${port}/default/v1/object/abrupt/after.bin`, { method: 'POST', headers: { authorization: apiKey(), 'content-type': 'text/plain' }, body: 'whole' });
    expect(after.status).toBe(200);
  });
});
