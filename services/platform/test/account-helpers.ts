import { IDENTITY_HEADER, platformRoutes, SESSION_COOKIE, type OrgRole, type RouteReply } from '@dash/contracts';
import { signIdentity } from '@dash/service-kit';
import { forwardedFrom, serviceHeaders, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, insertProjectRow, PASSWORD, type TestPlatform } from './helpers';

export type Resolved = RouteReply<typeof platformRoutes.resolveSession>;

/** A signed-in browser: its cookie token, and the headers the gateway would send for it (identity and cookie). */
export interface Browser {
  token: string;
  headers: Record<string, string>;
}

/** One user per organization role of the project `ref`, plus one who is a member of nothing. */
export const ACCOUNT_ROLES: Array<OrgRole | 'non-member'> = ['owner', 'administrator', 'developer', 'read_only', 'non-member'];

export async function createRoleUsers(platform: TestPlatform, slug: string, ref: string) {
  const users = {} as Record<OrgRole | 'non-member', { id: string; email: string }>;
  for (const role of ACCOUNT_ROLES) users[role] = await createUser(platform.ctx, `${role.replace('_', '-')}@${slug}.example.com`);
  const orgId = await createOrg(
    platform.ctx,
    slug,
    (['owner', 'administrator', 'developer', 'read_only'] as const).map((role) => [users[role].id, role]),
  );
  await insertProjectRow(platform.ctx, ref, orgId);
  return users;
}

let nextIp = 1;

/** Signs in with the password (from an address of its own, so sign-in limits do not interfere). */
export async function signInAs(platform: TestPlatform, email: string): Promise<Browser & { reply: RouteReply<typeof platformRoutes.signIn> }> {
  const res = await platform.app.inject({
    method: 'POST',
    url: '/auth/sign-in',
    payload: { email, password: PASSWORD },
    headers: forwardedFrom(`10.1.0.${nextIp++}`),
  });
  const reply = expectContract<RouteReply<typeof platformRoutes.signIn>>(platformRoutes.signIn, res);
  const token = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(String(res.headers['set-cookie']))![1]!;
  const resolved = await resolve(platform, token);
  return { token, reply, headers: browserHeaders(token, resolved) };
}

/** What the gateway sends for a session: a signed identity of its user and the cookie (the platform reads it). */
export function browserHeaders(token: string, resolved: Resolved): Record<string, string> {
  return { ...userHeaders(resolved.projects, resolved.user.id, resolved.user.email), cookie: `${SESSION_COOKIE}=${token}` };
}

/** What the gateway sends for a personal access token: an identity that says it came from one, and no cookie. */
export function tokenHeaders(resolved: Resolved): Record<string, string> {
  const { id, email } = resolved.user;
  return { [IDENTITY_HEADER]: signIdentity(TEST_SECRET, { kind: 'user', sub: id, email, projects: resolved.projects, credential: 'access_token' }) };
}

/** The gateway's lookup of a session cookie or an access token. */
export async function resolveRaw(platform: TestPlatform, token: string, kind?: 'session' | 'access_token') {
  return platform.app.inject({
    method: 'POST',
    url: platformRoutes.resolveSession.url,
    payload: kind ? { token, kind } : { token },
    headers: serviceHeaders(),
  });
}

export async function resolve(platform: TestPlatform, token: string, kind?: 'session' | 'access_token'): Promise<Resolved> {
  return expectContract<Resolved>(platformRoutes.resolveSession, await resolveRaw(platform, token, kind));
}
