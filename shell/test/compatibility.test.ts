import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_VERSION } from '@dash/shell-sdk';
import { satisfiesCaret, sdkCompatibility } from '../src/federation/compatibility';

describe('satisfiesCaret', () => {
  it.each([
    ['1.1.0', '^1.1.0', true],
    ['1.4.2', '^1.1.0', true],
    ['1.0.9', '^1.1.0', false],
    ['2.0.0', '^1.1.0', false],
    ['1.1.0', '^2.0.0', false],
    ['0.3.4', '^0.3.1', true],
    ['0.4.0', '^0.3.1', false],
    ['1.1.0', '1.1.0', true],
    ['1.1.1', '1.1.0', false],
    ['1.1.0-beta.1', '^1.1.0', true],
    ['1.1.0', '>=1.0.0', false],
    ['not a version', '^1.0.0', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfiesCaret(version, range)).toBe(expected);
  });
});

describe('sdkCompatibility', () => {
  const manifest = (requiredVersion?: unknown) => ({
    name: 'mfe_logs',
    shared: [
      { name: 'react', requiredVersion: '^99.0.0' },
      ...(requiredVersion === undefined ? [] : [{ name: '@dash/shell-sdk', requiredVersion }]),
    ],
  });

  it('accepts a remote whose declared range the shell satisfies', () => {
    expect(sdkCompatibility(manifest('^1.1.0'), '1.3.0')).toEqual({ ok: true });
  });

  it('refuses a remote that needs a newer core, naming the range it needs', () => {
    expect(sdkCompatibility(manifest('^1.4.0'), '1.3.0')).toEqual({ ok: false, needs: '^1.4.0' });
  });

  it('refuses a remote built for an older major the shell no longer provides', () => {
    expect(sdkCompatibility(manifest('^1.0.0'), '2.0.0')).toEqual({ ok: false, needs: '^1.0.0' });
  });

  it('only reads the SDK entry, and accepts a remote that names no SDK range or whose manifest is unreadable', () => {
    expect(sdkCompatibility(manifest(), '1.0.0')).toEqual({ ok: true });
    expect(sdkCompatibility(manifest('*'), '1.0.0')).toEqual({ ok: true });
    expect(sdkCompatibility(null, '1.0.0')).toEqual({ ok: true });
    expect(sdkCompatibility({ shared: 'nonsense' }, '1.0.0')).toEqual({ ok: true });
  });
});

describe('the versions the build states', () => {
  const root = join(__dirname, '../..');
  const packageJson = (dir: string) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));

  it("SDK_VERSION is the SDK package's version", () => {
    expect(SDK_VERSION).toBe(packageJson('shell/sdk').version);
  });

  it('every remote declares a caret range on the SDK that the current SDK satisfies', () => {
    for (const remote of ['mfe-logs', 'mfe-policies', 'mfe-sql-editor', 'mfe-storage', 'mfe-table-editor']) {
      const range = packageJson(remote).dependencies['@dash/shell-sdk'];
      expect([remote, range]).toEqual([remote, expect.stringMatching(/^\^\d+\.\d+\.\d+$/)]);
      expect([remote, satisfiesCaret(SDK_VERSION, range)]).toEqual([remote, true]);
    }
  });
});
