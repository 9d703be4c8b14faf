import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { AuthUserMessages, authUsersRoutes, type AuthUser, type AuthUserList } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';

const url = '/project/default/auth/users';
const mount = 'auth';
const base = { aud: 'authenticated', role: 'authenticated', phone: null, banned_until: null, raw_app_meta_data: {}, raw_user_meta_data: {}, updated_at: null, confirmation_sent_at: null };
const waiting: AuthUser = {
  ...base,
  id: '11111111-1111-4111-8111-111111111111',
  email: 'new@example.com',
  email_confirmed_at: null,
  confirmation_sent_at: '2026-01-02T10:00:00.000Z',
  last_sign_in_at: null,
  is_anonymous: false,
  created_at: '2026-01-02T10:00:00.000Z',
  providers: ['email'],
  factors: 0,
};
const confirmed: AuthUser = {
  ...base,
  id: '22222222-2222-4222-8222-222222222222',
  email: 'ada@example.com',
  email_confirmed_at: '2026-01-01T09:00:00.000Z',
  last_sign_in_at: '2026-01-03T08:00:00.000Z',
  is_anonymous: false,
  created_at: '2026-01-01T09:00:00.000Z',
  providers: ['email', 'github'],
  factors: 2,
};
const anonymous: AuthUser = {
  ...base,
  id: '33333333-3333-4333-8333-333333333333',
  email: null,
  email_confirmed_at: null,
  last_sign_in_at: '2026-01-03T08:00:00.000Z',
  is_anonymous: true,
  created_at: '2025-12-31T09:00:00.000Z',
  providers: [],
  factors: 0,
};
const list: AuthUserList = { users: [waiting, confirmed, anonymous], total: 3 };

function answers(role: 'owner' | 'developer' | 'read_only', overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return { ...permissionsAnswer('default', role), 'GET /api/pg-meta/default/auth/users': { body: list }, ...overrides };
}

const rowOf = async (text: string) => (await screen.findAllByTestId('auth-user-row')).find((r) => r.textContent?.includes(text))!;
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

it('fixtures match the contract', () => {
  const ajv = addFormats(new Ajv({ strict: false }));
  expect(ajv.validate(authUsersRoutes.listAuthUsers.response, list)).toBe(true);
});

it('shows providers, last sign-in, the confirmation state, the anonymous badge and MFA factors', async () => {
  mockFetch(answers('read_only'));
  renderArea(PoliciesRoutes, { mount, url });
  const table = await screen.findByRole('table', { name: 'Users' });
  expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Providers', 'Created', 'Last sign in', 'Status', 'MFA', '']);

  const [user, providers, , lastSignIn, status, mfa] = cells(await rowOf('new@example.com'));
  expect([user, providers, lastSignIn, mfa]).toEqual([`new@example.com${waiting.id}`, 'Email', 'Never', '—']);
  expect(status).toBe(`Waiting for verificationLink sent ${new Date(waiting.confirmation_sent_at!).toLocaleString()}`);

  const ada = cells(await rowOf('ada@example.com'));
  expect([ada[1], ada[3], ada[4], ada[5]]).toEqual(['Email, GitHub', new Date(confirmed.last_sign_in_at!).toLocaleString(), `Confirmed${new Date(confirmed.email_confirmed_at!).toLocaleString()}`, '2 factors']);

  const anon = await rowOf(anonymous.id);
  expect(within(anon).getByText('Anonymous')).toBeTruthy();
  expect(cells(anon)[1]).toBe('—');
});

it('sends a recovery and a magic link from the row menu, each with a toast; an error is a toast too', async () => {
  let magic = 0;
  const fetchMock = mockFetch(
    answers('developer', {
      [`POST /api/auth/default/users/${confirmed.id}/recover`]: { body: { email: 'ada@example.com' } },
      [`POST /api/auth/default/users/${confirmed.id}/magiclink`]: () =>
        ++magic === 1
          ? { body: { email: 'ada@example.com' } }
          : { status: 429, body: { statusCode: 429, error: 'Too Many Requests', message: 'For security purposes, you can only request this after 58 seconds.' } },
    }),
  );
  renderArea(PoliciesRoutes, { mount, url });
  const row = await rowOf('ada@example.com');
  const choose = async (item: string) => {
    await userEvent.click(within(row).getByRole('button', { name: 'More actions for ada@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: item }));
  };
  await choose('Send password recovery');
  await screen.findByText(AuthUserMessages.recoverySent('ada@example.com'));
  await choose('Send magic link');
  await screen.findByText(AuthUserMessages.magicLinkSent('ada@example.com'));
  await choose('Send magic link');
  await screen.findByText(AuthUserMessages.sendFailed('For security purposes, you can only request this after 58 seconds.'));
  expect(fetchMock.calls.filter((c) => c.method === 'POST').map((c) => new URL(c.url).pathname)).toEqual([
    `/api/auth/default/users/${confirmed.id}/recover`,
    `/api/auth/default/users/${confirmed.id}/magiclink`,
    `/api/auth/default/users/${confirmed.id}/magiclink`,
  ]);
});

it('revokes sessions only after a confirmation', async () => {
  const fetchMock = mockFetch(answers('owner', { [`DELETE /api/auth/default/users/${confirmed.id}/sessions`]: { body: { revoked: 2 } } }));
  renderArea(PoliciesRoutes, { mount, url });
  const row = await rowOf('ada@example.com');
  const revoke = async () => {
    await userEvent.click(within(row).getByRole('button', { name: 'More actions for ada@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Revoke sessions' }));
    return screen.findByRole('dialog', { name: 'Revoke sessions' });
  };
  await userEvent.click(within(await revoke()).getByRole('button', { name: 'Cancel' }));
  expect(fetchMock.calls.some((c) => c.method === 'DELETE')).toBe(false);
  await userEvent.click(within(await revoke()).getByRole('button', { name: 'Revoke sessions' }));
  await screen.findByText(AuthUserMessages.sessionsRevoked('ada@example.com', 2));
  expect(fetchMock.calls.filter((c) => c.method === 'DELETE').length).toBe(1);
});

it('a read-only member sees the actions disabled', async () => {
  mockFetch(answers('read_only'));
  renderArea(PoliciesRoutes, { mount, url });
  const row = await rowOf('ada@example.com');
  await userEvent.click(within(row).getByRole('button', { name: 'More actions for ada@example.com' }));
  const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
  expect(items.map((i) => [i.textContent, (i as HTMLButtonElement).disabled])).toEqual([
    ['Send password recovery', true],
    ['Send magic link', true],
    ['Revoke sessions', true],
  ]);
});

it('a user without an email gets no link, but their sessions may be revoked', async () => {
  mockFetch(answers('owner'));
  renderArea(PoliciesRoutes, { mount, url });
  const row = await rowOf(anonymous.id);
  await userEvent.click(within(row).getByRole('button', { name: `More actions for ${anonymous.id}` }));
  const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
  expect(items.map((i) => [i.textContent, (i as HTMLButtonElement).disabled])).toEqual([
    ['Send password recovery', true],
    ['Send magic link', true],
    ['Revoke sessions', false],
  ]);
});
