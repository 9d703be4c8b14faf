import { screen, waitFor } from '@testing-library/react';
import { Messages } from '@dash/contracts';
import { cleanupApi, json, project, registry, renderShell, signedInApi } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

afterEach(() => jest.restoreAllMocks());

// A blip of the services or their database (Postgres restarting) must not leave a dead page: the shell
// says what is missing while it lasts and the page recovers by itself.

describe('the registry at boot', () => {
  it('tries again by itself while the registry cannot be fetched, and shows the page once it can', async () => {
    let tries = 0;
    signedInApi({ 'GET /registry.json': () => (++tries < 2 ? json(502, { message: 'The platform service is unavailable' }) : json(200, registry)) });
    const shell = renderShell('/projects', { registry: null });
    expect((await screen.findByTestId('error-code')).textContent).toBe('REGISTRY_UNAVAILABLE');
    expect(screen.getByText(Messages.retryingAutomatically)).toBeTruthy();
    // The next try, a second later, gets the registry: the page the user asked for appears.
    expect(await screen.findByText(project.name, undefined, { timeout: 5_000 })).toBeTruthy();
    expect(tries).toBe(2);
    await cleanupApi(shell.store);
  });

  it('does not retry an invalid registry (a deployment mistake) and does not say it will', async () => {
    let tries = 0;
    signedInApi({ 'GET /registry.json': () => (++tries, json(200, { schemaVersion: 1, remotes: [{ name: 'Bad Name' }] })) });
    const shell = renderShell('/projects', { registry: null });
    expect((await screen.findByTestId('error-code')).textContent).toBe('REGISTRY_INVALID');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(tries).toBe(1);
    expect(screen.queryByText(Messages.retryingAutomatically)).toBeNull();
    await cleanupApi(shell.store);
  });
});

describe('the connection banner', () => {
  it('shows what is missing while /health is not ready, then hides and refetches the failed page data', async () => {
    let healthy = false;
    let projectCalls = 0;
    signedInApi({
      'GET /api/platform/projects': () => (++projectCalls, healthy ? json(200, { projects: [project] }) : json(503, { message: 'The database is unavailable (it may be restarting)' })),
      'GET /health': () => (healthy ? json(200, { status: 'ok', services: {}, missing: [] }) : json(503, { status: 'degraded', services: {}, missing: ['platform: postgres'], message: 'Not ready: postgres (platform) is unavailable' })),
    });
    const shell = renderShell('/projects');
    expect(await screen.findByText(Messages.reconnecting)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Not ready: postgres (platform) is unavailable');
    expect(screen.queryByText(project.name)).toBeNull();

    healthy = true;
    // The next /health check finds the services ready: the banner goes and the projects list is fetched again.
    expect(await screen.findByText(project.name, undefined, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(Messages.reconnecting)).toBeNull());
    expect(projectCalls).toBeGreaterThanOrEqual(2);
    await cleanupApi(shell.store);
  });

  it('shows nothing when a call fails for a reason of its own and /health is ready', async () => {
    let healthChecks = 0;
    signedInApi({
      'GET /api/platform/projects': () => json(503, { message: 'Project is paused' }),
      'GET /health': () => (++healthChecks, json(200, { status: 'ok', services: {}, missing: [] })),
    });
    const shell = renderShell('/projects');
    await waitFor(() => expect(healthChecks).toBeGreaterThanOrEqual(1));
    expect(screen.queryByText(Messages.reconnecting)).toBeNull();
    await cleanupApi(shell.store);
  });
});
