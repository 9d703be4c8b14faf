import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';
import { ANONYMOUS_USERS_WARNING } from '../src/components/TablePoliciesCard';
import { PROTECTED_SCHEMAS } from '../src/protected-schemas';
import { authConfigReply, authPoliciesReply, authTablesReply, policiesReply, rolesReply, schemasReply, tablesReply } from './fixtures';

const url = '/project/default/auth/policies';
const mount = 'auth';

function answers(role: 'owner' | 'read_only', overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    'GET /api/pg-meta/default/policies': { body: policiesReply },
    'GET /api/pg-meta/default/roles': { body: rolesReply },
    'GET /api/platform/projects/default/config/auth': { body: authConfigReply(false) },
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

  it("says '+ 1 more role' in the singular for one more role, and lists three or fewer roles whole", async () => {
    const four = { ...policiesReply[0]!, roles: ['anon', 'authenticated', 'service_role', 'editor'] };
    const three = { ...policiesReply[1]!, roles: ['anon', 'authenticated', 'editor'] };
    mockFetch(answers('owner', { 'GET /api/pg-meta/default/policies': { body: [four, three] } }));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    const more = within(countries).getByText('+ 1 more role');
    expect(more.getAttribute('title')).toBe('editor');
    const profiles = screen.getByRole('region', { name: 'Table profiles' });
    expect(Array.from(profiles.querySelectorAll('code.pol-role')).map((c) => c.textContent)).toEqual(['anon', 'authenticated', 'editor']);
    expect(within(profiles).queryByText(/more role/)).toBeNull();
  });

  it("says 'No policies created yet' for a table without policies", async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const audit = await screen.findByRole('region', { name: 'Table audit_log' });
    expect(within(audit).getByText('No policies created yet')).toBeTruthy();
    expect(within(audit).queryByRole('table')).toBeNull();
  });

  it("offers 'Create a table', which opens the table editor's new-table form on a schema without tables", async () => {
    const fetchMock = mockFetch(
      answers('owner', { 'GET /api/pg-meta/default/tables': { body: [] }, 'GET /api/pg-meta/default/policies': { body: [] } }),
    );
    renderArea(PoliciesRoutes, { mount, url: `${url}?schema=sales` });
    const create = await screen.findByRole('link', { name: 'Create a table' });
    expect(create.getAttribute('href')).toBe('/project/default/editor?schema=sales&new=table');
    expect(screen.queryAllByRole('region')).toHaveLength(0);
    expect(paramOf(fetchMock.calls, '/tables', 'included_schemas')).toEqual(['sales']);
  });

  it("links 'Create a table' to /project/{ref}/editor?new=table for the public schema", async () => {
    mockFetch(answers('owner', { 'GET /api/pg-meta/default/tables': { body: [] }, 'GET /api/pg-meta/default/policies': { body: [] } }));
    renderArea(PoliciesRoutes, { mount, url });
    expect((await screen.findByRole('link', { name: 'Create a table' })).getAttribute('href')).toBe('/project/default/editor?new=table');
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

  it('shows a read-only member the policy menu with Edit and Delete disabled, with the reason', async () => {
    mockFetch(answers('read_only'));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    await userEvent.click(within(countries).getByRole('button', { name: 'Actions for policy Countries are readable by everyone' }));
    const menu = within(countries).getByRole('menu');
    const edit = within(menu).getByRole('menuitem', { name: 'Edit policy' }) as HTMLButtonElement;
    const remove = within(menu).getByRole('menuitem', { name: 'Delete policy' }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    expect(remove.disabled).toBe(true);
    await userEvent.hover(remove.parentElement!);
    expect(within(menu).getAllByRole('tooltip').map((t) => t.textContent)).toEqual([Messages.needPermissionsEditPolicies]);
  });

  it('gives members who may write enabled actions', async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    await waitFor(() => expect((within(countries).getByRole('button', { name: 'New policy' }) as HTMLButtonElement).disabled).toBe(false));
    expect((within(countries).getByRole('button', { name: 'Disable RLS' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(countries).queryByRole('tooltip')).toBeNull();
  });
});

describe('policies screen: protected schemas', () => {
  it('marks the tables of a protected schema Locked, lists the protected schemas and offers no actions', async () => {
    mockFetch(
      answers('owner', {
        'GET /api/pg-meta/default/tables': { body: authTablesReply },
        'GET /api/pg-meta/default/policies': { body: authPoliciesReply },
      }),
    );
    renderArea(PoliciesRoutes, { mount, url: `${url}?schema=auth` });
    const users = await screen.findByRole('region', { name: 'Table users' });
    expect(within(users).getByText('Locked')).toBeTruthy();
    expect(within(users).getByText('Users read themselves')).toBeTruthy();
    expect(within(users).queryByRole('button')).toBeNull();
    const notice = screen.getByRole('note', { name: 'Protected schema' });
    expect(notice.textContent).toContain('The auth schema is managed by the platform and is read-only here');
    expect(notice.textContent).toContain(PROTECTED_SCHEMAS.join(', '));
  });

  it('shows no notice and no Locked mark on a schema of the project', async () => {
    mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    expect(within(countries).queryByText('Locked')).toBeNull();
    expect(screen.queryByRole('note', { name: 'Protected schema' })).toBeNull();
  });
});

describe('policies screen: anonymous sign-ins', () => {
  /** Waits until the auth config call has settled in the store (answered or failed). */
  const authConfigSettled = (store: ReturnType<typeof renderArea>['store'], status: 'fulfilled' | 'rejected') =>
    waitFor(() =>
      expect(Object.values(store.getState().api.queries).some((q) => q?.endpointName === 'rlsAuthConfig' && q.status === status)).toBe(true),
    );
  const warningsOf = (name: string) => within(screen.getByRole('region', { name })).queryAllByText(ANONYMOUS_USERS_WARNING);

  it('warns on the policies for authenticated or public when anonymous sign-ins are on', async () => {
    mockFetch(answers('owner', { 'GET /api/platform/projects/default/config/auth': { body: authConfigReply(true) } }));
    renderArea(PoliciesRoutes, { mount, url });
    await screen.findByRole('region', { name: 'Table countries' });
    // countries: anon, authenticated, ... -> 1; profiles: authenticated and public -> 2.
    await waitFor(() => expect(warningsOf('Table profiles')).toHaveLength(2));
    expect(warningsOf('Table countries')).toHaveLength(1);
  });

  it('does not warn when anonymous sign-ins are off', async () => {
    mockFetch(answers('owner'));
    const { store } = renderArea(PoliciesRoutes, { mount, url });
    await screen.findByRole('region', { name: 'Table countries' });
    await authConfigSettled(store, 'fulfilled');
    expect(screen.queryAllByText(ANONYMOUS_USERS_WARNING)).toHaveLength(0);
  });

  it('shows the policies without the warning when the auth config cannot be read', async () => {
    mockFetch(
      answers('owner', { 'GET /api/platform/projects/default/config/auth': { status: 500, body: { statusCode: 500, error: 'x', message: 'down' } } }),
    );
    const { store } = renderArea(PoliciesRoutes, { mount, url });
    await screen.findByRole('region', { name: 'Table profiles' });
    await authConfigSettled(store, 'rejected');
    expect(within(screen.getByRole('region', { name: 'Table profiles' })).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryAllByText(ANONYMOUS_USERS_WARNING)).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('policies screen: RLS toggle and delete', () => {
  const confirmDialog = (name: string) => screen.findByRole('dialog', { name });

  it('disables RLS after a confirmation, sending rls_enabled false for the table', async () => {
    const fetchMock = mockFetch(answers('owner', { 'PATCH /api/pg-meta/default/tables/16385': { body: { ...tablesReply[0], rls_enabled: false } } }));
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    await userEvent.click(within(countries).getByRole('button', { name: 'Disable RLS' }));
    const dialog = await confirmDialog('Disable row level security');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable RLS' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/tables/16385')).toEqual([{ rls_enabled: false }]));
    expect(await screen.findByText('Row-level security disabled on countries')).toBeTruthy();
  });

  it('enables RLS after a confirmation, and sends nothing when cancelled', async () => {
    const fetchMock = mockFetch(answers('owner', { 'PATCH /api/pg-meta/default/tables/16398': { body: { ...tablesReply[2], rls_enabled: true } } }));
    renderArea(PoliciesRoutes, { mount, url });
    const audit = await screen.findByRole('region', { name: 'Table audit_log' });

    await userEvent.click(within(audit).getByRole('button', { name: 'Enable RLS' }));
    await userEvent.click(within(await confirmDialog('Enable row level security')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/tables/16398')).toEqual([]);

    await userEvent.click(within(audit).getByRole('button', { name: 'Enable RLS' }));
    await userEvent.click(within(await confirmDialog('Enable row level security')).getByRole('button', { name: 'Enable RLS' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/tables/16398')).toEqual([{ rls_enabled: true }]));
  });

  it("toasts 'Failed to toggle RLS: {message}' when the toggle fails", async () => {
    mockFetch(
      answers('owner', {
        'PATCH /api/pg-meta/default/tables/16385': { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'must be owner of table countries' } },
      }),
    );
    renderArea(PoliciesRoutes, { mount, url });
    const countries = await screen.findByRole('region', { name: 'Table countries' });
    await userEvent.click(within(countries).getByRole('button', { name: 'Disable RLS' }));
    await userEvent.click(within(await confirmDialog('Disable row level security')).getByRole('button', { name: 'Disable RLS' }));
    expect(await screen.findByText(Messages.toggleRlsFailed('must be owner of table countries'))).toBeTruthy();
  });

  it("deletes a policy after a confirmation, toasts 'Successfully deleted policy!' and reloads the list", async () => {
    let policiesLoads = 0;
    const fetchMock = mockFetch(
      answers('owner', {
        'GET /api/pg-meta/default/policies': () => {
          policiesLoads++;
          return { body: policiesLoads === 1 ? policiesReply : policiesReply.filter((p) => p.id !== 30003) };
        },
        'DELETE /api/pg-meta/default/policies/30003': { body: policiesReply[2] },
      }),
    );
    renderArea(PoliciesRoutes, { mount, url });
    const profiles = await screen.findByRole('region', { name: 'Table profiles' });
    await userEvent.click(within(profiles).getByRole('button', { name: 'Actions for policy Profiles are public' }));
    await userEvent.click(within(profiles).getByRole('menuitem', { name: 'Delete policy' }));
    const dialog = await confirmDialog('Delete policy');
    expect(dialog.textContent).toContain('Profiles are public');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(Messages.policyDeleted)).toBeTruthy();
    expect(fetchMock.calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url).pathname)).toEqual(['/api/pg-meta/default/policies/30003']);
    await waitFor(() => expect(within(profiles).queryByText('Profiles are public')).toBeNull());
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(PoliciesRoutes, { mount, url });
    const profiles = await screen.findByRole('region', { name: 'Table profiles' });
    await userEvent.click(within(profiles).getByRole('button', { name: 'Actions for policy Profiles are public' }));
    await userEvent.click(within(profiles).getByRole('menuitem', { name: 'Delete policy' }));
    await userEvent.click(within(await confirmDialog('Delete policy')).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(within(profiles).getByText('Profiles are public')).toBeTruthy();
  });
});
