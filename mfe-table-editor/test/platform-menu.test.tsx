import { screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderArea } from '@dash/shell-sdk/testing';
import { FEATURE_FLAGS, type DashMode, type PgExtension } from '@dash/contracts';
import { PlatformMenu } from '../src/database/PlatformMenu';

/*
 * The database menu's Platform section: Backups in the hosted variant only, Webhooks only once pg_net is
 * installed in the project's database.
 */

const extension = (name: string, installed: string | null): PgExtension => ({ name, schema: installed ? 'extensions' : null, default_version: '0.14.0', installed_version: installed, comment: null });

/** The section's links once the extensions list and the deployment's variant have loaded. */
async function linksWith(extensions: PgExtension[], mode: DashMode = 'hosted') {
  mockFetch({
    'GET /api/pg-meta/default/extensions': { body: extensions },
    'GET /api/platform/config': { body: { mode, flags: Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) } },
  });
  const { store } = renderArea(PlatformMenu, { mount: 'database', url: '/project/default/database/migrations' });
  await waitFor(() => expect(Object.values(store.getState().api.queries).map((q) => q?.status)).toEqual(['fulfilled', 'fulfilled']));
  const section = screen.getByRole('navigation', { name: 'Platform' });
  return within(section).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
}

const ALWAYS = [
  ['Backups', '/project/default/database/backups'],
  ['Migrations', '/project/default/database/migrations'],
  ['Wrappers', '/project/default/database/wrappers'],
];

describe('PlatformMenu', () => {
  it('lists Backups, Migrations and Wrappers when the server has no pg_net', async () => {
    expect(await linksWith([extension('hstore', '1.8')])).toEqual(ALWAYS);
  });

  it('lists no Webhooks while pg_net is available but not enabled', async () => {
    expect(await linksWith([extension('pg_net', null)])).toEqual(ALWAYS);
  });

  it('adds Webhooks once pg_net is installed', async () => {
    expect(await linksWith([extension('pg_net', '0.14.0')])).toEqual([...ALWAYS, ['Webhooks', '/project/default/database/hooks']]);
  });

  it('lists no Backups in the self-hosted variant', async () => {
    expect(await linksWith([extension('hstore', '1.8')], 'self-hosted')).toEqual(ALWAYS.slice(1));
  });
});
