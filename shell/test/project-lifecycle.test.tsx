import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ConfirmProvider, Toaster } from '@dash/shell-sdk';
import {
  Messages,
  ProjectMessages,
  ProjectSettingsMessages,
  ROLE_PERMISSIONS,
  type OrgRole,
  type Organization,
  type Project,
  type ProjectLifecycle,
} from '@dash/contracts';
import { BuildingPage } from '../src/projects/BuildingPage';
import { GeneralSettingsPage } from '../src/projects/GeneralSettingsPage';
import { InfrastructurePage } from '../src/projects/InfrastructurePage';
import { ProjectStatusBanner } from '../src/projects/ProjectStatusBanner';
import { createShellStore } from '../src/store';
import { cleanupApi, json, mockFetch, project, renderShell, signedInApi } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

const REF = project.ref;
const acme: Organization = { id: 1, slug: 'acme', name: 'Acme Corp', role: 'owner' };
const guests: Organization = { id: 2, slug: 'guests', name: 'Guest House', role: 'developer' };
const lifecycle = (overrides: Partial<ProjectLifecycle> = {}): ProjectLifecycle => ({
  ref: REF,
  name: project.name,
  status: 'ACTIVE_HEALTHY',
  provisioning: { step: 'ready', error: null, attempts: 1 },
  paused_at: null,
  ...overrides,
});
const permissions = (role: OrgRole) => () => json(200, { role, permissions: ROLE_PERMISSIONS[role] });

let store: ReturnType<typeof createShellStore> | undefined;
afterEach(async () => {
  if (store) await cleanupApi(store);
  store = undefined;
  jest.restoreAllMocks();
  jest.useRealTimers();
});

/** The button once the member's permissions have loaded (until then it is disabled, inside a tooltip). */
async function enabledButton(name: string): Promise<HTMLButtonElement> {
  await waitFor(() => expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(false));
  return screen.getByRole('button', { name }) as HTMLButtonElement;
}

/** One of the project pages under `/project/:ref/<path>`, as the lead mounts them, with the store, confirmations and toasts. */
function renderProjectPage(path: string, element: ReactElement) {
  store = createShellStore();
  const router = createMemoryRouter(
    [
      { path: `/project/:ref/${path}`, element },
      { path: '/project/:ref', element: <p>Project home</p> },
      { path: '/project/:ref/*', element: <p>Another project page</p> },
      { path: '/projects', element: <p>Projects page</p> },
    ],
    { initialEntries: [`/project/${REF}/${path}`] },
  );
  render(
    <Provider store={store}>
      <ConfirmProvider>
        <RouterProvider router={router} />
        <Toaster />
      </ConfirmProvider>
    </Provider>,
  );
  return { location: () => router.state.location.pathname };
}

describe('new project page', () => {
  let shell: ReturnType<typeof renderShell> | undefined;
  afterEach(async () => {
    if (shell) await cleanupApi(shell.store);
    shell = undefined;
  });

  it('offers the organizations the user may create projects in, checks the form and creates the project', async () => {
    const created: Project = { ...project, ref: 'abcdefghijklmnopqrst', name: 'Orders', status: 'COMING_UP', role: 'owner' };
    const { calls } = signedInApi({
      'GET /api/platform/organizations': () => json(200, { organizations: [acme, guests] }),
      'POST /api/platform/projects': () => json(201, created),
    });
    shell = renderShell('/new/acme');

    const organization = await screen.findByLabelText('Organization');
    expect(within(organization).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme Corp']);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create new project' }));
    });
    expect(screen.getByText(ProjectMessages.nameRequired)).toBeTruthy();
    expect(screen.getByText(ProjectMessages.passwordRequired)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'Orders' } });
    fireEvent.change(screen.getByLabelText('Database password'), { target: { value: 'short' } });
    expect(screen.getByText(ProjectSettingsMessages.passwordTooShort)).toBeTruthy();
    expect(screen.getByText('Strength: Weak')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Database password'), { target: { value: 'lowercaseonlypassword' } });
    expect(screen.getByText(ProjectMessages.passwordTooSimple)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Generate a password' }));
    const password = (screen.getByLabelText('Database password') as HTMLInputElement).value;
    expect(password).toHaveLength(24);
    expect(screen.getByText('Strength: Strong')).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create new project' }));
    });
    await waitFor(() => expect(shell!.location()).toBe('/project/abcdefghijklmnopqrst/building'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/platform/projects')!.body).toEqual({
      name: 'Orders',
      organization_slug: 'acme',
      db_pass: password,
    });
    expect(await screen.findByText(ProjectMessages.projectCreated('Orders'))).toBeTruthy();
  });

  it('shows the service’s refusal in the form', async () => {
    signedInApi({
      'GET /api/platform/organizations': () => json(200, { organizations: [acme] }),
      'POST /api/platform/projects': () => json(400, { statusCode: 400, error: 'Bad Request', message: ProjectMessages.nameTooLong }),
    });
    shell = renderShell('/new/acme');
    fireEvent.change(await screen.findByLabelText('Project name'), { target: { value: 'Orders' } });
    fireEvent.change(screen.getByLabelText('Database password'), { target: { value: 'Correct-Horse-42-Battery' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create new project' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe(ProjectMessages.createFailed(ProjectMessages.nameTooLong));
    expect(shell.location()).toBe('/new/acme');
  });

  it('goes to an organization the user may create in', async () => {
    signedInApi({ 'GET /api/platform/organizations': () => json(200, { organizations: [guests, acme] }) });
    shell = renderShell('/new/guests');
    await waitFor(() => expect(shell!.location()).toBe('/new/acme'));
  });

  it('explains when the user may create projects in no organization', async () => {
    signedInApi({ 'GET /api/platform/organizations': () => json(200, { organizations: [guests] }) });
    shell = renderShell('/new/guests');
    expect(await screen.findByText('You need additional permissions')).toBeTruthy();
    expect(screen.queryByLabelText('Project name')).toBeNull();
  });

  it('puts a New project button on the projects page for owners and administrators, and sends COMING_UP cards to their progress', async () => {
    signedInApi({
      'GET /api/platform/organizations': () => json(200, { organizations: [guests, acme] }),
      'GET /api/platform/projects': () => json(200, { projects: [{ ...project, status: 'COMING_UP' }] }),
    });
    shell = renderShell('/projects');
    expect((await screen.findByRole('link', { name: 'New project' })).getAttribute('href')).toBe('/new/acme');
    const card = screen.getByRole('link', { name: `Open project ${project.name}` });
    expect(card.getAttribute('href')).toBe(`/project/${REF}/building`);
    expect(within(card).getByText('Coming up')).toBeTruthy();
  });
});

describe('building page', () => {
  it('shows the steps while the project comes up, then moves on to the project', async () => {
    let answer = lifecycle({ status: 'COMING_UP', provisioning: { step: 'creating_database', error: null, attempts: 1 } });
    mockFetch({
      [`GET /api/platform/projects/${REF}/lifecycle`]: () => json(200, answer),
      [`GET /api/platform/projects/${REF}/permissions`]: permissions('owner'),
    });
    const page = renderProjectPage('building', <BuildingPage />);
    const steps = await screen.findByRole('list', { name: 'Progress' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '✓Project requestedDone',
      'Creating the databaseIn progress',
      'Setting up roles, auth and storage',
      'Project is ready',
    ]);
    answer = lifecycle();
    await waitFor(() => expect(page.location()).toBe(`/project/${REF}`), { timeout: 4000 });
  });

  it('shows a failure and lets an owner try again', async () => {
    const failed = lifecycle({ status: 'COMING_UP', provisioning: { step: 'configuring', error: 'connection refused', attempts: 2 } });
    const { calls } = mockFetch({
      [`GET /api/platform/projects/${REF}/lifecycle`]: () => json(200, failed),
      [`GET /api/platform/projects/${REF}/permissions`]: permissions('owner'),
      [`POST /api/platform/projects/${REF}/provisioning/retry`]: () => json(200, failed),
    });
    renderProjectPage('building', <BuildingPage />);
    expect(await screen.findByText(ProjectMessages.provisioningFailed('connection refused'))).toBeTruthy();
    const reads = () => calls.filter((c) => c.path === `/api/platform/projects/${REF}/lifecycle`).length;
    const before = reads();
    await act(async () => {
      fireEvent.click(await enabledButton('Try again now'));
    });
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/platform/projects/${REF}/provisioning/retry`)).toBe(true);
    // The retry makes the page read the progress again at once.
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again now' }).getAttribute('aria-busy')).toBeNull());
  });
});

describe('general settings', () => {
  const api = (role: OrgRole, current: Project = { ...project, role }, extra: Parameters<typeof mockFetch>[0] = {}) =>
    mockFetch({
      [`GET /api/platform/projects/${REF}`]: () => json(200, current),
      [`GET /api/platform/projects/${REF}/lifecycle`]: () => json(200, lifecycle({ status: current.status, name: current.name })),
      [`GET /api/platform/projects/${REF}/permissions`]: permissions(role),
      ...extra,
    });

  it('shows the name, ref and status, and renames the project', async () => {
    const { calls } = api('owner', { ...project, role: 'owner' }, {
      [`PATCH /api/platform/projects/${REF}`]: () => json(200, { ...project, name: 'Billing' }),
    });
    renderProjectPage('settings/general', <GeneralSettingsPage />);
    const name = (await screen.findByLabelText('Project name')) as HTMLInputElement;
    expect(name.value).toBe(project.name);
    expect((screen.getByLabelText('Project ref') as HTMLInputElement).value).toBe(REF);
    expect(screen.getByText('Healthy')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Billing' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ name: 'Billing' });
    expect(await screen.findByText(ProjectMessages.projectRenamedToast)).toBeTruthy();
  });

  it('pauses after a confirmation', async () => {
    const { calls } = api('administrator', { ...project, role: 'administrator' }, {
      [`POST /api/platform/projects/${REF}/pause`]: () => json(200, { ...project, status: 'INACTIVE' }),
    });
    renderProjectPage('settings/general', <GeneralSettingsPage />);
    fireEvent.click(await enabledButton('Pause project'));
    const dialog = await screen.findByRole('dialog', { name: ProjectMessages.confirmPauseTitle(project.name) });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Pause project' }));
    });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/pause'))).toBe(true));
    expect(await screen.findByText(ProjectMessages.projectPausedToast(project.name))).toBeTruthy();
  });

  it('deletes only once the ref is typed, then goes to the projects page', async () => {
    const { calls } = api('owner', { ...project, role: 'owner' }, {
      [`DELETE /api/platform/projects/${REF}`]: () => json(200, { ok: true }),
    });
    const page = renderProjectPage('settings/general', <GeneralSettingsPage />);
    fireEvent.click(await enabledButton('Delete project'));
    const dialog = await screen.findByRole('dialog', { name: ProjectMessages.confirmDeleteTitle(project.name) });
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: project.name } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    });
    expect(within(dialog).getByText(Messages.valueDoesNotMatch)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: REF } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    });
    await waitFor(() => expect(page.location()).toBe('/projects'));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    // The platform deletes only when the request names the project.
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({ name: project.name });
  });

  it('disables the lifecycle actions for developers, with the reason', async () => {
    api('developer');
    renderProjectPage('settings/general', <GeneralSettingsPage />);
    await screen.findByLabelText('Project name');
    await waitFor(() => expect((screen.getByLabelText('Project name') as HTMLInputElement).disabled).toBe(true));
    for (const name of ['Pause project', 'Delete project']) expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('infrastructure', () => {
  it('shows the Postgres version and database size', async () => {
    mockFetch({
      [`GET /api/platform/projects/${REF}`]: () => json(200, project),
      [`GET /api/platform/projects/${REF}/infrastructure`]: () => json(200, { postgres_version: '17.5', database_size_bytes: 7_884_800 }),
    });
    renderProjectPage('settings/infrastructure', <InfrastructurePage />);
    expect(await screen.findByText('17.5')).toBeTruthy();
    expect(screen.getByText('7.52 MB')).toBeTruthy();
  });

  it('says a paused project has nothing to read, without asking', async () => {
    const { calls } = mockFetch({ [`GET /api/platform/projects/${REF}`]: () => json(200, { ...project, status: 'INACTIVE' }) });
    renderProjectPage('settings/infrastructure', <InfrastructurePage />);
    expect(await screen.findByText(ProjectMessages.infrastructureUnavailable)).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/infrastructure'))).toBe(false);
  });

  it('sends a project that is coming up to its progress', async () => {
    mockFetch({ [`GET /api/platform/projects/${REF}`]: () => json(200, { ...project, status: 'COMING_UP' }) });
    const page = renderProjectPage('settings/infrastructure', <InfrastructurePage />);
    await waitFor(() => expect(page.location()).toBe(`/project/${REF}/building`));
  });
});

describe('project status banner', () => {
  it('says a paused project is paused and restores it', async () => {
    const { calls } = mockFetch({
      [`GET /api/platform/projects/${REF}/permissions`]: permissions('owner'),
      [`POST /api/platform/projects/${REF}/restore`]: () => json(200, project),
    });
    renderProjectPage('editor', <ProjectStatusBanner project={{ ...project, status: 'INACTIVE' }} />);
    expect((await screen.findByRole('status')).textContent).toContain(ProjectMessages.pausedBanner);
    await act(async () => {
      fireEvent.click(await enabledButton('Restore project'));
    });
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/restore'))).toBe(true);
    expect(await screen.findByText(ProjectMessages.projectRestoredToast(project.name))).toBeTruthy();
  });

  it('links a project coming up to its progress', async () => {
    mockFetch({});
    renderProjectPage('editor', <ProjectStatusBanner project={{ ...project, status: 'COMING_UP' }} />);
    expect(screen.getByRole('link', { name: 'View progress' }).getAttribute('href')).toBe(`/project/${REF}/building`);
  });

  it('leaves the link out on the progress page itself', async () => {
    mockFetch({});
    renderProjectPage('building', <ProjectStatusBanner project={{ ...project, status: 'COMING_UP' }} />);
    expect(screen.getByRole('status').textContent).toContain(ProjectMessages.comingUpBanner);
    expect(screen.queryByRole('link', { name: 'View progress' })).toBeNull();
  });

  it('renders nothing for an active project', () => {
    mockFetch({});
    renderProjectPage('editor', <ProjectStatusBanner project={project} />);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
