import { act, fireEvent, screen, within } from '@testing-library/react';
import {
  OrganizationMessages,
  ServiceMessages,
  type AuditEvent,
  type Invitation,
  type InvitationPreview,
  type OrganizationDetail,
  type OrganizationMember,
  type OrgRole,
} from '@dash/contracts';
import { orgMenu } from '../src/org/org-menu';
import { cleanupApi, dashConfig, json, mockFetch, project, renderShell, signedInApi, user } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

const org = (role: OrgRole, extra: Partial<OrganizationDetail> = {}): OrganizationDetail => ({
  id: 1,
  slug: 'acme',
  name: 'Acme Corp',
  role,
  billing_via_partner: false,
  created_at: '2025-01-01T00:00:00.000Z',
  ...extra,
});
const member = (id: string, email: string, role: OrgRole): OrganizationMember => ({ user_id: id, email, name: email.split('@')[0]!, role, joined_at: '2025-01-02T00:00:00.000Z' });
const members = [member(user.id, user.email, 'owner'), member('u2', 'bea@example.com', 'developer')];

/** Signed in as `user`, who is `role` in acme; `extra` adds or replaces routes. */
function orgApi(role: OrgRole, extra: Parameters<typeof signedInApi>[0] = {}, orgExtra: Partial<OrganizationDetail> = {}) {
  return signedInApi({
    'GET /api/platform/organizations/acme': () => json(200, org(role, orgExtra)),
    'GET /api/platform/organizations': () => json(200, { organizations: [{ id: 1, slug: 'acme', name: 'Acme Corp', role }] }),
    'GET /api/platform/organizations/acme/members': () => json(200, { members: members.map((m) => (m.user_id === user.id ? { ...m, role } : m)) }),
    'GET /api/platform/organizations/acme/invitations': () => json(200, { invitations: [] }),
    ...extra,
  });
}

const menuLabels = () => within(screen.getByRole('complementary', { name: 'Acme Corp menu' })).getAllByRole('link').map((l) => l.textContent);

describe('organization menu (spec §2)', () => {
  it('has every page; invoices only with the billing-invoices permission and no partner billing; billing items hosted only', () => {
    const labels = (...args: Parameters<typeof orgMenu>) => orgMenu(...args)[0]!.items.map((i) => i.label);
    const all = ['General', 'Team', 'Integrations', 'Billing', 'Usage', 'Invoices', 'OAuth Apps', 'Audit', 'Legal Documents'];
    expect(labels('acme', org('owner'), 'hosted')).toEqual(all);
    expect(labels('acme', org('administrator'), 'hosted')).toEqual(all);
    expect(labels('acme', org('developer'), 'hosted')).not.toContain('Invoices');
    expect(labels('acme', org('read_only'), 'hosted')).not.toContain('Invoices');
    expect(labels('acme', org('owner', { billing_via_partner: true }), 'hosted')).not.toContain('Invoices');
    expect(labels('acme', org('owner'), 'self-hosted')).toEqual(['General', 'Team', 'Integrations', 'OAuth Apps', 'Audit', 'Legal Documents']);
    expect(orgMenu('acme', org('owner'), 'hosted')[0]!.items[1]!.to).toBe('/org/acme/team');
  });

  it('renders under /org/:slug with the organization in the breadcrumb, opening General', async () => {
    orgApi('developer');
    shell = renderShell('/org/acme');
    expect(await screen.findByRole('heading', { name: 'General' })).toBeTruthy();
    expect(shell.location()).toBe('/org/acme/general');
    expect(menuLabels()).toEqual(['General', 'Team', 'Integrations', 'Billing', 'Usage', 'OAuth Apps', 'Audit', 'Legal Documents']);
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Acme Corp' })).toBeTruthy();
    // A developer sees the name but may not change it.
    expect((screen.getByLabelText('Organization name') as HTMLInputElement).readOnly).toBe(true);
  });

  it('is "not found" to someone who is not a member', async () => {
    signedInApi({
      'GET /api/platform/organizations/acme': () => json(404, { statusCode: 404, error: 'Not Found', message: OrganizationMessages.organizationNotFound }),
    });
    shell = renderShell('/org/acme/team');
    expect(await screen.findByText(OrganizationMessages.organizationNotFound)).toBeTruthy();
    expect(screen.getByText('Something went wrong')).toBeTruthy();
  });
});

describe('general', () => {
  it('lets an owner rename the organization', async () => {
    const { calls } = orgApi('owner', {
      'PATCH /api/platform/organizations/acme': ({ body }) => json(200, org('owner', { name: (body as { name: string }).name })),
    });
    shell = renderShell('/org/acme/general');
    const name = (await screen.findByLabelText('Organization name')) as HTMLInputElement;
    fireEvent.change(name, { target: { value: '  Acme Inc ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Acme Inc' });
    expect(await screen.findByText(OrganizationMessages.organizationRenamed)).toBeTruthy();
  });
});

describe('team', () => {
  it('lets an owner change a role and invite by email, showing the accept link once', async () => {
    const invited: Invitation = {
      id: 'i1',
      email: 'new@example.com',
      role: 'read_only',
      invited_by_email: user.email,
      created_at: '2025-01-03T00:00:00.000Z',
      expires_at: '2025-01-10T00:00:00.000Z',
      expired: false,
    };
    const { calls } = orgApi('owner', {
      'PATCH /api/platform/organizations/acme/members/u2': () => json(200, member('u2', 'bea@example.com', 'administrator')),
      'POST /api/platform/organizations/acme/invitations': () => json(201, { invitation: invited, accept_path: '/join?token=tok123' }),
    });
    shell = renderShell('/org/acme/team');
    const table = await screen.findByRole('table', { name: 'Members' });
    // The only owner cannot be demoted here; the developer's role can change, to owner too.
    expect(within(table).queryByLabelText(`Role of ${user.email}`)).toBeNull();
    const role = within(table).getByLabelText('Role of bea@example.com') as HTMLSelectElement;
    expect([...role.options].map((o) => o.textContent)).toEqual(['Owner', 'Administrator', 'Developer', 'Read-only']);
    await act(async () => {
      fireEvent.change(role, { target: { value: 'administrator' } });
    });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'administrator' });
    expect(await screen.findByText(OrganizationMessages.roleChanged('bea@example.com', 'Administrator'))).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a member to Acme Corp' });
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: 'new@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'read_only' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'new@example.com', role: 'read_only' });
    const done = await screen.findByRole('dialog', { name: 'Invitation created' });
    expect(within(done).getByLabelText('Invitation link').textContent).toBe(`${window.location.origin}/join?token=tok123`);
    expect(within(done).getByText(OrganizationMessages.linkShownOnce)).toBeTruthy();
  });

  it('shows an administrator no owner role to give, and a read-only member no controls', async () => {
    orgApi('administrator');
    shell = renderShell('/org/acme/team');
    const role = (await screen.findByLabelText('Role of bea@example.com')) as HTMLSelectElement;
    expect([...role.options].map((o) => o.value)).toEqual(['administrator', 'developer', 'read_only']);
    await cleanupApi(shell.store);
    shell.unmount();
    jest.restoreAllMocks();

    orgApi('read_only');
    shell = renderShell('/org/acme/team');
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Remove' })).toBeNull();
    // Leaving is anyone's right.
    expect(within(table).getByRole('button', { name: 'Leave' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Invite member' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('audit', () => {
  const event: AuditEvent = {
    id: '7',
    action: 'member.role_changed',
    actor_id: user.id,
    actor_email: user.email,
    organization_slug: 'acme',
    project_ref: null,
    target: 'bea@example.com',
    details: { from: 'developer', to: 'administrator' },
    created_at: '2025-01-04T00:00:00.000Z',
  };

  it('lists the events for owners and administrators, and tells others they have no access', async () => {
    orgApi('owner', { 'GET /api/platform/organizations/acme/audit': () => json(200, { events: [event], next_before: null }) });
    shell = renderShell('/org/acme/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(await within(table).findByText('Changed a role')).toBeTruthy();
    expect(within(table).getByText('from: Developer · to: Administrator')).toBeTruthy();
    await cleanupApi(shell.store);
    shell.unmount();
    jest.restoreAllMocks();

    orgApi('developer');
    shell = renderShell('/org/acme/audit');
    expect(await screen.findByText('You need additional permissions')).toBeTruthy();
  });
});

describe('join page', () => {
  const preview: InvitationPreview = {
    organization_name: 'Acme Corp',
    organization_slug: 'acme',
    email: 'new@example.com',
    role: 'developer',
    expires_at: '2030-01-01T00:00:00.000Z',
    account_exists: false,
  };
  const noSession = () => json(401, { statusCode: 401, error: 'Unauthorized', message: ServiceMessages.signInRequired });

  it('lets a new email set a name and password, then opens the organization', async () => {
    let signedUp = false;
    const { calls } = mockFetch({
      'GET /api/platform/auth/session': () => (signedUp ? json(200, { user: { id: 'n1', email: 'new@example.com', name: 'Nia' } }) : noSession()),
      'GET /api/platform/config': () => json(200, dashConfig()),
      'POST /api/platform/invitations/preview': () => json(200, preview),
      'POST /api/platform/invitations/sign-up': () => {
        signedUp = true;
        return json(201, { user: { id: 'n1', email: 'new@example.com', name: 'Nia' }, organization_slug: 'acme' });
      },
      'GET /api/platform/organizations/acme': () => json(200, org('developer')),
    });
    shell = renderShell('/join?token=tok123');
    expect(await screen.findByRole('heading', { name: 'Join Acme Corp' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/platform/invitations/preview')?.body).toEqual({ token: 'tok123' });
    // Still on the join page: a 401 here does not send anyone to sign-in.
    expect(shell.location()).toBe('/join?token=tok123');

    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Nia' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'short' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    });
    expect(screen.getByText(OrganizationMessages.passwordTooShort)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long enough pw' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'long enough pw' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    });
    expect(calls.find((c) => c.path === '/api/platform/invitations/sign-up')?.body).toEqual({ token: 'tok123', name: 'Nia', password: 'long enough pw' });
    expect(await screen.findByRole('heading', { name: 'General' })).toBeTruthy();
    expect(shell.location()).toBe('/org/acme/general');
  });

  it('asks an existing account to sign in, and tells another signed-in user whom it is for', async () => {
    mockFetch({
      'GET /api/platform/auth/session': noSession,
      'GET /api/platform/config': () => json(200, dashConfig()),
      'POST /api/platform/invitations/preview': () => json(200, { ...preview, account_exists: true }),
    });
    shell = renderShell('/join?token=tok123');
    const link = await screen.findByRole('link', { name: 'Sign in to accept' });
    expect(link.getAttribute('href')).toBe(`/sign-in?returnTo=${encodeURIComponent('/join?token=tok123')}`);
    await cleanupApi(shell.store);
    shell.unmount();
    jest.restoreAllMocks();

    signedInApi({ 'POST /api/platform/invitations/preview': () => json(200, preview) });
    shell = renderShell('/join?token=tok123');
    expect(await screen.findByText(OrganizationMessages.invitationForAnotherEmail('new@example.com'), { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
  });

  it('lets the invited signed-in user accept', async () => {
    const { calls } = signedInApi({
      'POST /api/platform/invitations/preview': () => json(200, { ...preview, email: user.email, account_exists: true }),
      'POST /api/platform/invitations/accept': () => json(200, { organization_slug: 'acme' }),
      'GET /api/platform/organizations/acme': () => json(200, org('developer')),
    });
    shell = renderShell('/join?token=tok123');
    const accept = await screen.findByRole('button', { name: 'Accept invitation' });
    await act(async () => {
      fireEvent.click(accept);
    });
    expect(calls.find((c) => c.path === '/api/platform/invitations/accept')?.body).toEqual({ token: 'tok123' });
    expect(await screen.findByText(OrganizationMessages.joined('Acme Corp'))).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'General' })).toBeTruthy();
    expect(shell.location()).toBe('/org/acme/general');
  });

  it('says when the invitation cannot be used', async () => {
    mockFetch({
      'GET /api/platform/auth/session': noSession,
      'GET /api/platform/config': () => json(200, dashConfig()),
      'POST /api/platform/invitations/preview': () => json(404, { statusCode: 404, error: 'Not Found', message: OrganizationMessages.invitationInvalid }),
    });
    shell = renderShell('/join?token=old');
    expect(await screen.findByText(OrganizationMessages.invitationInvalid)).toBeTruthy();
  });
});

describe('projects page', () => {
  it('links each organization to its pages', async () => {
    signedInApi({ 'GET /api/platform/organizations': () => json(200, { organizations: [{ id: 1, slug: 'acme', name: 'Acme Corp', role: project.role }] }) });
    shell = renderShell('/projects');
    const nav = await screen.findByRole('navigation', { name: 'Organizations' });
    expect(within(nav).getByRole('link', { name: /Acme Corp/ }).getAttribute('href')).toBe('/org/acme');
  });
});
