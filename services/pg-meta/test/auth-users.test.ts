import { AuthUserMessages, authUsersRoutes, ErrorReply, type AuthUser, type AuthUserList, type OrgRole } from '@dash/contracts';
import { as, contractValidator, setupProject, type Project } from './helpers';
import { banAuthUserQuery, createAuthUserQuery, listAuthUsersQuery } from '../src/sql/auth-users';

/*
 * The auth users routes on a real, bootstrapped project database: the password is hashed by pgcrypto
 * in the database, every write is refused to read-only members, and hostile text stays data.
 */

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
});
afterAll(() => p.close());

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: as(role), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (typeof message === 'string') expect((reply.body as ErrorReply).message).toBe(message);
  else if (message) expect((reply.body as ErrorReply).message).toMatch(message);
}

const create = async (email: string, password = 'correct horse', role: OrgRole = 'owner') => {
  const reply = await call('POST', '/auth/users', { email, password }, role);
  expect(reply.status).toBe(201);
  expect(check(authUsersRoutes.createAuthUser.response, reply.body)).toBeNull();
  return reply.body as AuthUser;
};

const list = async (query = '', role: OrgRole = 'read_only') => {
  const reply = await call('GET', `/auth/users${query}`, undefined, role);
  expect(reply.status).toBe(200);
  expect(check(authUsersRoutes.listAuthUsers.response, reply.body)).toBeNull();
  return reply.body as AuthUserList;
};

describe('auth users SQL (unit)', () => {
  it('passes every value as a parameter and quotes the pgcrypto schema', () => {
    const q = createAuthUserQuery('ext"; drop table x; --', { email: "o'hara@x.io", password: "p'w", autoConfirm: true });
    expect(q.text).toContain('"ext""; drop table x; --".crypt($2, "ext""; drop table x; --".gen_salt(\'bf\', 10))');
    expect(q.text).not.toContain("o'hara");
    expect(q.values).toEqual(["o'hara@x.io", "p'w", true]);
    expect(listAuthUsersQuery({ search: '  %_x ' }).values).toEqual(['%_x', 50, 0]);
    expect(banAuthUserQuery('00000000-0000-0000-0000-000000000000', null).values).toEqual(['00000000-0000-0000-0000-000000000000', null]);
  });
});

describe('auth users routes', () => {
  it('creates a confirmed user whose password the database hashed with bcrypt', async () => {
    const user = await create('Alice@Example.com', "s3cret'; drop table auth.users; --");
    expect(user).toMatchObject({ email: 'alice@example.com', aud: 'authenticated', role: 'authenticated', is_anonymous: false, banned_until: null });
    expect(user.email_confirmed_at).not.toBeNull();
    const { rows } = await p.sql(`select encrypted_password like '$2a$10$%' as bcrypt, encrypted_password = extensions.crypt($2, encrypted_password) as matches from auth.users where id = $1`, [
      user.id,
      "s3cret'; drop table auth.users; --",
    ]);
    expect(rows).toEqual([{ bcrypt: true, matches: true }]);
    // The hash never leaves the service.
    expect(JSON.stringify(await list())).not.toContain('$2a$');
  });

  it('makes the email identity the auth service makes, and lists providers, factors and the confirmation state', async () => {
    const waiting = (await call('POST', '/auth/users', { email: 'gina@example.com', password: 'longenough', auto_confirm: false })).body as AuthUser;
    expect(waiting).toMatchObject({ email_confirmed_at: null, providers: ['email'], factors: 0, confirmation_sent_at: null });
    const { rows: identities } = await p.sql(
      `select provider, provider_id, identity_data, i.email, confirmation_token, recovery_token, instance_id::text from auth.identities i join auth.users u on u.id = i.user_id where i.user_id = $1`,
      [waiting.id],
    );
    expect(identities).toEqual([
      {
        provider: 'email',
        provider_id: waiting.id,
        identity_data: { sub: waiting.id, email: 'gina@example.com', email_verified: false, phone_verified: false },
        email: 'gina@example.com',
        confirmation_token: '',
        recovery_token: '',
        instance_id: '00000000-0000-0000-0000-000000000000',
      },
    ]);
    // A second identity and factors as the auth service writes them: only the verified factor counts.
    await p.sql(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ('gh-1', $1, '{"sub": "gh-1"}', 'github')`, [waiting.id]);
    await p.sql(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status) values (gen_random_uuid(), $1, 'phone app', 'totp', 'verified'), (gen_random_uuid(), $1, 'other', 'totp', 'unverified')`,
      [waiting.id],
    );
    await p.sql(`update auth.users set confirmation_sent_at = '2024-05-06T07:08:09Z' where id = $1`, [waiting.id]);
    const [listed] = (await list('?search=gina')).users;
    expect(listed).toMatchObject({ providers: ['email', 'github'], factors: 1, confirmation_sent_at: expect.stringMatching(/^2024-05-06T07:08:09/) });
    // A user written by hand, without identities: the app metadata's providers.
    await p.sql(`insert into auth.users (id, email, raw_app_meta_data) values (gen_random_uuid(), 'hand@example.com', '{"providers": ["email", "google"]}')`);
    expect((await list('?search=hand@')).users[0]).toMatchObject({ providers: ['email', 'google'], factors: 0 });
    await p.sql(`delete from auth.users where email in ('gina@example.com', 'hand@example.com')`);
  });

  it('lists newest first with paging, and searches email parts and ids without wildcards', async () => {
    await create('bob@example.com');
    await create('bob_2@example.com');
    const all = await list('?limit=2');
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.users.map((u) => u.email)).toEqual(['bob_2@example.com', 'bob@example.com']);
    expect((await list('?limit=2&offset=2')).users[0]!.email).toBe('alice@example.com');
    expect((await list(`?search=${encodeURIComponent(' BOB ')}`)).total).toBe(2);
    // `_` and `%` are characters, not LIKE wildcards.
    expect((await list('?search=b_2')).users.map((u) => u.email)).toEqual(['bob_2@example.com']);
    expect((await list('?search=%25')).total).toBe(0);
    const alice = (await list('?search=alice')).users[0]!;
    expect((await list(`?search=${alice.id.toUpperCase()}`)).users.map((u) => u.id)).toEqual([alice.id]);
  });

  it('bans for a number of hours and lifts the ban', async () => {
    const user = await create('carol@example.com');
    const banned = await call('PUT', `/auth/users/${user.id}/ban`, { hours: 24 }, 'developer');
    expect(banned.status).toBe(200);
    const until = new Date((banned.body as AuthUser).banned_until!).getTime();
    expect(until - Date.now()).toBeGreaterThan(23 * 3600_000);
    const lifted = await call('PUT', `/auth/users/${user.id}/ban`, { hours: null }, 'developer');
    expect((lifted.body as AuthUser).banned_until).toBeNull();
    failed(await call('PUT', `/auth/users/${user.id}/ban`, { hours: 0 }), 400);
    failed(await call('PUT', `/auth/users/00000000-0000-4000-8000-000000000000/ban`, { hours: 1 }), 404, AuthUserMessages.userNotFound);
  });

  it('deletes a user and answers 404 for one that is gone', async () => {
    const user = await create('dave@example.com');
    const deleted = await call('DELETE', `/auth/users/${user.id}`, undefined, 'administrator');
    expect(deleted.status).toBe(200);
    expect((deleted.body as AuthUser).email).toBe('dave@example.com');
    failed(await call('DELETE', `/auth/users/${user.id}`), 404, AuthUserMessages.userNotFound);
    expect((await list('?search=dave')).total).toBe(0);
  });

  it('refuses bad input with a clear 4xx', async () => {
    failed(await call('POST', '/auth/users', { email: 'ALICE@example.com', password: 'longenough' }), 409, AuthUserMessages.emailTaken('ALICE@example.com'));
    failed(await call('POST', '/auth/users', { email: 'not an email', password: 'longenough' }), 400);
    failed(await call('POST', '/auth/users', { email: 'e@example.com', password: '12345' }), 400);
    // 72 characters but more bytes than bcrypt reads.
    failed(await call('POST', '/auth/users', { email: 'e@example.com', password: 'é'.repeat(40) }), 400, AuthUserMessages.passwordTooLong);
    failed(await call('POST', '/auth/users', { email: 'e@example.com', password: 'longenough', role: 'service_role' }), 400);
    failed(await call('DELETE', `/auth/users/1' or '1'='1`), 400);
    failed(await call('GET', '/auth/users?limit=0'), 400);
  });

  it('lets read-only members list and refuses them every write', async () => {
    const user = await create('erin@example.com');
    expect((await list('?search=erin', 'read_only')).total).toBe(1);
    failed(await call('POST', '/auth/users', { email: 'ro@example.com', password: 'longenough' }, 'read_only'), 403);
    failed(await call('PUT', `/auth/users/${user.id}/ban`, { hours: 1 }, 'read_only'), 403);
    failed(await call('DELETE', `/auth/users/${user.id}`, undefined, 'read_only'), 403);
    expect((await list('?search=ro@example.com', 'owner')).total).toBe(0);
    expect((await list('?search=erin', 'owner')).users[0]!.banned_until).toBeNull();
  });

  it('says how to fix a project without pgcrypto', async () => {
    await p.superuserSql('drop extension pgcrypto');
    try {
      failed(await call('POST', '/auth/users', { email: 'f@example.com', password: 'longenough' }), 400, AuthUserMessages.pgcryptoMissing);
    } finally {
      await p.superuserSql('create extension pgcrypto with schema extensions');
    }
  });
});
