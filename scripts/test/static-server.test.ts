import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@dash/service-kit';

let server: ChildProcess;
let base: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'remote-static-'));
  mkdirSync(path.join(root, '1.0.0-abc'), { recursive: true });
  writeFileSync(path.join(root, '1.0.0-abc', 'mf-manifest.json'), '{"name":"mfe_logs"}');
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
});

describe('remote static server', () => {
  it('serves a versioned file with CORS, its type and a long cache', async () => {
    const response = await fetch(`${base}/1.0.0-abc/mf-manifest.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.json()).toEqual({ name: 'mfe_logs' });
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
