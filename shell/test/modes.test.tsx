import { screen, waitFor } from '@testing-library/react';
import { INCIDENT_BANNER_TEXT } from '@dash/contracts';
import { loadRemote } from '../src/federation/loader';
import { cleanupApi, dashConfig, flagsOff, json, project, renderShell, signedInApi } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

const selfHosted = () => signedInApi({ 'GET /api/platform/config': () => json(200, dashConfig({ mode: 'self-hosted' })) });

describe('hosted and self-hosted', () => {
  beforeEach(() => {
    (loadRemote as jest.Mock).mockResolvedValue({ default: { contractVersion: 1, name: 'mfe_table_editor', routes: () => <p>Tables</p> } });
  });

  it('hosted: the account menu links to the preferences, and the settings show', async () => {
    signedInApi();
    shell = renderShell(`/project/${project.ref}/editor`);
    expect((await screen.findByRole('link', { name: 'Account' })).getAttribute('href')).toBe('/account/me');
    expect(screen.getByRole('link', { name: 'Project Settings' })).toBeTruthy();
  });

  it('self-hosted: no account menu and no Project Settings item', async () => {
    selfHosted();
    shell = renderShell(`/project/${project.ref}/editor`);
    expect(await screen.findByText('Tables')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Project Settings' })).toBeNull());
    expect(screen.queryByRole('link', { name: 'Account' })).toBeNull();
    expect(await screen.findByText('ada@example.com')).toBeTruthy();
  });

  it('self-hosted: the projects list and the settings pages send the user to the one project', async () => {
    selfHosted();
    shell = renderShell('/projects');
    await waitFor(() => expect(shell!.location()).toBe('/project/default'));
    await cleanupApi(shell.store);
    shell.unmount();

    selfHosted();
    shell = renderShell(`/project/${project.ref}/settings/general`);
    await waitFor(() => expect(shell!.location()).toBe('/project/default'));
  });

  it('shows the incident banner while the ongoingIncident flag is on', async () => {
    signedInApi({ 'GET /api/platform/config': () => json(200, dashConfig({ flags: { ...flagsOff, ongoingIncident: true } })) });
    shell = renderShell(`/project/${project.ref}/editor`);
    expect(await screen.findByText(INCIDENT_BANNER_TEXT)).toBeTruthy();
  });

  it('treats an unreadable configuration as hosted with every flag off rather than blocking the page', async () => {
    signedInApi({ 'GET /api/platform/config': () => json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }) });
    shell = renderShell('/projects');
    expect(await screen.findByRole('heading', { name: 'Projects' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText(INCIDENT_BANNER_TEXT)).toBeNull();
  });
});
