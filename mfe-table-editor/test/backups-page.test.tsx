import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import {
  BackupMessages,
  FEATURE_FLAGS,
  PitrMessages,
  type BackupList,
  type DashMode,
  type DatabaseBackup,
  type OrgRole,
  type PitrStatus,
  type ProjectAddons,
} from '@dash/contracts';
import { DatabaseRoutes } from '../src/database/DatabaseRoutes';
import { localInputValue } from '../src/database/pages/BackupsPage';

/*
 * Database → Backups: the list with each backup's kind, state and size, the Create button, the download
 * link and the restore dialog; what a member without the admin permission sees; the error state when no
 * pg_dump can run; which page the menu item opens with and without the point-in-time add-on.
 */

const LIST = 'GET /api/platform/projects/default/database/backups';
const backup = (over: Partial<DatabaseBackup>): DatabaseBackup => ({
  id: 1,
  created_at: '2026-11-27T09:30:00.000Z',
  completed_at: '2026-11-27T09:30:04.000Z',
  kind: 'scheduled',
  status: 'COMPLETED',
  size_bytes: 1536,
  error: null,
  recovery_target: null,
  ...over,
});
const listed = (backups: DatabaseBackup[], problem: string | null = null): BackupList => ({ backups, pg_dump: { version: problem ? null : '17.5', problem } });
const addons = (pitr: boolean): ProjectAddons => ({
  ref: 'default',
  selected_addons: pitr ? [{ type: 'pitr', variant: { identifier: 'pitr_14', name: '14 days', price: 200 } }] : [],
  available_addons: [],
  isFreeTier: false,
});

const PITR = 'GET /api/platform/projects/default/database/backups/pitr';
const HOUR = 60 * 60 * 1000;
/** Open from three hours ago to now, one base backup kept. */
const openWindow = (over: Partial<PitrStatus> = {}): PitrStatus => ({
  enabled: true,
  problem: null,
  retention_days: 14,
  earliest_recovery_time: new Date(Date.now() - 3 * HOUR).toISOString(),
  latest_recovery_time: new Date().toISOString(),
  base_backups: [{ completed_at: new Date(Date.now() - 3 * HOUR).toISOString(), size_bytes: 48 * 1024 * 1024 }],
  ...over,
});

function answers(options: { role?: OrgRole; mode?: DashMode; list?: BackupList; pitr?: boolean; extra?: Record<string, MockAnswer> } = {}): Record<string, MockAnswer> {
  return {
    [PITR]: { body: options.pitr ? openWindow() : openWindow({ enabled: false, retention_days: null, earliest_recovery_time: null, latest_recovery_time: null, base_backups: [] }) },
    ...permissionsAnswer('default', options.role ?? 'owner'),
    'GET /api/platform/config': { body: { mode: options.mode ?? 'hosted', flags: Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) } },
    [LIST]: { body: options.list ?? listed([]) },
    'GET /api/platform/projects/default/billing/addons': { body: addons(options.pitr ?? false) },
    ...options.extra,
  };
}

const open = (url = '/project/default/database/backups/scheduled') => renderArea(DatabaseRoutes, { mount: 'database', url });
const rowOf = async (id: number) => (await screen.findByRole('table', { name: 'Backups' })).querySelector(`tr[data-backup-id="${id}"]`) as HTMLElement;

describe('BackupsPage', () => {
  it('lists each backup with its kind, state and size, and links a completed one for download', async () => {
    mockFetch(
      answers({
        list: listed([
          backup({ id: 3, kind: 'on-demand', status: 'RUNNING', completed_at: null, size_bytes: null }),
          backup({ id: 2, status: 'FAILED', size_bytes: null, error: 'permission denied for table secrets' }),
          backup({ id: 1 }),
        ]),
      }),
    );
    open();
    const running = within(await rowOf(3));
    expect(running.getByText('On demand')).toBeTruthy();
    expect(running.getByText('In progress')).toBeTruthy();
    expect(running.queryByRole('link', { name: 'Download' })).toBeNull();
    const failed = within(await rowOf(2));
    expect(failed.getByText('Failed')).toBeTruthy();
    expect(failed.getByText('permission denied for table secrets')).toBeTruthy();
    const done = within(await rowOf(1));
    expect(done.getByText('Scheduled')).toBeTruthy();
    expect(done.getByText('1.5 KB')).toBeTruthy();
    expect(done.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/api/platform/projects/default/database/backups/1/download');
    expect(screen.getByText('Made with pg_dump 17.5.')).toBeTruthy();
  });

  it('starts a backup from the empty state', async () => {
    const mock = mockFetch(answers({ extra: { 'POST /api/platform/projects/default/database/backups': { status: 201, body: backup({ id: 9, kind: 'on-demand', status: 'RUNNING' }) } } }));
    open();
    expect(await screen.findByText(BackupMessages.emptyTitle)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Create backup' }));
    expect(await screen.findByText(BackupMessages.created)).toBeTruthy();
    expect(mock.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('says what is missing when no pg_dump can run, and makes none', async () => {
    const problem = 'The project database runs PostgreSQL 18, and the available pg_dump is version 17.5, which cannot dump a newer server. Set DASH_PG_DUMP to a pg_dump 18 binary.';
    mockFetch(answers({ list: listed([backup({})], problem) }));
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Backups cannot be made')).toBeTruthy();
    expect(within(alert).getByText(problem)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create backup' })).toHaveProperty('disabled', true));
  });

  it('lets a read-only member see the list but not make, download or restore a backup', async () => {
    mockFetch(answers({ role: 'read_only', list: listed([backup({})]) }));
    open();
    const row = within(await rowOf(1));
    await waitFor(() => expect(row.getByRole('button', { name: 'Restore to new project' })).toHaveProperty('disabled', true));
    expect(row.queryByRole('link', { name: 'Download' })).toBeNull();
    expect(row.getByRole('button', { name: 'Download' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Create backup' })).toHaveProperty('disabled', true);
  });

  it('restores into a new project once its name and password are given', async () => {
    const mock = mockFetch(
      answers({
        list: listed([backup({})]),
        extra: {
          'POST /api/platform/projects/default/database/backups/1/restore': {
            status: 201,
            body: { id: 7, ref: 'abcdefghijklmnopqrst', name: 'Copy', status: 'COMING_UP', organization_slug: 'demo', organization_name: 'Demo', role: 'owner', inserted_at: '2026-11-28T00:00:00.000Z' },
          },
        },
      }),
    );
    open();
    const row = within(await rowOf(1));
    await waitFor(() => expect(row.getByRole('button', { name: 'Restore to new project' })).toHaveProperty('disabled', false));
    await userEvent.click(row.getByRole('button', { name: 'Restore to new project' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Restore to a new project' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Restore to new project' }));
    expect(dialog.getByText('Please provide a name for your project')).toBeTruthy();
    expect(dialog.getByText('Please provide a database password')).toBeTruthy();
    await userEvent.type(dialog.getByLabelText('New project name'), 'Copy');
    await userEvent.type(dialog.getByLabelText('Database password'), 'Restore-Pa55word!');
    await userEvent.click(dialog.getByRole('button', { name: 'Restore to new project' }));
    expect(await screen.findByText(BackupMessages.restoreStarted('Copy'))).toBeTruthy();
    expect(await mock.bodiesOf('POST /api/platform/projects/default/database/backups/1/restore')).toEqual([{ name: 'Copy', db_pass: 'Restore-Pa55word!' }]);
  });

  it('opens the point-in-time page when the add-on is selected', async () => {
    mockFetch(answers({ pitr: true }));
    open('/project/default/database/backups');
    expect(await screen.findByText('Enabled')).toBeTruthy();
    expect(screen.getByText('14 days')).toBeTruthy();
    const window = within(screen.getByLabelText('Recovery window'));
    expect(window.getByText('Earliest recovery point')).toBeTruthy();
    expect(window.getByText(/48 MB, 1 kept/)).toBeTruthy();
  });

  it('restores the database at a chosen second into a new project, and refuses a time outside the window', async () => {
    const mock = mockFetch(
      answers({
        pitr: true,
        extra: {
          'POST /api/platform/projects/default/database/backups/pitr/restore': {
            status: 201,
            body: { id: 9, ref: 'restored', name: 'Copy', organization_id: 1, status: 'COMING_UP', region: 'local', inserted_at: '2026-11-28T10:00:00.000Z' },
          },
        },
      }),
    );
    open('/project/default/database/backups/pitr');
    const input = await screen.findByLabelText(/^Restore to \(your time zone/);
    // A day back is before the window opens.
    await userEvent.clear(input);
    await userEvent.type(input, localInputValue(new Date(Date.now() - 24 * HOUR)));
    await userEvent.click(screen.getByRole('button', { name: 'Restore to new project' }));
    expect(await screen.findByText(/^Choose a time between/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    const target = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    await userEvent.clear(input);
    await userEvent.type(input, localInputValue(target));
    await userEvent.click(screen.getByRole('button', { name: 'Restore to new project' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/A new project is created with the database as it was at/)).toBeTruthy();
    await userEvent.type(dialog.getByLabelText('New project name'), 'Copy');
    await userEvent.type(dialog.getByLabelText('Database password'), 'Restore-Pa55word!');
    await userEvent.click(dialog.getByRole('button', { name: 'Restore to new project' }));
    expect(await screen.findByText(/^Restoring the database as of .* into new project Copy$/)).toBeTruthy();
    expect(await mock.bodiesOf('POST /api/platform/projects/default/database/backups/pitr/restore')).toEqual([
      { recovery_time_target: target.toISOString(), name: 'Copy', db_pass: 'Restore-Pa55word!' },
    ]);
  });

  it('tells a member without the admin permission why they cannot restore', async () => {
    mockFetch(answers({ pitr: true, role: 'developer' }));
    open('/project/default/database/backups/pitr');
    const button = await screen.findByRole('button', { name: 'Restore to new project' });
    expect(button.getAttribute('aria-disabled') ?? button.getAttribute('disabled')).not.toBeNull();
    await userEvent.hover(button);
    expect(await screen.findByText(BackupMessages.needPermissions)).toBeTruthy();
  });

  it('says why no restore can be made on this server, and waits for the first base backup', async () => {
    mockFetch(answers({ pitr: true, extra: { [PITR]: { body: openWindow({ problem: PitrMessages.needsEmbeddedServer, earliest_recovery_time: null, latest_recovery_time: null, base_backups: [] }) } } }));
    const first = open('/project/default/database/backups/pitr');
    expect(await screen.findByText(PitrMessages.needsEmbeddedServer)).toBeTruthy();
    expect(screen.queryByLabelText(/^Restore to/)).toBeNull();
    first.unmount();

    mockFetch(answers({ pitr: true, extra: { [PITR]: { body: openWindow({ problem: PitrMessages.noBaseBackup, earliest_recovery_time: null, latest_recovery_time: null, base_backups: [] }) } } }));
    open('/project/default/database/backups/pitr');
    expect(await screen.findByText(PitrMessages.noBaseBackup)).toBeTruthy();
    expect(screen.queryByLabelText(/^Restore to/)).toBeNull();
  });

  it('lists a point-in-time backup with the moment it holds', async () => {
    mockFetch(answers({ list: listed([backup({ id: 4, kind: 'point-in-time', recovery_target: '2026-11-27T08:15:30.000Z' })]) }));
    open();
    const row = within(await rowOf(4));
    expect(row.getByText('Point in time')).toBeTruthy();
    expect(row.getByText(/^As of Nov 27, 2026/)).toBeTruthy();
  });

  it('opens the scheduled backups without the add-on', async () => {
    mockFetch(answers({ pitr: false }));
    open('/project/default/database/backups');
    expect(await screen.findByText(BackupMessages.emptyTitle)).toBeTruthy();
  });

  it('is not there in the self-hosted variant', async () => {
    mockFetch(answers({ mode: 'self-hosted' }));
    open();
    expect(await screen.findByText(BackupMessages.hostedOnly)).toBeTruthy();
  });
});
