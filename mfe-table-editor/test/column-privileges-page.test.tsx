import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { FEATURE_FLAGS, type OrgRole, type PgColumnPrivilege, type PgColumnPrivileges } from '@dash/contracts';
import { DatabaseRoutes } from '../src/database/DatabaseRoutes';
import { schemasReply, tablesReply } from './fixtures';

/*
 * Database → Column Privileges: the matrix of one table's columns for one role, where each privilege
 * comes from, and the requests a toggle and an "all columns" box send; the page stays off without the
 * organization's flag, and read-only for a member without the write permission.
 */

const URL_ = '/project/default/database/column-privileges';
const flags = (on: boolean) => ({ ...Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])), columnLevelPrivileges: on });
const entry = (over: Partial<PgColumnPrivilege>): PgColumnPrivilege => ({
  grantor: 'project_admin',
  grantee: 'anon',
  privilege_type: 'SELECT',
  is_grantable: false,
  column_level: true,
  table_level: false,
  ...over,
});
const column = (ordinal: number, name: string, privileges: PgColumnPrivilege[]): PgColumnPrivileges => ({
  column_id: `16385.${ordinal}`,
  relation_schema: 'public',
  relation_name: 'countries',
  column_name: name,
  privileges,
});
const privileges: PgColumnPrivileges[] = [
  column(1, 'id', [entry({ grantee: 'authenticated', column_level: false, table_level: true })]),
  column(2, 'name', [entry({}), entry({ grantee: 'authenticated', column_level: true, table_level: true })]),
];

function answers(options: { flag?: boolean; role?: OrgRole; grant?: MockAnswer } = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', options.role ?? 'owner'),
    'GET /api/platform/config': { body: { mode: 'hosted', flags: flags(options.flag ?? true) } },
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    'GET /api/pg-meta/default/column-privileges/grantees': { body: [{ id: 1, name: 'anon' }, { id: 2, name: 'authenticated' }, { id: 3, name: 'service_role' }] },
    'GET /api/pg-meta/default/column-privileges': { body: privileges },
    'POST /api/pg-meta/default/column-privileges': options.grant ?? { body: [] },
    'DELETE /api/pg-meta/default/column-privileges': { body: [] },
  };
}

const matrix = (role: string) => screen.findByRole('table', { name: `Column privileges of ${role} on public.countries` });

describe('ColumnPrivilegesPage', () => {
  it('shows the first table for anon: its column grants ticked, nothing from the table', async () => {
    mockFetch(answers());
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    const table = await matrix('anon');
    expect(screen.getByRole('heading', { level: 1, name: 'Column Privileges' })).toBeTruthy();
    expect(screen.getByText('ALPHA')).toBeTruthy();
    await waitFor(() => expect(within(table).getByRole('checkbox', { name: 'SELECT on name' })).toHaveProperty('checked', true));
    expect(within(table).getByRole('checkbox', { name: 'SELECT on id' })).toHaveProperty('checked', false);
    expect(within(table).getByRole('checkbox', { name: 'SELECT on all columns' })).toHaveProperty('indeterminate', true);
    expect(within(table).queryAllByText('via table')).toHaveLength(0);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('marks what a role holds through the table, with a note', async () => {
    mockFetch(answers());
    renderArea(DatabaseRoutes, { mount: 'database', url: `${URL_}?table=countries&role=authenticated` });
    const table = await matrix('authenticated');
    expect(table.querySelectorAll('td[data-table-grant="true"]')).toHaveLength(2);
    expect(within(table).getAllByText('via table')).toHaveLength(2);
    expect(within(table).getByRole('checkbox', { name: 'SELECT on id' })).toHaveProperty('checked', false);
    expect(within(table).getByRole('checkbox', { name: 'SELECT on name' })).toHaveProperty('checked', true);
    expect(screen.getByRole('note').textContent).toContain('authenticated holds SELECT on the whole table');
  });

  it('grants one column in one request and toasts it', async () => {
    const fetches = mockFetch(answers());
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    const table = await matrix('anon');
    const box = within(table).getByRole('checkbox', { name: 'SELECT on id' });
    await waitFor(() => expect(box).toHaveProperty('disabled', false));
    await userEvent.click(box);
    expect(await screen.findByText('Granted SELECT on id to anon')).toBeTruthy();
    expect(await fetches.bodiesOf('POST /api/pg-meta/default/column-privileges')).toEqual([[{ column_id: '16385.1', grantee: 'anon', privilege_type: 'SELECT' }]]);
  });

  it('grants a privilege on the columns that lack it with the "all columns" box, and revokes a ticked one', async () => {
    const fetches = mockFetch(answers());
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    const table = await matrix('anon');
    const all = within(table).getByRole('checkbox', { name: 'SELECT on all columns' });
    await waitFor(() => expect(all).toHaveProperty('disabled', false));
    await userEvent.click(all);
    expect(await screen.findByText('Granted SELECT on all columns of public.countries to anon')).toBeTruthy();
    expect(await fetches.bodiesOf('POST /api/pg-meta/default/column-privileges')).toEqual([[{ column_id: '16385.1', grantee: 'anon', privilege_type: 'SELECT' }]]);

    const name = within(table).getByRole('checkbox', { name: 'SELECT on name' });
    await waitFor(() => expect(name).toHaveProperty('disabled', false));
    await userEvent.click(name);
    expect(await screen.findByText('Revoked SELECT on name from anon')).toBeTruthy();
    expect(await fetches.bodiesOf('DELETE /api/pg-meta/default/column-privileges')).toEqual([[{ column_id: '16385.2', grantee: 'anon', privilege_type: 'SELECT' }]]);
  });

  it('toasts the service’s message when a grant fails', async () => {
    mockFetch(answers({ grant: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'role "anon" does not exist' } } }));
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    const box = within(await matrix('anon')).getByRole('checkbox', { name: 'INSERT on id' });
    await waitFor(() => expect(box).toHaveProperty('disabled', false));
    await userEvent.click(box);
    expect(await screen.findByText('Failed to grant privilege: role "anon" does not exist')).toBeTruthy();
  });

  it('leaves every box disabled for a read-only member', async () => {
    mockFetch(answers({ role: 'read_only' }));
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    const table = await matrix('anon');
    await screen.findAllByText('You need additional permissions to change column privileges');
    for (const box of within(table).getAllByRole('checkbox')) expect(box).toHaveProperty('disabled', true);
  });

  it('says the feature is off without the flag, and asks for no privileges', async () => {
    const fetches = mockFetch(answers({ flag: false }));
    renderArea(DatabaseRoutes, { mount: 'database', url: URL_ });
    expect(await screen.findByText('Column privileges are not enabled')).toBeTruthy();
    expect(fetches.calls.some((call) => new URL(call.url).pathname.includes('column-privileges'))).toBe(false);
  });
});
