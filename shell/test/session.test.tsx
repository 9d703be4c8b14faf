import { act, fireEvent, screen, within } from '@testing-library/react';
import { sessionExpired } from '@dash/shell-sdk';
import { ServiceMessages, type Project } from '@dash/contracts';
import { cleanupApi, dashConfig, json, mockFetch, project, remote, renderShell, signedInApi, user } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(() => new Promise(() => {})) }));

const unauthorized = () => json(401, { statusCode: 401, error: 'Unauthorized', message: ServiceMessages.signInRequired });

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

describe('session expiry', () => {
  it('sends the user to /sign-in with returnTo when a call answers 401', async () => {
    mockFetch({ 'GET /api/platform/auth/session': unauthorized, 'GET /api/platform/projects': unauthorized });
    shell = renderShell('/projects');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(shell.location()).toBe('/sign-in?returnTo=%2Fprojects');
  });

  it('keeps the full path, query included, of a project page', async () => {
    let expired = false;
    signedInApi({ 'GET /api/platform/auth/session': () => (expired ? unauthorized() : json(200, { user })) });
    shell = renderShell(`/project/${project.ref}/editor?schema=public`);
    expect(await screen.findByText('Billing API')).toBeTruthy();

    expired = true;
    await act(async () => {
      shell!.store.dispatch(sessionExpired());
    });
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(shell.location()).toBe(`/sign-in?returnTo=${encodeURIComponent(`/project/${project.ref}/editor?schema=public`)}`);
  });

  it('leaves public pages alone', async () => {
    mockFetch({});
    shell = renderShell('/support/new');
    await screen.findByRole('heading', { name: 'Submit a support request' });
    await act(async () => {
      shell!.store.dispatch(sessionExpired());
    });
    expect(shell.location()).toBe('/support/new');
  });
});

describe('projects page', () => {
  const second: Project = { ...project, id: 2, ref: 'xyz789', name: 'Analytics', status: 'COMING_UP', organization_name: 'Globex', role: 'read_only' };

  it('shows a card per project with name, ref, organization, role label and status; a card opens the table editor', async () => {
    signedInApi({ 'GET /api/platform/projects': () => json(200, { projects: [project, second] }) });
    shell = renderShell('/');

    const list = await screen.findByRole('list', { name: 'Projects' });
    expect(shell.location()).toBe('/projects');
    const cards = within(list).getAllByRole('link');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    for (const text of ['Billing API', 'abc123', 'Acme Corp', 'Developer', 'Healthy']) expect(within(first).getByText(text)).toBeTruthy();
    for (const text of ['Analytics', 'xyz789', 'Globex', 'Read-only', 'Coming up']) expect(within(cards[1]!).getByText(text)).toBeTruthy();
    expect(await screen.findByText(user.email)).toBeTruthy();

    fireEvent.click(first);
    expect(shell.location()).toBe('/project/abc123/editor');
  });

  it('opens the first area when the registry has no table editor', async () => {
    signedInApi();
    const registry = { schemaVersion: 1 as const, remotes: [remote({ name: 'mfe_logs', mount: 'logs', title: 'Logs' })] };
    shell = renderShell('/projects', { registry });
    const card = await screen.findByRole('link', { name: 'Open project Billing API' });
    expect(card.getAttribute('href')).toBe('/project/abc123');
  });

  it('shows an empty state', async () => {
    signedInApi({ 'GET /api/platform/projects': () => json(200, { projects: [] }) });
    shell = renderShell('/projects');
    expect(await screen.findByText('No projects yet')).toBeTruthy();
  });

  it('shows a loading state, then a full-page error when the list fails', async () => {
    let answer!: (response: Response) => void;
    mockFetch({
      'GET /api/platform/auth/session': () => json(200, { user }),
      'GET /api/platform/projects': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/platform/config': () => json(200, dashConfig()),
    });
    shell = renderShell('/projects');
    expect(await screen.findByText(/Loading projects/)).toBeTruthy();

    await act(async () => answer(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' })));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('500');
    expect(screen.getByText('Database unavailable')).toBeTruthy();
  });
});
