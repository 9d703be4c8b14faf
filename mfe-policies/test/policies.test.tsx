import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';
import { policiesReply, schemasReply, tablesReply } from './fixtures';

const url = '/project/default/auth/policies';
const mount = 'auth/policies';

function answers(role: 'owner' | 'read_only', overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    'GET /api/pg-meta/default/policies': { body: policiesReply },
    ...overrides,
  };
}

const cardNames = () => screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
const paramOf = (calls: Request[], path: string, name: string) =>
  calls.filter((c) => new URL(c.url).pathname.endsWith(path)).map((c) => new URL(c.url).searchParams.get(name));

describe('policies screen', () => {
  it('shows one card per table of the schema with its RLS status, linking to the table editor', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });

    const countries = await screen.findByRole('region', { name: 'Table countries' });
    expect(cardNames()).toEqual(['Table countries', 'Table profiles', 'Table audit_log']);
    expect(within(countries).getByText('RLS enabled')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Table audit_log' })).getByText('RLS disabled')).toBeTruthy();
    expect(within(countries).getByRole('link', { name: 'countries' }).getAttribute('href')).toBe('/project/default/editor/16385');

    const profiles = within(screen.getByRole('region', { name: 'Table profiles' })).getAllByRole('row').slice(1);
    expect(profiles.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['SELECT', 'INSERT']);
    expect(profiles[0].textContent).toContain('Profiles are public');
    expect(profiles[1].textContent).toContain('authenticated');
    expect(profiles[1].textContent).toContain('WITH CHECK ((auth.uid() = id))');

    expect(paramOf(fetchMock.calls, '/tables', 'included_schemas')).toEqual(['public']);
    expect(paramOf(fetchMock.calls, '/policies', 'included_schemas')).toEqual(['public']);
  });

  it("lists a policy's first three roles, then '+ N more roles'", async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    const [row] = within(countries).getAllByRole('row').slice(1);
    const roles = within(row).getAllByRole('cell')[2];
    expect(Array.from(roles.querySelectorAll('code')).map((c) => c.textContent)).toEqual(['anon', 'authenticated', 'service_role']);
    const more = within(roles).getByText('+ 2 more roles');
    expect(more.getAttribute('title')).toBe('editor, auditor');
  });

  it("says 'No policies created yet' for a table without policies", async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const audit = await screen.findByRole('region', { name: 'Table audit_log' });
    expect(within(audit).getByText('No policies created yet')).toBeTruthy();
    expect(within(audit).queryByRole('table')).toBeNull();
  });

  it("offers 'Create a table' in the table editor for a schema without tables", async () => {
    const fetchMock = mockFetch(
      answers('owner', { 'GET /api/pg-meta/default/tables': { body: [] }, 'GET /api/pg-meta/default/policies': { body: [] } }),
    );
    renderArea(PoliciesRoutes, { mount, url: `${url}?schema=sales` });
    const create = await screen.findByRole('link', { name: 'Create a table' });
    expect(create.getAttribute('href')).toBe('/project/default/editor?schema=sales');
    expect(screen.queryAllByRole('region')).toHaveLength(0);
    expect(paramOf(fetchMock.calls, '/tables', 'included_schemas')).toEqual(['sales']);
  });

  it("links 'Create a table' to /project/{ref}/editor for the public schema", async () => {
    mockFetch(answers('owner', { 'GET /api/pg-meta/default/tables': { body: [] }, 'GET /api/pg-meta/default/policies': { body: [] } }));
    renderArea(PoliciesRoutes, { mount, url });
    expect((await screen.findByRole('link', { name: 'Create a table' })).getAttribute('href')).toBe('/project/default/editor');
  });

  it('filters the cards by the trimmed search, by table name or by table id', async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url: `${url}?schema=public&search=16392` });
    await screen.findByRole('region', { name: 'Table profiles' });
    expect(cardNames()).toEqual(['Table profiles']);

    const input = screen.getByRole('searchbox', { name: 'Filter tables' });
    await userEvent.clear(input);
    await userEvent.type(input, '  COUNT ');
    await waitFor(() => expect(cardNames()).toEqual(['Table countries']));

    await userEvent.clear(input);
    await userEvent.type(input, 'nothing-here');
    expect(await screen.findByText(Messages.noResults)).toBeTruthy();
    expect(screen.queryAllByRole('region')).toHaveLength(0);
  });

  it('loads the picked schema', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    await screen.findByRole('region', { name: 'Table countries' });
    await screen.findByRole('option', { name: 'sales' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Schema' }), 'sales');
    await waitFor(() => expect(paramOf(fetchMock.calls, '/policies', 'included_schemas')).toContain('sales'));
    expect(paramOf(fetchMock.calls, '/tables', 'included_schemas')).toContain('sales');
  });

  it('sends paths it does not serve to the policies screen', async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url: `${url}/templates/extra` });
    expect(await screen.findByRole('region', { name: 'Table countries' })).toBeTruthy();
  });

  it('shows the failure with Retry when tables cannot be loaded', async () => {
    mockFetch(
      answers('owner', {
        'GET /api/pg-meta/default/tables': { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'connection refused' } },
      }),
    );
    renderArea(PoliciesRoutes, { mount, url });
    expect(await screen.findByText('Failed to retrieve tables')).toBeTruthy();
    expect(screen.getByText('connection refused')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe('policies screen: permissions', () => {
  it('shows New policy and the RLS toggle disabled for read-only members, with the reasons', async () => {
    mockFetch(answers('read_only'));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });

    const newPolicy = within(countries).getByRole('button', { name: 'New policy' }) as HTMLButtonElement;
    const toggle = within(countries).getByRole('button', { name: 'Disable RLS' }) as HTMLButtonElement;
    expect(newPolicy.disabled).toBe(true);
    expect(toggle.disabled).toBe(true);
    expect(within(screen.getByRole('region', { name: 'Table audit_log' })).getByRole('button', { name: 'Enable RLS' })).toBeTruthy();

    await userEvent.hover(newPolicy.parentElement!);
    expect(within(countries).getByRole('tooltip').textContent).toBe(Messages.needPermissionsEditPolicies);
    await userEvent.unhover(newPolicy.parentElement!);
    await userEvent.hover(toggle.parentElement!);
    expect(within(countries).getByRole('tooltip').textContent).toBe(Messages.needPermissionsToggleRls);
  });

  it('renders no policy or RLS buttons for members who may write (those actions are not built yet)', async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    await screen.findByRole('region', { name: 'Table countries' });
    expect(screen.queryByRole('button', { name: 'New policy' })).toBeNull();
    expect(screen.queryByRole('button', { name: /RLS/ })).toBeNull();
  });
});
