import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRemote, ports, readSavedPort, REMOTES } from '../src/layout';

describe('stack layout', () => {
  afterEach(() => {
    delete process.env.PORT;
  });

  it('derives every port from the gateway port', () => {
    process.env.PORT = '18080';
    const p = ports();
    expect([p.gateway, p.platform, p['pg-meta'], p.storage, p.logs]).toEqual([18080, 18091, 18092, 18093, 18094]);
    expect(REMOTES.map((r) => p.remote(r.offset))).toEqual([18181, 18182, 18183, 18184, 18185]);
  });

  it('gives each remote its own port and each area one remote', () => {
    expect(new Set(REMOTES.map((r) => r.offset)).size).toBe(REMOTES.length);
    const mounts = REMOTES.flatMap((r) => r.areas.map((a) => a.mount));
    expect(new Set(mounts).size).toBe(mounts.length);
    expect(mounts).toEqual(expect.arrayContaining(['editor', 'sql', 'auth', 'storage', 'settings/storage', 'logs']));
  });

  it('rejects a bad PORT', () => {
    process.env.PORT = 'eighty';
    expect(() => ports()).toThrow('PORT must be a TCP port');
  });

  it('finds a remote by short name, module name or folder', () => {
    expect(findRemote('logs').name).toBe('mfe_logs');
    expect(findRemote('mfe_sql_editor').folder).toBe('mfe-sql-editor');
    expect(findRemote('mfe-table-editor').areas[0].mount).toBe('editor');
    expect(() => findRemote('billing')).toThrow('Unknown remote "billing"');
  });
});

describe('readSavedPort', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'port-'));
  const file = path.join(dir, 'postgres.port');

  it('reads the port a first start saved, and nothing from a missing or damaged file', () => {
    expect(readSavedPort(file)).toBeUndefined();
    writeFileSync(file, '44041\n');
    expect(readSavedPort(file)).toBe(44041);
    for (const damaged of ['', 'abc', '0', '70000', '12 34', '-5']) {
      writeFileSync(file, damaged);
      expect(readSavedPort(file)).toBeUndefined();
    }
  });
});
