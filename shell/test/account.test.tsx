import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AccountMessages, ServiceMessages, type AccessToken, type Profile } from '@dash/contracts';
import { resolveTheme } from '../src/account/ThemeSync';
import { cleanupApi, dashConfig, json, mockFetch, project, renderShell, signedInApi, user } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

const noSession = () => json(401, { statusCode: 401, error: 'Unauthorized', message: ServiceMessages.signInRequired });
const profile = (overrides: Partial<Profile> = {}): Profile => ({ ...user, theme: 'system', ...overrides });

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
  delete document.documentElement.dataset.theme;
  window.localStorage.clear();
});

async function submitCode(label: string, code: string, button = 'Verify') {
  fireEvent.change(await screen.findByLabelText(label), { target: { value: code } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: button }));
  });
}

describe('sign-in with MFA (§4)', () => {
  it('after the password, a user with a factor enters a code on /sign-in-mfa, then goes on', async () => {
    let aal: 'none' | 'aal1' | 'aal2' = 'none';
    const { calls } = mockFetch({
      'GET /api/platform/auth/session': () => (aal === 'none' ? noSession() : json(200, { user, aal, nextLevel: 'aal2' })),
      'POST /api/platform/auth/sign-in': () => {
        aal = 'aal1';
        return json(200, { user, aal: 'aal1', nextLevel: 'aal2' });
      },
      'POST /api/platform/auth/mfa/verify': ({ body }) => {
        if ((body as { code: string }).code !== '123456') return json(400, { statusCode: 400, error: 'Bad Request', message: AccountMessages.invalidMfaCode });
        aal = 'aal2';
        return json(200, { user, aal: 'aal2', nextLevel: 'aal2' });
      },
      'GET /api/platform/projects': () => json(200, { projects: [project] }),
      'GET /api/platform/config': () => json(200, dashConfig()),
      'GET /api/platform/profile': () => json(200, profile()),
    });
    shell = renderShell('/sign-in?returnTo=%2Fprojects');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(shell.location()).toBe('/sign-in-mfa?returnTo=%2Fprojects');
    // Same frame as sign-in: the testimonial with terms and privacy.
    expect(screen.getByRole('complementary', { name: 'What our users say' })).toBeTruthy();

    await submitCode('Authentication code', '12');
    expect(await screen.findByText(AccountMessages.codeRequired)).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/platform/auth/mfa/verify')).toHaveLength(0);

    await submitCode('Authentication code', '654321');
    expect(await screen.findByText(AccountMessages.invalidMfaCode)).toBeTruthy();
    expect(shell.location()).toBe('/sign-in-mfa?returnTo=%2Fprojects');

    await submitCode('Authentication code', '123 456');
    expect(await screen.findByText('Billing API')).toBeTruthy();
    expect(shell.location()).toBe('/projects');
    expect(calls.filter((c) => c.path === '/api/platform/auth/mfa/verify').map((c) => c.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
  });

  it('takes a recovery code instead', async () => {
    const { calls } = mockFetch({
      'GET /api/platform/auth/session': () => json(200, { user, aal: 'aal1', nextLevel: 'aal2' }),
      'POST /api/platform/auth/mfa/verify': () => json(200, { user, aal: 'aal2', nextLevel: 'aal2' }),
      'GET /api/platform/config': () => json(200, dashConfig()),
      'GET /api/platform/profile': () => json(200, profile()),
    });
    shell = renderShell('/sign-in-mfa?returnTo=%2Fsupport%2Fnew');
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await submitCode('Recovery code', 'abcde-fghij');
    await waitFor(() => expect(shell!.location()).toBe('/support/new'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'abcde-fghij' });
  });

  it('the sign-in page sends a session still waiting for its code to /sign-in-mfa', async () => {
    mockFetch({ 'GET /api/platform/auth/session': () => json(200, { user, aal: 'aal1', nextLevel: 'aal2' }) });
    shell = renderShell('/sign-in?returnTo=%2Fproject%2Fabc123');
    await waitFor(() => expect(shell!.location()).toBe('/sign-in-mfa?returnTo=%2Fproject%2Fabc123'));
  });

  it('/sign-in-mfa without a session goes to sign-in, and with a session that needs no code goes on', async () => {
    mockFetch({ 'GET /api/platform/auth/session': noSession });
    shell = renderShell('/sign-in-mfa?returnTo=%2Fprojects');
    await waitFor(() => expect(shell!.location()).toBe('/sign-in?returnTo=%2Fprojects'));
    await cleanupApi(shell.store);
    shell.unmount();
    jest.restoreAllMocks();

    signedInApi({ 'GET /api/platform/auth/session': () => json(200, { user, aal: 'aal2', nextLevel: 'aal2' }) });
    shell = renderShell('/sign-in-mfa?returnTo=%2Fprojects');
    await waitFor(() => expect(shell!.location()).toBe('/projects'));
  });
});

describe('theme', () => {
  it('resolves system from the OS preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it("applies the profile's theme on <html>, follows the OS for system, and saves the choice", async () => {
    let theme: Profile['theme'] = 'light';
    const listeners: Array<() => void> = [];
    // The OS is dark: "light" on <html> can only come from the profile.
    const media = { matches: true, addEventListener: (_: string, l: () => void) => listeners.push(l), removeEventListener: jest.fn() };
    window.matchMedia = jest.fn().mockReturnValue(media) as unknown as typeof window.matchMedia;
    const { calls } = signedInApi({
      'GET /api/platform/profile': () => json(200, profile({ theme })),
      'PATCH /api/platform/profile': ({ body }) => {
        theme = (body as { theme: Profile['theme'] }).theme;
        return json(200, profile({ theme }));
      },
    });
    shell = renderShell('/account/me');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    expect(window.localStorage.getItem('dash-theme')).toBe('light');

    await act(async () => {
      fireEvent.click(await screen.findByRole('radio', { name: 'System' }));
    });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ theme: 'system' });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(window.localStorage.getItem('dash-theme')).toBe('system');
    // The OS turns light: the page follows.
    media.matches = false;
    act(() => listeners.forEach((listener) => listener()));
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});

describe('account pages', () => {
  const token: AccessToken = {
    id: '5f0b8c2e-7d64-4c2e-9b0a-3c1d2e4f5a6b',
    name: 'CI deploys',
    prefix: 'dash_pat_ab12',
    created_at: '2026-01-02T10:00:00.000Z',
    expires_at: null,
    last_used_at: null,
  };

  it('shows the account menu and the preferences; saves the name', async () => {
    const { calls } = signedInApi({
      'GET /api/platform/profile': () => json(200, profile()),
      'PATCH /api/platform/profile': () => json(200, profile({ name: 'Ada King' })),
    });
    shell = renderShell('/account');
    const menu = await screen.findByRole('complementary', { name: 'Account menu' });
    expect(within(menu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Preferences', '/account/me'],
      ['Access Tokens', '/account/tokens'],
      ['Security', '/account/security'],
      ['Audit logs', '/account/audit'],
    ]);
    expect(shell.location()).toBe('/account/me');
    const name = await screen.findByLabelText('Name');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(user.email);
    fireEvent.change(name, { target: { value: '  ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(await screen.findByText(AccountMessages.nameRequired)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Ada King' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Ada King' });
    expect(await screen.findByText(AccountMessages.profileUpdated)).toBeTruthy();
  });

  it('creates an access token and shows its secret once; revokes one after confirming', async () => {
    let tokens: AccessToken[] = [];
    const { calls } = signedInApi({
      'GET /api/platform/profile': () => json(200, profile()),
      'GET /api/platform/profile/access-tokens': () => json(200, { tokens }),
      'POST /api/platform/profile/access-tokens': () => {
        tokens = [token];
        return json(201, { token, secret: 'dash_pat_ab12-secret' });
      },
      [`DELETE /api/platform/profile/access-tokens/${token.id}`]: () => {
        tokens = [];
        return json(200, { ok: true });
      },
    });
    shell = renderShell('/account/tokens');
    expect(await screen.findByText(AccountMessages.noAccessTokens)).toBeTruthy();

    fireEvent.click(screen.getAllByRole('button', { name: 'Generate new token' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Generate new token' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    });
    expect(await within(dialog).findByText(AccountMessages.tokenNameRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'CI deploys' } });
    fireEvent.change(within(dialog).getByLabelText('Expires in'), { target: { value: 'never' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'CI deploys', expires_in_days: null });
    const shown = await screen.findByRole('dialog', { name: 'Your new access token' });
    expect((within(shown).getByLabelText('New access token') as HTMLInputElement).value).toBe('dash_pat_ab12-secret');
    expect(within(shown).getByText(AccountMessages.copyTokenNow)).toBeTruthy();
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));

    const table = await screen.findByRole('table', { name: 'Access tokens' });
    expect(within(table).getByText('CI deploys')).toBeTruthy();
    expect(within(table).getByText('dash_pat_ab12…')).toBeTruthy();
    expect(screen.queryByText('dash_pat_ab12-secret')).toBeNull();

    fireEvent.click(within(table).getByRole('button', { name: 'Revoke CI deploys' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke access token CI deploys' });
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    });
    expect(await screen.findByText(AccountMessages.tokenRevoked('CI deploys'))).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith(token.id))).toBe(true);
  });

  it('enrols an authenticator app: QR code and key, a code, then the recovery codes', async () => {
    const factor = { id: '0b7f7c56-8d5e-4f0a-9f43-0f6d2e1c8a11', factor_type: 'totp', friendly_name: 'Authenticator app', created_at: '2026-01-02T10:00:00.000Z' };
    let status: 'none' | 'unverified' | 'verified' = 'none';
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
    const { calls } = signedInApi({
      'GET /api/platform/profile': () => json(200, profile()),
      'GET /api/platform/profile/mfa/factors': () =>
        json(200, { factors: status === 'none' ? [] : [{ ...factor, status }], recovery_codes_remaining: status === 'verified' ? 10 : 0 }),
      'POST /api/platform/profile/mfa/factors': () => {
        status = 'unverified';
        return json(201, { factor: { ...factor, status }, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Dash:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Dash' });
      },
      [`POST /api/platform/profile/mfa/factors/${factor.id}/verify`]: () => {
        status = 'verified';
        return json(200, { factor: { ...factor, status }, recovery_codes: codes });
      },
    });
    shell = renderShell('/account/security');
    const add = await screen.findByRole('button', { name: 'Add authenticator app' });
    await act(async () => {
      fireEvent.click(add);
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add an authenticator app' });
    const qr = await within(dialog).findByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(within(dialog).getByLabelText('Setup key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verify and enable' }));
    });
    expect(calls.find((c) => c.path.endsWith('/verify'))?.body).toEqual({ code: '123456' });
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(within(within(saved).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes);
    fireEvent.click(within(saved).getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('Enabled')).toBeTruthy();
    expect(screen.getByText(/10 of 10 recovery codes left/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy();
  });
});
