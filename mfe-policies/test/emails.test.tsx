import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { MailMessages, mailRoutes, type MailList, type MailMessage } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';

const url = '/project/default/auth/emails';
const mount = 'auth';
const list: MailList = {
  total: 2,
  emails: [
    { id: 7, from: '"Auth" <noreply@mail.localhost>', to: ['new@example.com'], subject: 'Confirm Your Signup', received_at: '2026-01-02T10:00:00.000Z' },
    { id: 6, from: '"Auth" <noreply@mail.localhost>', to: ['old@example.com'], subject: 'Reset Your Password', received_at: '2026-01-01T10:00:00.000Z' },
  ],
};
const message: MailMessage = {
  ...list.emails[0]!,
  date: '2026-01-02T10:00:00.000Z',
  html: '<h2>Confirm</h2><script>parent.document.title = "owned"</script><a href="http://localhost:3000/verify?token=t">Confirm your mail</a>',
  text: 'Confirm: http://localhost:3000/verify?token=t',
};

function answers(role: 'owner' | 'developer' | 'read_only', overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    'GET /api/mail/default/emails': { body: list },
    'GET /api/mail/default/emails/7': { body: message },
    ...overrides,
  };
}

it('fixtures match the contract', () => {
  const ajv = addFormats(new Ajv({ strict: false }));
  expect(ajv.validate(mailRoutes.listMail.response, list)).toBe(true);
  expect(ajv.validate(mailRoutes.getMail.response, message)).toBe(true);
});

it('lists the emails and opens one in a sandboxed frame that runs no script', async () => {
  mockFetch(answers('developer'));
  renderArea(PoliciesRoutes, { mount, url });
  const table = await screen.findByRole('table', { name: 'Emails' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 2).map((c) => c.textContent))).toEqual([
    ['new@example.com', 'Confirm Your Signup'],
    ['old@example.com', 'Reset Your Password'],
  ]);
  await userEvent.click(screen.getByRole('button', { name: 'Confirm Your Signup' }));
  const reader = await screen.findByRole('article', { name: 'Email: Confirm Your Signup' });
  expect(within(reader).getByText('"Auth" <noreply@mail.localhost>')).toBeTruthy();
  const frame = within(reader).getByTitle('Email content') as HTMLIFrameElement;
  // An empty sandbox: no scripts, no same-origin access, no forms, popups or top navigation.
  expect(frame.getAttribute('sandbox')).toBe('');
  expect(frame.getAttribute('srcdoc')).toBe(message.html);
});

it('says where the mail comes from when there is none, and refreshes', async () => {
  let total = 0;
  const fetchMock = mockFetch(answers('owner', { 'GET /api/mail/default/emails': () => ({ body: total === 0 ? { emails: [], total: 0 } : list }) }));
  renderArea(PoliciesRoutes, { mount, url });
  await screen.findByText(MailMessages.noEmailsHint);
  total = 2;
  await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
  await screen.findByRole('table', { name: 'Emails' });
  expect(fetchMock.calls.filter((c) => new URL(c.url).pathname === '/api/mail/default/emails').length).toBe(2);
});

it('deletes all after a confirmation', async () => {
  let deleted = false;
  const fetchMock = mockFetch(
    answers('owner', {
      'GET /api/mail/default/emails': () => ({ body: deleted ? { emails: [], total: 0 } : list }),
      'DELETE /api/mail/default/emails': () => ((deleted = true), { body: { deleted: 2 } }),
    }),
  );
  renderArea(PoliciesRoutes, { mount, url });
  await screen.findByRole('table', { name: 'Emails' });
  await userEvent.click(screen.getByRole('button', { name: 'Delete all' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(MailMessages.deleteAllConfirm)).toBeTruthy();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete all' }));
  await screen.findByText(MailMessages.deletedAll(2));
  await screen.findByText(MailMessages.noEmailsHint);
  expect(fetchMock.calls.filter((c) => c.method === 'DELETE').length).toBe(1);
});

it('a read-only member is told so, and the emails are never asked for', async () => {
  const fetchMock = mockFetch(answers('read_only'));
  renderArea(PoliciesRoutes, { mount, url });
  await screen.findByText(MailMessages.needPermissions);
  await waitFor(() => expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true));
  expect(fetchMock.calls.some((c) => new URL(c.url).pathname.startsWith('/api/mail/'))).toBe(false);
});
