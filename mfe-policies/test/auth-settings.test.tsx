import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { AUTH_HOOK_SECRETS_PATTERN, AUTH_HOSTED_CONFIG_DEFAULTS, AuthConfigMessages, type AuthHostedConfig } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';
import { generateHookSecret } from '../src/settings/AuthSettingsPages';

const mount = 'auth';
const HOSTED = 'PATCH /api/platform/projects/default/config/auth/hosted';

/** The hosted settings as the platform keeps them: PATCH merges and answers the whole. */
function answers(initial: Partial<AuthHostedConfig> = {}): Record<string, MockAnswer> {
  let config = { ...AUTH_HOSTED_CONFIG_DEFAULTS, ...initial } as AuthHostedConfig;
  return {
    ...permissionsAnswer('default', 'owner'),
    'GET /api/platform/projects/default/config/auth/hosted': () => ({ body: config }),
    [HOSTED]: async (request) => {
      config = { ...config, ...((await request.json()) as Partial<AuthHostedConfig>) } as AuthHostedConfig;
      return { body: config };
    },
  };
}

/** A card once the member's permissions have loaded (its fields are disabled until then). */
async function form(name: string) {
  const card = await screen.findByRole('form', { name });
  await waitFor(() => expect((within(card).getAllByRole('switch')[0] as HTMLInputElement).disabled).toBe(false));
  return card;
}

describe('Providers: the settings the auth service now runs', () => {
  it('sign-ups and email confirmation, each toggle saying what it does', async () => {
    const fetchMock = mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url: '/project/default/auth/providers' });
    const signups = await form('User Signups');
    const allow = within(signups).getByRole('switch', { name: 'Allow new users to sign up' }) as HTMLInputElement;
    const confirm = within(signups).getByRole('switch', { name: 'Confirm email' }) as HTMLInputElement;
    expect([allow.checked, confirm.checked]).toEqual([true, true]);
    expect(within(signups).getByText(/only users you add or invite can sign in/)).toBeTruthy();
    await userEvent.click(allow);
    await userEvent.click(confirm);
    await userEvent.click(within(signups).getByRole('button', { name: 'Save' }));
    await screen.findByText(AuthConfigMessages.saved('User Signups'));
    // Both are inverted: the switches say what users get, the settings what the server refuses.
    expect(await fetchMock.bodiesOf(HOSTED)).toEqual([{ disable_signup: true, mailer_autoconfirm: true }]);
  });

  it('email: secure change, reauthentication, password length and OTP expiry, checked against their ranges', async () => {
    const fetchMock = mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url: '/project/default/auth/providers' });
    const email = await form('Email');
    expect((within(email).getByRole('switch', { name: 'Secure email change' }) as HTMLInputElement).checked).toBe(true);
    const reauth = within(email).getByRole('switch', { name: 'Require reauthentication to change password' }) as HTMLInputElement;
    expect(reauth.checked).toBe(false);
    const length = within(email).getByLabelText('Minimum password length') as HTMLInputElement;
    const otp = within(email).getByLabelText('Email OTP expiration') as HTMLInputElement;
    expect([length.value, otp.value]).toEqual(['6', '3600']);

    await userEvent.clear(length);
    await userEvent.type(length, '73');
    await userEvent.clear(otp);
    await userEvent.type(otp, '59');
    await userEvent.click(within(email).getByRole('button', { name: 'Save' }));
    expect(within(email).getByText(AuthConfigMessages.numberRange(6, 72))).toBeTruthy();
    expect(within(email).getByText(AuthConfigMessages.numberRange(60, 86400))).toBeTruthy();
    expect(fetchMock.calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.clear(length);
    await userEvent.type(length, '12');
    await userEvent.clear(otp);
    await userEvent.type(otp, '600');
    await userEvent.click(reauth);
    await userEvent.click(within(email).getByRole('switch', { name: 'Secure email change' }));
    await userEvent.click(within(email).getByRole('button', { name: 'Save' }));
    await screen.findByText(AuthConfigMessages.saved('Email'));
    expect(await fetchMock.bodiesOf(HOSTED)).toEqual([
      { mailer_secure_email_change_enabled: false, security_update_password_require_reauthentication: true, password_min_length: 12, mailer_otp_exp: 600 },
    ]);
  });
});

describe('Hooks: a secret for HTTPS endpoints', () => {
  it('generates Standard Webhooks secrets of 32 random bytes', () => {
    const secret = generateHookSecret();
    expect(secret).toMatch(new RegExp(AUTH_HOOK_SECRETS_PATTERN));
    expect(Buffer.from(secret.slice('v1,whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateHookSecret()).not.toBe(secret);
  });

  it('shows the secret only for an https URI, requires it to enable the hook, and saves a generated one', async () => {
    const fetchMock = mockFetch(answers({ hook_send_email_uri: 'pg-functions://postgres/public/send_email' }));
    renderArea(PoliciesRoutes, { mount, url: '/project/default/auth/hooks' });
    const card = await form('Send Email');
    expect(within(card).queryByLabelText('Secret')).toBeNull();
    const uri = within(card).getByLabelText('URI');
    await userEvent.clear(uri);
    await userEvent.type(uri, 'https://hooks.example.com/send-email');
    await userEvent.click(within(card).getByRole('switch', { name: 'Enable hook' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(within(card).getByText(AuthConfigMessages.hookSecretRequired('Send Email'))).toBeTruthy();

    await userEvent.type(within(card).getByLabelText('Secret'), 'not-a-secret');
    expect(within(card).getByText(AuthConfigMessages.hookSecretsInvalid)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Generate secret' }));
    const secret = (within(card).getByLabelText('Secret') as HTMLInputElement).value;
    expect(secret).toMatch(new RegExp(AUTH_HOOK_SECRETS_PATTERN));
    expect(within(card).queryByText(AuthConfigMessages.hookSecretsInvalid)).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await screen.findByText(AuthConfigMessages.saved('Send Email'));
    expect(await fetchMock.bodiesOf(HOSTED)).toEqual([{ hook_send_email_enabled: true, hook_send_email_uri: 'https://hooks.example.com/send-email', hook_send_email_secrets: secret }]);
  });
});

it('Templates: the Reauthentication template is there with its code', async () => {
  mockFetch(answers());
  renderArea(PoliciesRoutes, { mount, url: '/project/default/auth/templates' });
  await userEvent.click(await screen.findByRole('tab', { name: 'Reauthentication' }));
  const card = await screen.findByRole('form', { name: 'Reauthentication' });
  expect((within(card).getByLabelText('Subject heading') as HTMLInputElement).value).toBe('Confirm Reauthentication');
  expect((within(card).getByLabelText('Message body') as HTMLTextAreaElement).value).toContain('{{ .Token }}');
});
