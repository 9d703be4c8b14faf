import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ConfirmProvider, Toaster } from '@dash/shell-sdk';
import { AUTH_SMTP_DEFAULTS, AuthConfigMessages, authSmtpRoutes, MailMessages, ROLE_PERMISSIONS, type AuthSmtpSettings, type OrgRole } from '@dash/contracts';
import { SmtpSettingsCard } from '../src/settings/SmtpSettingsCard';
import { createShellStore } from '../src/store';
import { cleanupApi, json, mockFetch, project } from './helpers';

const base = `/api/platform/projects/${project.ref}`;
const saved: AuthSmtpSettings = {
  smtp_enabled: true,
  smtp_admin_email: 'noreply@acme.test',
  smtp_sender_name: 'Acme',
  smtp_host: 'smtp.acme.test',
  smtp_port: 587,
  smtp_user: 'mailer',
  smtp_max_frequency: 60,
  smtp_pass_set: true,
};

let store: ReturnType<typeof createShellStore> | undefined;
afterEach(async () => {
  if (store) await cleanupApi(store);
  store = undefined;
  jest.restoreAllMocks();
});

const permissions = (role: OrgRole) => ({ [`GET ${base}/permissions`]: () => json(200, { role, permissions: ROLE_PERMISSIONS[role] }) });

function renderCard() {
  store = createShellStore();
  const router = createMemoryRouter([{ path: '/project/:ref/settings/auth', element: <SmtpSettingsCard /> }], { initialEntries: [`/project/${project.ref}/settings/auth`] });
  render(
    <Provider store={store}>
      <ConfirmProvider>
        <RouterProvider router={router} />
        <Toaster />
      </ConfirmProvider>
    </Provider>,
  );
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: 'Save SMTP settings' }) as HTMLButtonElement;

it('fixtures match the contract', () => {
  const ajv = addFormats(new Ajv({ strict: false }));
  expect(ajv.validate(authSmtpRoutes.getAuthSmtp.response, saved)).toBe(true);
  expect(ajv.validate(authSmtpRoutes.getAuthSmtp.response, AUTH_SMTP_DEFAULTS)).toBe(true);
});

it('enabling custom SMTP asks for the sender, host, username and password, then saves them', async () => {
  const { calls } = mockFetch({
    ...permissions('developer'),
    [`GET ${base}/config/auth/smtp`]: () => json(200, AUTH_SMTP_DEFAULTS),
    [`PUT ${base}/config/auth/smtp`]: (request) => {
      const { smtp_pass: pass, ...rest } = request.body as Record<string, unknown>;
      return json(200, { ...rest, smtp_pass_set: Boolean(pass) });
    },
  });
  renderCard();
  const toggle = (await screen.findByLabelText('Enable custom SMTP')) as HTMLInputElement;
  await waitFor(() => expect(toggle.disabled).toBe(false));
  expect(field('Host').disabled).toBe(true);
  fireEvent.click(toggle);
  expect(field('Host').disabled).toBe(false);
  fireEvent.click(save());
  await screen.findByText(MailMessages.senderEmailRequired);
  fireEvent.change(field('Sender email'), { target: { value: 'not-an-email' } });
  await screen.findByText(MailMessages.senderEmailInvalid);
  fireEvent.change(field('Sender email'), { target: { value: 'noreply@acme.test' } });
  fireEvent.change(field('Sender name'), { target: { value: 'Acme' } });
  fireEvent.change(field('Host'), { target: { value: 'smtp.acme.test' } });
  fireEvent.change(field('Port'), { target: { value: '0' } });
  fireEvent.blur(field('Port'));
  await screen.findByText(MailMessages.portRange);
  fireEvent.change(field('Port'), { target: { value: '465' } });
  fireEvent.change(field('Username'), { target: { value: 'mailer' } });
  fireEvent.click(save());
  await screen.findByText(MailMessages.passwordRequired);
  expect(calls.some((c) => c.method === 'PUT')).toBe(false);

  fireEvent.change(field('Password'), { target: { value: 'hunter22' } });
  fireEvent.click(save());
  await screen.findByText(MailMessages.smtpSaved);
  expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
    { smtp_enabled: true, smtp_admin_email: 'noreply@acme.test', smtp_sender_name: 'Acme', smtp_host: 'smtp.acme.test', smtp_port: 465, smtp_user: 'mailer', smtp_max_frequency: 60, smtp_pass: 'hunter22' },
  ]);
  // The password field is empty again, with the hint that blank keeps it.
  await waitFor(() => expect(field('Password').value).toBe(''));
  expect(screen.getByText(MailMessages.passwordKept)).toBeTruthy();
});

it('a stored password is never shown; a save without one keeps it (no smtp_pass sent)', async () => {
  const { calls } = mockFetch({
    ...permissions('owner'),
    [`GET ${base}/config/auth/smtp`]: () => json(200, saved),
    [`PUT ${base}/config/auth/smtp`]: (request) => json(200, { ...(request.body as object), smtp_pass_set: true }),
  });
  renderCard();
  const host = await screen.findByLabelText('Host');
  await waitFor(() => expect((host as HTMLInputElement).disabled).toBe(false));
  expect(field('Password').value).toBe('');
  fireEvent.change(host, { target: { value: 'mail.acme.test' } });
  fireEvent.click(save());
  await screen.findByText(MailMessages.smtpSaved);
  expect(calls.find((c) => c.method === 'PUT')!.body).not.toHaveProperty('smtp_pass');
});

it('a read-only member sees the settings but cannot change them', async () => {
  mockFetch({ ...permissions('read_only'), [`GET ${base}/config/auth/smtp`]: () => json(200, saved) });
  renderCard();
  await screen.findByText(AuthConfigMessages.needPermissions);
  expect(field('Enable custom SMTP').disabled).toBe(true);
  expect(field('Host').value).toBe('smtp.acme.test');
  expect(save().disabled).toBe(true);
});
