import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { freePort, precompressFolder } from '@dash/service-kit';
import { rawRequest } from '@dash/service-kit/dist/testing';

let server: ChildProcess;
let base: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'remote-static-'));
  mkdirSync(path.join(root, '1.0.0-abc'), { recursive: true });
  writeFileSync(path.join(root, '1.0.0-abc', 'mf-manifest.json'), '{"name":"mfe_logs"}');
  writeFileSync(path.join(root, '1.0.0-abc', 'remoteEntry.js'), ENTRY);
  precompressFolder(path.join(root, '1.0.0-abc'));
  writeFileSync(path.join(os.tmpdir(), 'outside-secret.txt'), 'secret');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'static-server.js'), root, String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(base);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});

afterAll(() => {
  server.kill();
  rmSync(root, { recursive: true, force: true });
});

const ENTRY = 'var mfe_logs; (() => { "use strict"; var modules = { "./LogsPage": () => import("./logs-page.js") }; })();\n'.repeat(100);

describe('remote static server', () => {
  it('serves a versioned file with CORS, its type and a long cache', async () => {
    const response = await fetch(`${base}/1.0.0-abc/mf-manifest.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.json()).toEqual({ name: 'mfe_logs' });
  });

  it('sends the copy Accept-Encoding picks, decoding to the same bytes', async () => {
    const url = `${base}/1.0.0-abc/remoteEntry.js`;
    const br = await rawRequest(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString()).toBe(ENTRY);

    const gzip = await rawRequest(url, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(ENTRY);

    const plain = await rawRequest(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(ENTRY);
    expect(Number(plain.headers['content-length'])).toBe(ENTRY.length);

    const head = await rawRequest(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);
  });

  it('does not serve the copies by their own names', async () => {
    expect((await fetch(`${base}/1.0.0-abc/remoteEntry.js.br`)).status).toBe(404);
  });

  it('answers 404 for a missing version and for folders', async () => {
    expect((await fetch(`${base}/9.9.9/mf-manifest.json`)).status).toBe(404);
    expect((await fetch(`${base}/1.0.0-abc`)).status).toBe(404);
  });

  it('never serves files outside its root', async () => {
    for (const attempt of ['/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/1.0.0-abc/..%2f..%2foutside-secret.txt']) {
      const response = await fetch(`${base}${attempt}`);
      expect(response.status).toBe(404);
    }
  });

  it('refuses writes', async () => {
    expect((await fetch(`${base}/1.0.0-abc/mf-manifest.json`, { method: 'PUT', body: 'x' })).status).toBe(405);
  });
});
