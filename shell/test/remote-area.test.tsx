import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router-dom';
import { SDK_VERSION } from '@dash/shell-sdk';
import { loadManifest, loadRemote, registerRemotes } from '../src/federation/loader';
import { clearRemoteModuleCache } from '../src/federation/remoteModules';
import { cleanupApi, json, project, registry, remote, renderShell, signedInApi } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedLoadManifest = loadManifest as jest.MockedFunction<typeof loadManifest>;
/** A Module Federation manifest whose remote declares `range` for the SDK core. */
const manifestNeeding = (range: string) => ({ name: 'mfe_table_editor', shared: [{ name: '@dash/shell-sdk', requiredVersion: range, singleton: true }] });

function TableEditorRoutes() {
  const { ref } = useParams();
  return (
    <Routes>
      <Route index element={<p>Tables of {ref}</p>} />
      <Route path=":tableId" element={<p>One table</p>} />
    </Routes>
  );
}

const goodModule = (routes: unknown = TableEditorRoutes) => ({
  default: { contractVersion: 1, name: 'mfe_table_editor', routes },
});

let shell: ReturnType<typeof renderShell> | undefined;

beforeEach(() => {
  jest.clearAllMocks();
  clearRemoteModuleCache();
  signedInApi();
  // React logs every error an error boundary catches; these tests cause them on purpose.
  const original = console.error;
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' ');
    if (/RemoteLoadError|RemoteContractError|RemoteNeedsNewerShellError|reading "columns"|The above error occurred/.test(text)) return;
    original(...args);
  });
});
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

/** A click that makes a component suspend: let React see the promise settle inside the same act scope. */
async function clickAndSettle(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

function areaOf(name: string) {
  const area = document.querySelector<HTMLElement>(`[data-remote="${name}"]`);
  if (!area) throw new Error(`no area for ${name}`);
  return area;
}

describe('RemoteArea', () => {
  it("loads the remote's module on first visit and renders its routes inside the project frame", async () => {
    mockedLoadRemote.mockResolvedValue(goodModule());
    shell = renderShell(`/project/${project.ref}/editor`);

    expect(await screen.findByText(`Tables of ${project.ref}`)).toBeTruthy();
    expect(mockedLoadRemote).toHaveBeenCalledWith('mfe_table_editor/module');
    const area = areaOf('mfe_table_editor');
    expect(area.getAttribute('data-remote-version')).toBe('1.2.0');

    // The frame: breadcrumb from getProject, the user's email, one menu item per registry remote.
    expect(await screen.findByText('Acme Corp')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Billing API' })).toBeTruthy();
    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    const menu = screen.getByRole('complementary', { name: 'Project menu' });
    const items = within(menu).getAllByRole('link');
    expect(items.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Table Editor', `/project/${project.ref}/editor`],
      ['Logs', `/project/${project.ref}/logs`],
      ['Project Settings', `/project/${project.ref}/settings`],
    ]);
    expect(items[0]!.getAttribute('aria-current')).toBe('page');
    expect(items[1]!.getAttribute('aria-current')).toBeNull();

    // Descendant routes of the remote; the module is loaded once.
    await act(() => shell!.router.navigate(`/project/${project.ref}/editor/42`));
    expect(await screen.findByText('One table')).toBeTruthy();
    expect(mockedLoadRemote).toHaveBeenCalledTimes(1);
  });

  it('redirects the project index to the first registry remote', async () => {
    mockedLoadRemote.mockResolvedValue(goodModule());
    shell = renderShell(`/project/${project.ref}`);
    expect(await screen.findByText(`Tables of ${project.ref}`)).toBeTruthy();
    expect(shell.location()).toBe(`/project/${project.ref}/editor`);
  });

  it('loads a v2 remote serving two areas: its own one with the menu it declares, and a page inside the project settings', async () => {
    function StorageRoutes() {
      return (
        <Routes>
          <Route path="buckets" element={<p>Buckets page</p>} />
          <Route path="policies" element={<p>Storage policies page</p>} />
        </Routes>
      );
    }
    const StorageSettings = () => <p>Upload limit form</p>;
    const RunTimeEntries = () => <p>Run-time entries</p>;
    const storage = remote({
      name: 'mfe_storage',
      contract: 2,
      mount: 'storage',
      title: 'Storage',
      areas: [
        { mount: 'storage', title: 'Storage', permission: 'project_storage_all' },
        { mount: 'settings/storage', title: 'Storage', permission: 'project_storage_all', hostedOnly: true },
      ],
    });
    mockedLoadRemote.mockResolvedValue({
      default: {
        contractVersion: 2,
        name: 'mfe_storage',
        areas: [
          {
            mount: 'storage',
            title: 'Storage',
            routes: StorageRoutes,
            menuExtra: RunTimeEntries,
            menu: [
              { title: 'Manage', items: [{ label: 'Buckets', path: 'buckets' }, { label: 'Policies', path: 'policies' }] },
              { title: 'Labs', items: [{ label: 'Analytics buckets', path: 'analytics', badge: 'ALPHA', featureFlag: 'warehouse' }, { label: 'Hosted only', path: 'hosted', hostedOnly: true, badge: 'BETA' }] },
            ],
          },
          { mount: 'settings/storage', title: 'Storage', routes: StorageSettings },
        ],
      },
    });
    shell = renderShell(`/project/${project.ref}/storage/buckets`, { registry: { schemaVersion: 1, remotes: [storage] } });

    expect(await screen.findByText('Buckets page')).toBeTruthy();
    const areaMenu = screen.getByRole('complementary', { name: 'Storage menu' });
    // The warehouse flag is off: its item is hidden; the hosted-only item shows with its badge.
    expect(within(areaMenu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Buckets', `/project/${project.ref}/storage/buckets`],
      ['Policies', `/project/${project.ref}/storage/policies`],
      ['Hosted onlyBETA', `/project/${project.ref}/storage/hosted`],
    ]);
    // The area's `menuExtra` is drawn inside its menu, below the declared sections.
    expect(areaMenu.lastElementChild?.textContent).toBe('Run-time entries');
    // The sub-area shows in the project settings, not in the project menu.
    const menu = screen.getByRole('complementary', { name: 'Project menu' });
    expect(within(menu).getAllByRole('link').map((a) => a.textContent)).toEqual(['Storage', 'Project Settings']);

    await act(() => shell!.router.navigate(`/project/${project.ref}/settings/storage`));
    expect(await screen.findByText('Upload limit form')).toBeTruthy();
    const settingsMenu = screen.getByRole('complementary', { name: 'Project Settings menu' });
    expect(within(settingsMenu).getByRole('link', { name: 'Storage' }).getAttribute('href')).toBe(`/project/${project.ref}/settings/storage`);
    expect(mockedLoadRemote).toHaveBeenCalledTimes(1);
  });

  it('shows the error panel with Retry when loading fails, and Retry re-registers the remote and loads again', async () => {
    mockedLoadRemote.mockRejectedValueOnce(new Error('Failed to fetch http://127.0.0.1:4101/v/1.2.0/mf-manifest.json'));
    shell = renderShell(`/project/${project.ref}/editor`);

    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText('Failed to load Table Editor')).toBeTruthy();
    expect(within(panel).getByText(/Failed to fetch http:\/\/127\.0\.0\.1:4101/)).toBeTruthy();
    // Only the area failed: the frame is intact.
    expect(screen.getByRole('link', { name: 'Logs' })).toBeTruthy();
    expect(areaOf('mfe_table_editor').contains(panel)).toBe(true);
    expect(registerRemotes).not.toHaveBeenCalled();

    mockedLoadRemote.mockResolvedValueOnce(goodModule());
    await clickAndSettle(within(panel).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText(`Tables of ${project.ref}`)).toBeTruthy();
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mfe_table_editor', entry: registry.remotes[0]!.entry }], { force: true });
    expect(mockedLoadRemote).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses a module that breaks the contract and lists the problems', async () => {
    mockedLoadRemote.mockResolvedValue({ default: { contractVersion: 1, name: 'mfe_other', routes: 'not a component' } });
    shell = renderShell(`/project/${project.ref}/editor`);

    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText('Failed to load Table Editor')).toBeTruthy();
    const message = within(panel).getByText(/does not satisfy the remote contract/).textContent ?? '';
    expect(message).toContain('name is mfe_other, the registry says mfe_table_editor');
    expect(message).toContain('routes is not a React component');
    expect(within(panel).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it("does not run a remote built for a newer SDK core: the panel says it needs a newer dashboard, without Retry", async () => {
    const [major, minor] = SDK_VERSION.split('.').map(Number);
    mockedLoadManifest.mockResolvedValue(manifestNeeding(`^${major}.${minor! + 1}.0`));
    shell = renderShell(`/project/${project.ref}/editor`);

    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText('Table Editor needs a newer dashboard')).toBeTruthy();
    expect(
      within(panel).getByText(
        `This area was built for dashboard SDK ^${major}.${minor! + 1}.0; this dashboard provides ${SDK_VERSION}. It will open after the dashboard is updated: reload the page then.`,
      ),
    ).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(mockedLoadManifest).toHaveBeenCalledWith(registry.remotes[0]!.entry);
    expect(mockedLoadRemote).not.toHaveBeenCalled();
    // The menu still works around it.
    expect(screen.getByRole('link', { name: 'Logs' })).toBeTruthy();
  });

  it('runs a remote whose SDK range this shell satisfies (older remotes included)', async () => {
    mockedLoadManifest.mockResolvedValue(manifestNeeding(`^${SDK_VERSION.split('.')[0]}.0.0`));
    mockedLoadRemote.mockResolvedValue(goodModule());
    shell = renderShell(`/project/${project.ref}/editor`);
    expect(await screen.findByText(`Tables of ${project.ref}`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not run a remote the registry lists for another contract version', async () => {
    const other = { schemaVersion: 1 as const, remotes: [remote({ contract: 3 })] };
    shell = renderShell(`/project/${project.ref}/editor`, { registry: other });
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText(/the registry lists contract 3, the shell loads 1 and 2/)).toBeTruthy();
    expect(mockedLoadRemote).not.toHaveBeenCalled();
  });

  it('contains a remote that throws while rendering: panel in the area, menu and top bar still work', async () => {
    let crash = true;
    function Crashing(): never | React.JSX.Element {
      if (crash) throw new Error('Cannot read properties of undefined (reading "columns")');
      return <p>Recovered</p>;
    }
    mockedLoadRemote.mockResolvedValue(goodModule(Crashing));
    shell = renderShell(`/project/${project.ref}/editor`);

    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText('Table Editor failed')).toBeTruthy();
    expect(within(panel).getByText(/reading "columns"/)).toBeTruthy();
    expect(areaOf('mfe_table_editor').contains(panel)).toBe(true);
    expect(screen.getByRole('complementary', { name: 'Project menu' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Logs' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();

    // Retry renders the loaded module again; it is not fetched again.
    crash = false;
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Recovered')).toBeTruthy();
    expect(mockedLoadRemote).toHaveBeenCalledTimes(1);
    expect(registerRemotes).not.toHaveBeenCalled();
  });

  it('keeps areas apart: a failed area does not affect another one', async () => {
    mockedLoadRemote.mockImplementation(async (id) => {
      if (id === 'mfe_logs/module') throw new Error('logs are down');
      return goodModule();
    });
    shell = renderShell(`/project/${project.ref}/logs`);
    expect(await screen.findByText('Failed to load Logs')).toBeTruthy();

    await clickAndSettle(screen.getByRole('link', { name: 'Table Editor' }));
    expect(await screen.findByText(`Tables of ${project.ref}`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(areaOf('mfe_table_editor')).toBeTruthy();
  });

  it('shows a full-page 404 for an unknown project', async () => {
    signedInApi({ 'GET /api/platform/projects/nope': () => json(404, { statusCode: 404, error: 'Not Found', message: 'Project not found' }) });
    shell = renderShell('/project/nope/editor');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('404');
    expect(screen.getByText('Project not found')).toBeTruthy();
    expect(mockedLoadRemote).not.toHaveBeenCalled();
  });

  it('shows a full-page 404 for a path no remote is mounted at', async () => {
    shell = renderShell(`/project/${project.ref}/nowhere`);
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('404');
  });
});
