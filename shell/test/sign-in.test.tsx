import { act, fireEvent, screen, within } from '@testing-library/react';
import { ServiceMessages } from '@dash/contracts';
import { TESTIMONIALS } from '../src/pages/testimonials';
import { cleanupApi, dashConfig, json, mockFetch, project, renderShell, user } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

const noSession = () => json(401, { statusCode: 401, error: 'Unauthorized', message: ServiceMessages.signInRequired });

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

async function fillAndSubmit(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  });
}

describe('sign-in page', () => {
  it('shows the frame: title, form, a random testimonial, terms and privacy links', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    mockFetch({ 'GET /api/platform/auth/session': noSession });
    shell = renderShell('/sign-in');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();

    const aside = screen.getByRole('complementary', { name: 'What our users say' });
    const quote = TESTIMONIALS[2]!; // floor(0.5 * 5)
    expect(within(aside).getByText(quote.text)).toBeTruthy();
    expect(within(aside).getByRole('link', { name: quote.handle }).getAttribute('href')).toBe(quote.url);
    expect(within(aside).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(within(aside).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
  });

  it('always shows one of the testimonials', async () => {
    mockFetch({ 'GET /api/platform/auth/session': noSession });
    shell = renderShell('/sign-in');
    const aside = await screen.findByRole('complementary', { name: 'What our users say' });
    expect(TESTIMONIALS.some((t) => within(aside).queryByText(t.text))).toBe(true);
  });

  it('signs in with email and password and goes to the projects page', async () => {
    let signedIn = false;
    const { calls } = mockFetch({
      'GET /api/platform/auth/session': () => (signedIn ? json(200, { user }) : noSession()),
      'POST /api/platform/auth/sign-in': () => {
        signedIn = true;
        return json(200, { user });
      },
      'GET /api/platform/projects': () => json(200, { projects: [project] }),
      'GET /api/platform/config': () => json(200, dashConfig()),
    });
    shell = renderShell('/sign-in');

    await fillAndSubmit('ada@example.com', 'correct horse');

    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/platform/auth/sign-in',
      body: { email: 'ada@example.com', password: 'correct horse' },
    });
    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeTruthy();
    expect(shell.location()).toBe('/projects');
    expect(await screen.findByText('Billing API')).toBeTruthy();
  });

  it("shows the service's message when sign-in answers 401 and stays on the page", async () => {
    mockFetch({
      'GET /api/platform/auth/session': noSession,
      'POST /api/platform/auth/sign-in': () =>
        json(401, { statusCode: 401, error: 'Unauthorized', message: ServiceMessages.invalidCredentials }),
    });
    shell = renderShell('/sign-in');

    await fillAndSubmit('ada@example.com', 'wrong');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
    expect(shell.location()).toBe('/sign-in');
    const button = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
  });

  it('shows a busy button while signing in', async () => {
    let answer!: (response: Response) => void;
    mockFetch({
      'GET /api/platform/auth/session': noSession,
      'POST /api/platform/auth/sign-in': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    shell = renderShell('/sign-in');
    await fillAndSubmit('ada@example.com', 'pw');
    const button = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.disabled).toBe(true);
    await act(async () => answer(json(429, { statusCode: 429, error: 'Too Many Requests', message: ServiceMessages.tooManySignIns })));
    expect((await screen.findByRole('alert')).textContent).toBe(ServiceMessages.tooManySignIns);
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('returns to returnTo after signing in, and skips the form when a session exists', async () => {
    mockFetch({ 'GET /api/platform/auth/session': () => json(200, { user }), 'GET /api/platform/projects': () => json(200, { projects: [] }) });
    shell = renderShell('/sign-in?returnTo=%2Fsupport%2Fnew');
    expect(await screen.findByRole('heading', { name: 'Submit a support request' })).toBeTruthy();
    expect(shell.location()).toBe('/support/new');
  });

  it('never returns to another site', async () => {
    mockFetch({ 'GET /api/platform/auth/session': () => json(200, { user }), 'GET /api/platform/projects': () => json(200, { projects: [] }), 'GET /api/platform/config': () => json(200, dashConfig()) });
    shell = renderShell('/sign-in?returnTo=%2F%2Fevil.example.com');
    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeTruthy();
    expect(shell.location()).toBe('/projects');
  });

  it('links to static terms and privacy pages', async () => {
    mockFetch({});
    shell = renderShell('/terms');
    // The page loads when first opened; until then the router shows that it is loading.
    expect(screen.getByRole('status').textContent).toBe('Loading page…');
    expect(await screen.findByRole('heading', { name: 'Terms of Service' })).toBeTruthy();
    await act(() => shell!.router.navigate('/privacy'));
    expect(await screen.findByRole('heading', { name: 'Privacy Policy' })).toBeTruthy();
  });
});
