import { DATA_API_USER_TOKEN_TTL_SECONDS, dataApiRoutes, platformRoutes, type OrgRole } from '@dash/contracts';
import { verifyJwt } from '@dash/service-kit';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, startPlatform, type TestPlatform } from './helpers';

// GraphiQL's "as a user" tokens: minted for members who may write the project's SQL, signed with the
// project's JWT secret, role authenticated, sub the chosen user, valid an hour.

type Member = { id: string; email: string };
let platform: TestPlatform;
const users = {} as Record<OrgRole | 'stranger', Member>;
const REF = 'gqltoken';
const USER_ID = '6f1d2c3b-4a59-4e7f-9a8b-0c1d2e3f4a5b';

beforeAll(async () => {
  platform = await startPlatform();
  for (const role of ['owner', 'developer', 'read_only', 'stranger'] as const) users[role] = await createUser(platform.ctx, `${role}@example.com`);
  const orgId = await createOrg(platform.ctx, 'tokens', [
    [users.owner.id, 'owner'],
    [users.developer.id, 'developer'],
    [users.read_only.id, 'read_only'],
  ]);
  await createOrg(platform.ctx, 'other', [[users.stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, REF, orgId);
});
afterAll(() => platform.close());

const mint = (who: OrgRole | 'stranger', payload: object = { userId: USER_ID }) =>
  platform.app.inject({
    method: 'POST',
    url: `/projects/${REF}/data-api/user-token`,
    headers: userHeaders({ [REF]: who === 'stranger' ? 'owner' : who }, users[who].id, users[who].email),
    payload,
  });

async function projectSecret(): Promise<string> {
  const settings = await platform.app.inject({ method: 'GET', url: `/internal/projects/${REF}/data-api-settings`, headers: serviceHeaders() });
  return expectContract<{ jwtSecret: string }>(platformRoutes.projectDataApiSettings, settings).jwtSecret;
}

test('a writer gets an hour-long authenticated token for the user, signed with the project secret', async () => {
  const before = Math.floor(Date.now() / 1000);
  for (const who of ['owner', 'developer'] as const) {
    const reply = expectContract<{ accessToken: string; expiresAt: string }>(dataApiRoutes.mintUserToken, await mint(who));
    const verified = verifyJwt(await projectSecret(), reply.accessToken);
    if ('error' in verified) throw new Error(verified.error);
    expect(verified.claims).toMatchObject({ role: 'authenticated', aud: 'authenticated', sub: USER_ID, ref: REF });
    expect(verified.claims.exp! - verified.claims.iat!).toBe(DATA_API_USER_TOKEN_TTL_SECONDS);
    expect(verified.claims.iat!).toBeGreaterThanOrEqual(before);
    expect(Date.parse(reply.expiresAt)).toBe(verified.claims.exp! * 1000);
  }
});

test('a read-only member is refused, a non-member finds no project, and the user id must be a uuid', async () => {
  expectError(dataApiRoutes.mintUserToken, await mint('read_only'), 403);
  expectError(dataApiRoutes.mintUserToken, await mint('stranger'), 404);
  expectError(dataApiRoutes.mintUserToken, await mint('owner', { userId: "x' or 1=1" }), 400);
  expectError(dataApiRoutes.mintUserToken, await mint('owner', {}), 400);
});
