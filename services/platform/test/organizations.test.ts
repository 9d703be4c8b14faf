import {
  auditRoutes,
  INVITATION_TTL_MS,
  organizationRoutes,
  OrganizationMessages,
  platformRoutes,
  ServiceMessages,
  type AuditPage,
  type Invitation,
  type InvitationPreview,
  type OAuthApp,
  type OrganizationDetail,
  type OrganizationMember,
  type OrgRole,
  type RouteDef,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { sha256Hex } from '../src/crypto';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

// Organization pages' routes on real Postgres: the organization, its team, invitations, OAuth apps and
// audit log, each write route per role (owner, administrator, developer, read-only, non-member).

type Person = { id: string; email: string };
let platform: TestPlatform;
let owner: Person;
let admin: Person;
let developer: Person;
let viewer: Person;
let stranger: Person;

const ROLES: Array<[() => Person, OrgRole]> = [
  [() => owner, 'owner'],
  [() => admin, 'administrator'],
  [() => developer, 'developer'],
  [() => viewer, 'read_only'],
];

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'owner@acme.test', 'Olivia Owner');
  admin = await createUser(platform.ctx, 'admin@acme.test', 'Adam Admin');
  developer = await createUser(platform.ctx, 'dev@acme.test', 'Dana Dev');
  viewer = await createUser(platform.ctx, 'viewer@acme.test', 'Vic Viewer');
  stranger = await createUser(platform.ctx, 'stranger@other.test', 'Sam Stranger');
  const orgId = await createOrg(platform.ctx, 'acme', [
    [owner.id, 'owner'],
    [admin.id, 'administrator'],
    [developer.id, 'developer'],
    [viewer.id, 'read_only'],
  ]);
  await createOrg(platform.ctx, 'other', [[stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, 'acme-app', orgId);
});
afterAll(() => platform.close());

const as = (person: Person) => userHeaders({}, person.id, person.email);
const call = (def: RouteDef, url: string, headers: Record<string, string>, payload?: object) =>
  platform.app.inject({ method: def.method, url, headers, ...(payload ? { payload } : {}) });

/** A fresh user who is a member of acme with `role` (for tests that change or remove members). */
let counter = 0;
async function newMember(role: OrgRole, org = 'acme'): Promise<Person> {
  counter += 1;
  const person = await createUser(platform.ctx, `member${counter}@acme.test`, `Member ${counter}`);
  const [{ id }] = await query<{ id: number }>(platform.databaseUrl, 'select id from platform.organizations where slug = $1', [org]);
  await query(platform.databaseUrl, 'insert into platform.members (org_id, user_id, role) values ($1, $2, $3)', [id, person.id, role]);
  return person;
}

async function roleOf(person: Person, org = 'acme'): Promise<string | undefined> {
  const rows = await query<{ role: string }>(
    platform.databaseUrl,
    'select m.role from platform.members m join platform.organizations o on o.id = m.org_id where o.slug = $1 and m.user_id = $2',
    [org, person.id],
  );
  return rows[0]?.role;
}

async function auditOf(action: string, target: string) {
  return query<{ actor_email: string | null; organization_slug: string | null; project_ref: string | null; details: Record<string, unknown> }>(
    platform.databaseUrl,
    'select actor_email, organization_slug, project_ref, details from platform.audit_events where action = $1 and target = $2 order by id',
    [action, target],
  );
}

describe('organization', () => {
  it('shows the organization with the caller\'s role to each member, and is a 404 to anyone else', async () => {
    for (const [person, role] of ROLES) {
      const org = expectContract<OrganizationDetail>(organizationRoutes.getOrganization, await call(organizationRoutes.getOrganization, '/organizations/acme', as(person())));
      expect(org).toMatchObject({ slug: 'acme', name: 'Org acme', role, billing_via_partner: false });
    }
    for (const url of ['/organizations/acme', '/organizations/nope']) {
      expectError(organizationRoutes.getOrganization, await call(organizationRoutes.getOrganization, url, as(stranger)), 404, OrganizationMessages.organizationNotFound);
    }
    expectError(organizationRoutes.getOrganization, await call(organizationRoutes.getOrganization, '/organizations/acme', {}), 401, ServiceMessages.signInRequired);
  });

  it('lets owners and administrators rename it, records who did, and refuses the others', async () => {
    const rename = (person: Person, name: string) => call(organizationRoutes.updateOrganization, '/organizations/acme', as(person), { name });
    expect(expectContract<OrganizationDetail>(organizationRoutes.updateOrganization, await rename(owner, '  Acme Inc  ')).name).toBe('Acme Inc');
    expect(expectContract<OrganizationDetail>(organizationRoutes.updateOrganization, await rename(admin, 'Acme Corp'))).toMatchObject({ name: 'Acme Corp', role: 'administrator' });
    expectError(organizationRoutes.updateOrganization, await rename(developer, 'Dev Corp'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.updateOrganization, await rename(viewer, 'Viewer Corp'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.updateOrganization, await rename(stranger, 'Stolen'), 404, OrganizationMessages.organizationNotFound);
    expectError(organizationRoutes.updateOrganization, await rename(owner, '   '), 400, OrganizationMessages.nameRequired);
    const [{ name }] = await query<{ name: string }>(platform.databaseUrl, "select name from platform.organizations where slug = 'acme'");
    expect(name).toBe('Acme Corp');
    expect((await auditOf('organization.renamed', 'Acme Corp'))[0]).toMatchObject({
      actor_email: admin.email,
      organization_slug: 'acme',
      details: { from: 'Acme Inc', to: 'Acme Corp' },
    });
  });
});

describe('team', () => {
  it('lists the members and their roles to every member', async () => {
    for (const [person] of ROLES) {
      const { members } = expectContract<{ members: OrganizationMember[] }>(organizationRoutes.listMembers, await call(organizationRoutes.listMembers, '/organizations/acme/members', as(person())));
      expect(members.slice(0, 4).map((m) => [m.email, m.role])).toEqual([
        [owner.email, 'owner'],
        [admin.email, 'administrator'],
        [developer.email, 'developer'],
        [viewer.email, 'read_only'],
      ]);
      expect(members[0]).toMatchObject({ user_id: owner.id, name: 'Olivia Owner' });
    }
    expectError(organizationRoutes.listMembers, await call(organizationRoutes.listMembers, '/organizations/acme/members', as(stranger)), 404);
  });

  const setRole = (actor: Person, target: Person, role: OrgRole) =>
    call(organizationRoutes.updateMember, `/organizations/acme/members/${target.id}`, as(actor), { role });

  it('lets owners change any role, the owner role included', async () => {
    const target = await newMember('developer');
    expect(expectContract<OrganizationMember>(organizationRoutes.updateMember, await setRole(owner, target, 'owner')).role).toBe('owner');
    expect(await roleOf(target)).toBe('owner');
    expect(expectContract<OrganizationMember>(organizationRoutes.updateMember, await setRole(owner, target, 'read_only')).role).toBe('read_only');
    expect((await auditOf('member.role_changed', target.email)).map((e) => [e.actor_email, e.details])).toEqual([
      [owner.email, { from: 'developer', to: 'owner' }],
      [owner.email, { from: 'owner', to: 'read_only' }],
    ]);
  });

  it('lets administrators change roles below owner, but neither grant nor take the owner role', async () => {
    const target = await newMember('read_only');
    expect(expectContract<OrganizationMember>(organizationRoutes.updateMember, await setRole(admin, target, 'administrator')).role).toBe('administrator');
    expectError(organizationRoutes.updateMember, await setRole(admin, target, 'owner'), 403, OrganizationMessages.ownerRoleOwnersOnly);
    const anotherOwner = await newMember('owner');
    expectError(organizationRoutes.updateMember, await setRole(admin, anotherOwner, 'developer'), 403, OrganizationMessages.ownerRoleOwnersOnly);
    expect(await roleOf(anotherOwner)).toBe('owner');
    expect(await roleOf(target)).toBe('administrator');
  });

  it('refuses developers, read-only members and non-members', async () => {
    const target = await newMember('read_only');
    expectError(organizationRoutes.updateMember, await setRole(developer, target, 'developer'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.updateMember, await setRole(viewer, target, 'developer'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.updateMember, await setRole(viewer, viewer, 'owner'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.updateMember, await setRole(stranger, target, 'developer'), 404, OrganizationMessages.organizationNotFound);
    expect(await roleOf(target)).toBe('read_only');
    expect(await roleOf(viewer)).toBe('read_only');
  });

  it('never demotes the last owner', async () => {
    const solo = await createUser(platform.ctx, 'solo@solo.test');
    await createOrg(platform.ctx, 'solo', [[solo.id, 'owner']]);
    const res = await call(organizationRoutes.updateMember, `/organizations/solo/members/${solo.id}`, as(solo), { role: 'administrator' });
    expectError(organizationRoutes.updateMember, res, 409, OrganizationMessages.lastOwner);
    expect(await roleOf(solo, 'solo')).toBe('owner');
  });

  it('answers 404 for a user who is not a member', async () => {
    expectError(organizationRoutes.updateMember, await setRole(owner, stranger, 'developer'), 404, OrganizationMessages.memberNotFound);
  });

  const remove = (actor: Person, target: Person, org = 'acme') =>
    call(organizationRoutes.removeMember, `/organizations/${org}/members/${target.id}`, as(actor));

  it('lets owners remove anyone, administrators anyone but owners, and records it', async () => {
    const byOwner = await newMember('administrator');
    expectContract(organizationRoutes.removeMember, await remove(owner, byOwner));
    expect(await roleOf(byOwner)).toBeUndefined();
    const byAdmin = await newMember('developer');
    expectContract(organizationRoutes.removeMember, await remove(admin, byAdmin));
    expect(await roleOf(byAdmin)).toBeUndefined();
    const ownerTarget = await newMember('owner');
    expectError(organizationRoutes.removeMember, await remove(admin, ownerTarget), 403, OrganizationMessages.ownerRoleOwnersOnly);
    expect(await roleOf(ownerTarget)).toBe('owner');
    expectContract(organizationRoutes.removeMember, await remove(owner, ownerTarget));
    expect((await auditOf('member.removed', byAdmin.email))[0]).toMatchObject({ actor_email: admin.email, details: { role: 'developer', left: false } });
  });

  it('refuses developers, read-only members and non-members, but lets anyone leave', async () => {
    const target = await newMember('read_only');
    expectError(organizationRoutes.removeMember, await remove(developer, target), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.removeMember, await remove(viewer, target), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.removeMember, await remove(stranger, target), 404, OrganizationMessages.organizationNotFound);
    expect(await roleOf(target)).toBe('read_only');
    expectContract(organizationRoutes.removeMember, await remove(target, target));
    expect(await roleOf(target)).toBeUndefined();
    expect((await auditOf('member.removed', target.email))[0]).toMatchObject({ actor_email: target.email, details: { left: true } });
  });

  it('never removes the last owner, not even when they leave', async () => {
    const last = await createUser(platform.ctx, 'last@last.test');
    const helper = await createUser(platform.ctx, 'helper@last.test');
    await createOrg(platform.ctx, 'last', [
      [last.id, 'owner'],
      [helper.id, 'administrator'],
    ]);
    expectError(organizationRoutes.removeMember, await remove(last, last, 'last'), 409, OrganizationMessages.lastOwner);
    expect(await roleOf(last, 'last')).toBe('owner');
  });
});

describe('invitations', () => {
  const invite = (actor: Person, email: string, role: OrgRole) =>
    call(organizationRoutes.createInvitation, '/organizations/acme/invitations', as(actor), { email, role });
  const created = (res: { statusCode: number; body: string }) =>
    expectContract<{ invitation: Invitation; accept_path: string }>(organizationRoutes.createInvitation, res);
  const tokenOf = (acceptPath: string) => new URL(acceptPath, 'http://x').searchParams.get('token')!;
  const preview = (token: string) => call(organizationRoutes.previewInvitation, '/invitations/preview', {}, { token });

  it('lets owners invite with any role and administrators below owner, keeping only the token hash', async () => {
    const first = created(await invite(owner, 'New.Owner@Acme.test', 'owner'));
    expect(first.invitation).toMatchObject({ email: 'new.owner@acme.test', role: 'owner', invited_by_email: owner.email, expired: false });
    expect(first.accept_path).toMatch(/^\/join\?token=[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(first.invitation.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(INVITATION_TTL_MS);
    const [stored] = await query<{ token_hash: string }>(platform.databaseUrl, 'select token_hash from platform.invitations where id = $1', [first.invitation.id]);
    expect(stored!.token_hash).toBe(sha256Hex(tokenOf(first.accept_path)));

    expect(created(await invite(admin, 'helper@acme.test', 'developer')).invitation.role).toBe('developer');
    expectError(organizationRoutes.createInvitation, await invite(admin, 'boss@acme.test', 'owner'), 403, OrganizationMessages.ownerRoleOwnersOnly);
    expect((await auditOf('member.invited', 'helper@acme.test'))[0]).toMatchObject({ actor_email: admin.email, details: { role: 'developer' } });
  });

  it('refuses developers, read-only members and non-members', async () => {
    expectError(organizationRoutes.createInvitation, await invite(developer, 'x@acme.test', 'read_only'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.createInvitation, await invite(viewer, 'x@acme.test', 'read_only'), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.createInvitation, await invite(stranger, 'x@acme.test', 'read_only'), 404, OrganizationMessages.organizationNotFound);
    const rows = await query(platform.databaseUrl, "select 1 from platform.invitations where email = 'x@acme.test'");
    expect(rows).toHaveLength(0);
  });

  it('refuses to invite a member, and replaces an earlier invitation of the same email', async () => {
    expectError(organizationRoutes.createInvitation, await invite(owner, developer.email.toUpperCase(), 'owner'), 409, OrganizationMessages.alreadyMember(developer.email));
    const old = created(await invite(owner, 'twice@acme.test', 'developer'));
    const again = created(await invite(owner, 'twice@acme.test', 'read_only'));
    expectError(organizationRoutes.previewInvitation, await preview(tokenOf(old.accept_path)), 404, OrganizationMessages.invitationInvalid);
    expect(expectContract<InvitationPreview>(organizationRoutes.previewInvitation, await preview(tokenOf(again.accept_path))).role).toBe('read_only');
    const { invitations } = expectContract<{ invitations: Invitation[] }>(
      organizationRoutes.listInvitations,
      await call(organizationRoutes.listInvitations, '/organizations/acme/invitations', as(viewer)),
    );
    expect(invitations.filter((i) => i.email === 'twice@acme.test')).toHaveLength(1);
    expectError(organizationRoutes.listInvitations, await call(organizationRoutes.listInvitations, '/organizations/acme/invitations', as(stranger)), 404);
  });

  it('creates the account of a new email, joins with the role and signs in', async () => {
    const { accept_path } = created(await invite(owner, 'newbie@acme.test', 'developer'));
    const token = tokenOf(accept_path);
    expect(expectContract<InvitationPreview>(organizationRoutes.previewInvitation, await preview(token))).toMatchObject({
      organization_slug: 'acme',
      organization_name: 'Acme Corp',
      email: 'newbie@acme.test',
      role: 'developer',
      account_exists: false,
    });

    const signUp = (payload: object) => call(organizationRoutes.signUpWithInvitation, '/invitations/sign-up', {}, payload);
    expectError(organizationRoutes.signUpWithInvitation, await signUp({ token, name: ' ', password: 'long enough' }), 400, OrganizationMessages.nameOfPersonRequired);
    expectError(organizationRoutes.signUpWithInvitation, await signUp({ token, name: 'Newbie', password: 'short' }), 400, OrganizationMessages.passwordTooShort);
    const res = await signUp({ token, name: 'Nia Newbie', password: 'a long password' });
    const body = expectContract<{ user: { id: string; email: string; name: string }; organization_slug: string }>(organizationRoutes.signUpWithInvitation, res);
    expect(body).toMatchObject({ user: { email: 'newbie@acme.test', name: 'Nia Newbie' }, organization_slug: 'acme' });
    expect(await roleOf(body.user)).toBe('developer');

    // The cookie is a working session, with the new member's project roles.
    const session = /dash_session=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;
    const resolved = await platform.app.inject({ method: 'POST', url: '/internal/sessions/resolve', payload: { token: session }, headers: serviceHeaders() });
    expect(JSON.parse(resolved.body)).toMatchObject({ user: { email: 'newbie@acme.test' }, projects: { 'acme-app': 'developer' } });
    // The link is used up.
    expectError(organizationRoutes.previewInvitation, await preview(token), 404, OrganizationMessages.invitationInvalid);
    expectError(organizationRoutes.signUpWithInvitation, await signUp({ token, name: 'Again', password: 'a long password' }), 404, OrganizationMessages.invitationInvalid);
    expect((await auditOf('member.joined', 'newbie@acme.test'))[0]).toMatchObject({ actor_email: 'newbie@acme.test', organization_slug: 'acme', details: { role: 'developer' } });
  });

  it('lets a signed-in user accept an invitation of their own email only', async () => {
    const invitee = await createUser(platform.ctx, 'invitee@else.test');
    const { accept_path } = created(await invite(admin, 'Invitee@else.test', 'read_only'));
    const token = tokenOf(accept_path);
    expect(expectContract<InvitationPreview>(organizationRoutes.previewInvitation, await preview(token)).account_exists).toBe(true);
    const accept = (person: Person) => call(organizationRoutes.acceptInvitation, '/invitations/accept', as(person), { token });

    expectError(organizationRoutes.signUpWithInvitation, await call(organizationRoutes.signUpWithInvitation, '/invitations/sign-up', {}, { token, name: 'X', password: 'a long password' }), 409, OrganizationMessages.accountExists('invitee@else.test'));
    expectError(organizationRoutes.acceptInvitation, await accept(stranger), 403, OrganizationMessages.invitationForAnotherEmail('invitee@else.test'));
    expectError(organizationRoutes.acceptInvitation, await call(organizationRoutes.acceptInvitation, '/invitations/accept', {}, { token }), 401);
    expect(await roleOf(stranger)).toBeUndefined();
    expect(expectContract<{ organization_slug: string }>(organizationRoutes.acceptInvitation, await accept(invitee))).toEqual({ organization_slug: 'acme' });
    expect(await roleOf(invitee)).toBe('read_only');
    expectError(organizationRoutes.acceptInvitation, await accept(invitee), 404, OrganizationMessages.invitationInvalid);
  });

  it('does not accept an expired invitation', async () => {
    const late = await createUser(platform.ctx, 'late@acme.test');
    const { accept_path, invitation } = created(await invite(owner, late.email, 'developer'));
    await query(platform.databaseUrl, "update platform.invitations set expires_at = now() - interval '1 second' where id = $1", [invitation.id]);
    const token = tokenOf(accept_path);
    expectError(organizationRoutes.previewInvitation, await preview(token), 404, OrganizationMessages.invitationInvalid);
    expectError(organizationRoutes.acceptInvitation, await call(organizationRoutes.acceptInvitation, '/invitations/accept', as(late), { token }), 404);
    const { invitations } = expectContract<{ invitations: Invitation[] }>(
      organizationRoutes.listInvitations,
      await call(organizationRoutes.listInvitations, '/organizations/acme/invitations', as(owner)),
    );
    expect(invitations.find((i) => i.id === invitation.id)?.expired).toBe(true);
    expect(await roleOf(late)).toBeUndefined();
  });

  it('lets owners and administrators revoke (an owner invitation only owners), and no one else', async () => {
    const revoke = (actor: Person, id: string) => call(organizationRoutes.revokeInvitation, `/organizations/acme/invitations/${id}`, as(actor));
    const member = created(await invite(owner, 'revoke-me@acme.test', 'developer'));
    const ownerInvite = created(await invite(owner, 'future-owner@acme.test', 'owner'));
    expectError(organizationRoutes.revokeInvitation, await revoke(developer, member.invitation.id), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.revokeInvitation, await revoke(viewer, member.invitation.id), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.revokeInvitation, await revoke(stranger, member.invitation.id), 404, OrganizationMessages.organizationNotFound);
    expectError(organizationRoutes.revokeInvitation, await revoke(admin, ownerInvite.invitation.id), 403, OrganizationMessages.ownerRoleOwnersOnly);
    expectContract(organizationRoutes.revokeInvitation, await revoke(admin, member.invitation.id));
    expectContract(organizationRoutes.revokeInvitation, await revoke(owner, ownerInvite.invitation.id));
    expectError(organizationRoutes.revokeInvitation, await revoke(owner, member.invitation.id), 404, OrganizationMessages.invitationNotFound);
    expectError(organizationRoutes.previewInvitation, await preview(tokenOf(member.accept_path)), 404);
    expect((await auditOf('invitation.revoked', 'revoke-me@acme.test'))[0]).toMatchObject({ actor_email: admin.email });
  });
});

describe('OAuth apps', () => {
  const create = (actor: Person, payload: object) => call(organizationRoutes.createOAuthApp, '/organizations/acme/oauth-apps', as(actor), payload);
  const list = (actor: Person) => call(organizationRoutes.listOAuthApps, '/organizations/acme/oauth-apps', as(actor));

  it('lets owners and administrators register apps; the secret is shown once and kept as a hash', async () => {
    for (const person of [owner, admin]) {
      const res = await create(person, { name: `App of ${person.email}`, redirect_uris: ['https://app.example.com/callback', 'http://localhost:3000/cb'] });
      const body = expectContract<{ app: OAuthApp; client_secret: string }>(organizationRoutes.createOAuthApp, res);
      expect(body.app).toMatchObject({ name: `App of ${person.email}`, created_by_email: person.email, redirect_uris: ['https://app.example.com/callback', 'http://localhost:3000/cb'] });
      expect(body.client_secret).toMatch(/^dash_secret_[A-Za-z0-9_-]{43}$/);
      const [row] = await query<{ client_secret_hash: string }>(platform.databaseUrl, 'select client_secret_hash from platform.oauth_apps where id = $1', [body.app.id]);
      expect(row!.client_secret_hash).toBe(sha256Hex(body.client_secret));
    }
    for (const [person] of ROLES) {
      const { apps } = expectContract<{ apps: OAuthApp[] }>(organizationRoutes.listOAuthApps, await list(person()));
      expect(apps.map((a) => a.name)).toEqual([`App of ${owner.email}`, `App of ${admin.email}`]);
      expect(JSON.stringify(apps)).not.toContain('dash_secret_');
    }
    expect((await auditOf('oauth_app.created', `App of ${admin.email}`))[0]).toMatchObject({ actor_email: admin.email });
  });

  it('refuses developers, read-only members and non-members', async () => {
    const app = { name: 'Nope', redirect_uris: ['https://nope.example.com/cb'] };
    expectError(organizationRoutes.createOAuthApp, await create(developer, app), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.createOAuthApp, await create(viewer, app), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.createOAuthApp, await create(stranger, app), 404);
    expectError(organizationRoutes.listOAuthApps, await list(stranger), 404);
  });

  it('checks the name and the redirect URIs', async () => {
    expectError(organizationRoutes.createOAuthApp, await create(owner, { name: ' ', redirect_uris: ['https://a.example.com'] }), 400, OrganizationMessages.oauthAppNameRequired);
    expectError(organizationRoutes.createOAuthApp, await create(owner, { name: 'A', redirect_uris: [] }), 400, OrganizationMessages.redirectUriRequired);
    for (const uri of ['http://app.example.com/cb', 'https://a.example.com/cb#x', 'app.example.com', 'javascript:alert(1)', 'https://user:pw@a.example.com']) {
      expectError(organizationRoutes.createOAuthApp, await create(owner, { name: 'A', redirect_uris: [uri] }), 400, OrganizationMessages.redirectUriInvalid(uri));
    }
  });

  it('lets owners and administrators delete apps, and no one else', async () => {
    const { app } = expectContract<{ app: OAuthApp }>(organizationRoutes.createOAuthApp, await create(owner, { name: 'Doomed', redirect_uris: ['https://d.example.com'] }));
    const remove = (actor: Person) => call(organizationRoutes.deleteOAuthApp, `/organizations/acme/oauth-apps/${app.id}`, as(actor));
    expectError(organizationRoutes.deleteOAuthApp, await remove(developer), 403);
    expectError(organizationRoutes.deleteOAuthApp, await remove(viewer), 403);
    expectError(organizationRoutes.deleteOAuthApp, await remove(stranger), 404, OrganizationMessages.organizationNotFound);
    expectContract(organizationRoutes.deleteOAuthApp, await remove(admin));
    expectError(organizationRoutes.deleteOAuthApp, await remove(owner), 404, OrganizationMessages.oauthAppNotFound);
    expect((await auditOf('oauth_app.deleted', 'Doomed'))[0]).toMatchObject({ actor_email: admin.email, details: { client_id: app.client_id } });
  });
});

describe('audit log', () => {
  const orgAudit = (person: Person, query = '') => call(auditRoutes.listOrganizationAudit, `/organizations/acme/audit${query}`, as(person));

  it('shows the organization\'s events, newest first and in pages, to owners and administrators only', async () => {
    for (const person of [owner, admin]) {
      const page = expectContract<AuditPage>(auditRoutes.listOrganizationAudit, await orgAudit(person));
      expect(page.events.length).toBeGreaterThan(10);
      expect(page.events.every((e) => e.organization_slug === 'acme')).toBe(true);
      const ids = page.events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    }
    const first = expectContract<AuditPage>(auditRoutes.listOrganizationAudit, await orgAudit(owner, '?limit=3'));
    expect(first.events).toHaveLength(3);
    const second = expectContract<AuditPage>(auditRoutes.listOrganizationAudit, await orgAudit(owner, `?limit=3&before=${first.next_before}`));
    expect(Number(second.events[0]!.id)).toBeLessThan(Number(first.events[2]!.id));
    expectError(auditRoutes.listOrganizationAudit, await orgAudit(developer), 403, ServiceMessages.forbidden);
    expectError(auditRoutes.listOrganizationAudit, await orgAudit(viewer), 403, ServiceMessages.forbidden);
    expectError(auditRoutes.listOrganizationAudit, await orgAudit(stranger), 404);
  });

  it('shows each user their own actions', async () => {
    const page = expectContract<AuditPage>(auditRoutes.listAccountAudit, await call(auditRoutes.listAccountAudit, '/account/audit', as(admin)));
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events.every((e) => e.actor_id === admin.id && e.actor_email === admin.email)).toBe(true);
    const none = expectContract<AuditPage>(auditRoutes.listAccountAudit, await call(auditRoutes.listAccountAudit, '/account/audit', as(viewer)));
    expect(none).toEqual({ events: [], next_before: null });
  });

  it('records the other services\' events in the project\'s organization, from services only', async () => {
    const record = (headers: Record<string, string>, payload: object) => call(auditRoutes.recordAudit, '/internal/audit', headers, payload);
    const event = { action: 'bucket.created', actor: { id: developer.id, email: developer.email }, project_ref: 'acme-app', target: 'avatars', details: { public: true } };
    expectContract(auditRoutes.recordAudit, await record(serviceHeaders('storage'), event));
    expectError(auditRoutes.recordAudit, await record(as(owner), event), 403, ServiceMessages.internalOnly);
    expectError(auditRoutes.recordAudit, await record(serviceHeaders('storage'), { ...event, project_ref: 'gone' }), 404, ServiceMessages.projectNotFound);
    expectError(auditRoutes.recordAudit, await record(serviceHeaders('storage'), { ...event, action: 'bucket.painted' }), 400);
    const page = expectContract<AuditPage>(auditRoutes.listOrganizationAudit, await orgAudit(owner, '?limit=1'));
    expect(page.events[0]).toMatchObject({ action: 'bucket.created', actor_email: developer.email, project_ref: 'acme-app', organization_slug: 'acme', target: 'avatars', details: { public: true } });
  });
});

describe('routes', () => {
  it('registers every organization and audit route', () => {
    for (const def of [...Object.values(organizationRoutes), ...Object.values(auditRoutes), platformRoutes.listOrganizations] as RouteDef[]) {
      expect(`${def.method} ${def.url} ${platform.app.hasRoute({ method: def.method, url: def.url })}`).toBe(`${def.method} ${def.url} true`);
    }
  });
});
