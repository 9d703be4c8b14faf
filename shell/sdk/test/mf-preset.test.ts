import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The preset is the build's CommonJS; its sharing rules decide what a remote brings and what it takes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sharedConfig } = require('../mf-preset.cjs') as {
  sharedConfig: (dir: string) => Record<string, { singleton: boolean; requiredVersion: string; import?: string; version?: string }>;
};

const root = join(__dirname, '../../..');

describe('the Module Federation sharing rules', () => {
  const remote = sharedConfig(join(root, 'mfe-logs'));

  it("shares the SDK core as a singleton and asks for the range the remote's package.json declares", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const declared = require(join(root, 'mfe-logs/package.json')).dependencies['@dash/shell-sdk'];
    expect(remote['@dash/shell-sdk']).toMatchObject({ singleton: true, requiredVersion: declared });
  });

  it('lets every app bundle its own contracts', () => {
    expect(Object.keys(remote)).not.toContain('@dash/contracts');
  });

  it('shares React, the router and the store as singletons, and TypeBox as a copy per version', () => {
    for (const key of ['react', 'react-dom', 'react-router-dom', 'react-redux', '@reduxjs/toolkit']) expect(remote[key]?.singleton).toBe(true);
    const typebox = (JSON.parse(readFileSync(join(root, 'node_modules/@sinclair/typebox/package.json'), 'utf8')) as { version: string }).version;
    expect(remote['@sinclair/typebox']).toMatchObject({ singleton: false, requiredVersion: typebox });
  });

  it("shares React Router's browser API under both router names, without its server runtime", () => {
    const installed = (pkg: string) => (JSON.parse(readFileSync(join(root, `node_modules/${pkg}/package.json`), 'utf8')) as { version: string }).version;
    for (const key of ['react-router', 'react-router-dom']) {
      const entry = readFileSync(remote[key]!.import!, 'utf8');
      expect(remote[key]).toMatchObject({ singleton: true, version: installed(key) });
      for (const name of ['createBrowserRouter', 'Link', 'useNavigate', 'useSearchParams', 'Outlet']) expect(entry).toMatch(new RegExp(`[{ ]${name}[,} ]`));
      for (const name of ['createRequestHandler', 'createCookieSessionStorage', 'ServerRouter']) expect(entry).not.toMatch(new RegExp(`[{ ]${name}[,} ]`));
    }
    // react-router-dom's RouterProvider is the one that renders through react-dom.
    expect(readFileSync(remote['react-router-dom']!.import!, 'utf8')).toMatch(/export \{ RouterProvider \} from ".*dom-export\.mjs"/);
  });
});
