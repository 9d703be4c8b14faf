import { useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, NavLink, useNavigate } from 'react-router-dom';
import { errorMessage, useDashConfig, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, Modal, ModalActions, Spinner, TextField } from '@dash/shell-sdk/ui';
import {
  ADDON_CATALOG,
  BackupMessages,
  formatBytes,
  newProjectPasswordProblem,
  Permission,
  PitrMessages,
  PROJECT_NAME_MAX,
  ProjectMessages,
  projectNameProblem,
  SCHEDULED_BACKUP_RETENTION_DAYS,
  type DatabaseBackup,
  type PitrStatus,
} from '@dash/contracts';
import {
  backupDownloadUrl,
  useBackupAddonsQuery,
  useCreateBackupMutation,
  useDatabaseBackupsQuery,
  usePitrStatusQuery,
  useRestoreBackupMutation,
  useRestorePitrMutation,
} from '../../api/backups';
import { DatabasePage } from '../common';
import { databasePaths } from '../paths';

/** While a backup runs, the list is asked again this often until it has ended. */
const RUNNING_POLL_MS = 2000;

const PITR = ADDON_CATALOG.find((entry) => entry.type === 'pitr')!;

const timeOf = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
/** A moment to the second, with the browser's time zone: what a point-in-time restore reaches. */
const secondOf = (at: Date) => at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'long' });

const KIND_LABELS: Record<DatabaseBackup['kind'], string> = { 'on-demand': 'On demand', scheduled: 'Scheduled', 'point-in-time': 'Point in time' };

/** Backups exist on the hosted platform only; a self-hosted deployment that opens the URL is told so. */
function HostedOnly({ children }: { children: ReactNode }) {
  const { mode, isLoading } = useDashConfig();
  if (isLoading) return <Spinner label="Loading" />;
  if (mode !== 'hosted') return <EmptyState title={BackupMessages.hostedOnly} />;
  return <>{children}</>;
}

/** `/database/backups`: the point-in-time page when the project has the PITR add-on, the scheduled backups otherwise. */
function BackupsRedirect() {
  const ref = useProjectRef();
  const { data, error, isLoading } = useBackupAddonsQuery({ ref });
  if (isLoading) return <Spinner label="Loading backups" />;
  // Without the add-ons (a failed call), the backups themselves are still worth showing.
  const pitr = !error && data?.selected_addons.some((addon) => addon.type === 'pitr');
  return <Navigate to={databasePaths.page(ref, pitr ? 'backups/pitr' : 'backups/scheduled')} replace />;
}

function BackupTabs() {
  const ref = useProjectRef();
  const tab = ({ isActive }: { isActive: boolean }) => `db-backups__tab${isActive ? ' is-active' : ''}`;
  return (
    <nav className="db-backups__tabs" aria-label="Backup kinds">
      <NavLink to={databasePaths.page(ref, 'backups/scheduled')} className={tab}>
        Scheduled backups
      </NavLink>
      <NavLink to={databasePaths.page(ref, 'backups/pitr')} className={tab}>
        Point in time
      </NavLink>
    </nav>
  );
}

function StatusCell({ backup }: { backup: DatabaseBackup }) {
  if (backup.status === 'COMPLETED') return <Badge tone="success">Completed</Badge>;
  if (backup.status === 'RUNNING') {
    return (
      <span className="db-backups__running" role="status">
        <span className="dash-spinner dash-spinner--inline" aria-hidden />
        In progress
      </span>
    );
  }
  return (
    <div>
      <Badge tone="danger">Failed</Badge>
      {backup.error && <div className="db-muted db-note db-backups__error">{backup.error}</div>}
    </div>
  );
}

/** What a restore makes its new project from: a backup in the list, or the database at a moment. */
type RestoreSource = { backup: DatabaseBackup } | { pointInTime: Date };

/** The confirmation of a restore: the new project's name and admin password, as a new project asks for. */
function RestoreDialog({ source, onClose }: { source: RestoreSource; onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const navigate = useNavigate();
  const [restoreBackup, backupRestore] = useRestoreBackupMutation();
  const [restorePitr, pitrRestore] = useRestorePitrMutation();
  const isLoading = backupRestore.isLoading || pitrRestore.isLoading;
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const nameProblem = projectNameProblem(name);
  const passwordProblem = newProjectPasswordProblem(password);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem || passwordProblem) return;
    setFailure(null);
    const body = { name: name.trim(), db_pass: password };
    try {
      if ('backup' in source) {
        const project = await restoreBackup({ ref, id: source.backup.id, body }).unwrap();
        toast('success', BackupMessages.restoreStarted(project.name));
        navigate(`/project/${project.ref}/building`);
      } else {
        const project = await restorePitr({ ref, recovery_time_target: source.pointInTime.toISOString(), ...body }).unwrap();
        toast('success', PitrMessages.restoreStarted(project.name, secondOf(source.pointInTime)));
        navigate(`/project/${project.ref}/building`);
      }
    } catch (error) {
      setFailure(('backup' in source ? BackupMessages.restoreFailed : PitrMessages.restoreFailed)(errorMessage(error)));
    }
  };

  return (
    <Modal
      title="Restore to a new project"
      onClose={onClose}
      width={520}
      footer={<ModalActions onCancel={onClose} busy={isLoading} type="submit" form="db-backup-restore">Restore to new project</ModalActions>}
    >
      <form id="db-backup-restore" className="db-form" onSubmit={submit} noValidate>
        <div className="dash-callout">
          <p className="dash-callout__title">
            {'backup' in source
              ? `A new project is created from the backup of ${timeOf(source.backup.created_at)}`
              : `A new project is created with the database as it was at ${secondOf(source.pointInTime)}`}
          </p>
          <p className="dash-callout__text">
            It joins this organization with the database as it was then. This project is not changed. Files in storage buckets are not part of a
            database backup.
          </p>
        </div>
        <TextField
          label="New project name"
          value={name}
          maxLength={PROJECT_NAME_MAX}
          autoFocus
          autoComplete="off"
          disabled={isLoading}
          onChange={(e) => setName(e.target.value)}
          error={tried ? nameProblem : undefined}
        />
        <TextField
          label="Database password"
          type="password"
          value={password}
          autoComplete="new-password"
          disabled={isLoading}
          onChange={(e) => setPassword(e.target.value)}
          error={tried ? passwordProblem : undefined}
          hint={ProjectMessages.passwordHint}
        />
        {failure && (
          <p className="dash-field__error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}

/** `/database/backups/scheduled`: the daily and on-demand backups, newest first. */
function ScheduledBackups() {
  const ref = useProjectRef();
  const toast = useToast();
  const manage = usePermission(Permission.ProjectAdminWrite);
  const [polling, setPolling] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseBackupsQuery({ ref }, { refetchOnMountOrArgChange: true, pollingInterval: polling ? RUNNING_POLL_MS : 0 });
  const [createBackup, creating] = useCreateBackupMutation();
  const [restoring, setRestoring] = useState<DatabaseBackup | null>(null);
  const running = data?.backups.some((b) => b.status === 'RUNNING') ?? false;
  if (running !== polling) setPolling(running);

  const problem = data?.pg_dump.problem ?? null;
  const noPermission = manage.isLoading ? 'Loading permissions' : manage.can ? undefined : BackupMessages.needPermissions;
  const createDisabled = noPermission ?? (problem ? 'Backups cannot be made: see above' : undefined);

  const create = async () => {
    try {
      await createBackup({ ref }).unwrap();
      toast('success', BackupMessages.created);
    } catch (e) {
      toast('error', BackupMessages.createFailed(errorMessage(e)));
    }
  };

  const createButton = (
    <Button variant="primary" onClick={create} loading={creating.isLoading} disabledReason={data ? createDisabled : 'Loading backups'}>
      Create backup
    </Button>
  );

  let body;
  if (isLoading) body = <Spinner label="Loading backups" />;
  else if (error) body = <ErrorPanel title="Failed to retrieve backups" message={errorMessage(error)} onRetry={refetch} retrying={isFetching} />;
  else if (!data || data.backups.length === 0) body = <EmptyState title={BackupMessages.emptyTitle} description={BackupMessages.emptyDescription} action={createButton} />;
  else {
    body = (
      <div className="dash-card db-table-card">
        <table className="dash-table" aria-label="Backups">
          <thead>
            <tr>
              <th>Created</th>
              <th>Kind</th>
              <th>Status</th>
              <th className="db-num">Size</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {data.backups.map((backup) => (
              <tr key={backup.id} data-backup-id={backup.id}>
                <td className="db-nowrap db-strong">{timeOf(backup.created_at)}</td>
                <td>
                  {KIND_LABELS[backup.kind]}
                  {backup.recovery_target && <div className="db-muted db-note">As of {secondOf(new Date(backup.recovery_target))}</div>}
                </td>
                <td>
                  <StatusCell backup={backup} />
                </td>
                <td className="db-num db-nowrap">{backup.size_bytes === null ? <span className="db-muted">–</span> : formatBytes(backup.size_bytes)}</td>
                <td className="db-actions">
                  {backup.status === 'COMPLETED' &&
                    (noPermission ? (
                      <Button size="sm" disabledReason={noPermission}>
                        Download
                      </Button>
                    ) : (
                      <a className="dash-btn dash-btn--default dash-btn--sm" href={backupDownloadUrl(ref, backup.id)} download>
                        Download
                      </a>
                    ))}
                  {backup.status === 'COMPLETED' && (
                    <Button size="sm" disabledReason={noPermission} onClick={() => setRestoring(backup)}>
                      Restore to new project
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <DatabasePage
      title="Backups"
      description={`Logical backups of the database, made with the server's pg_dump every day and whenever you ask. Each is a SQL file to download, or to restore into a new project. Scheduled backups are kept for ${SCHEDULED_BACKUP_RETENTION_DAYS} days.`}
      actions={data && data.backups.length > 0 ? createButton : undefined}
      toolbar={<BackupTabs />}
    >
      {problem && <ErrorPanel title="Backups cannot be made" message={problem} />}
      {body}
      {data?.pg_dump.version && <p className="db-muted db-note db-backups__version">Made with pg_dump {data.pg_dump.version}.</p>}
      {restoring && <RestoreDialog source={{ backup: restoring }} onClose={() => setRestoring(null)} />}
    </DatabasePage>
  );
}

/** `2026-11-28T09:30:05` in the browser's time zone: the value of a `datetime-local` input to the second. */
export function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** Why `value` (a `datetime-local` value, local time) cannot be restored to, or null. */
export function pointInTimeProblem(value: string, earliest: Date, latest: Date): string | null {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) return 'Enter a date and time';
  if (at < earliest || at > latest) return PitrMessages.outsideWindow(secondOf(earliest), secondOf(latest));
  return null;
}

/** The window, the base backups, and the moment to restore to. */
function RecoveryForm({ status }: { status: PitrStatus }) {
  const manage = usePermission(Permission.ProjectAdminWrite);
  const earliest = new Date(status.earliest_recovery_time!);
  // The window runs up to now; the page's copy of "now" moves on with the clock.
  const latest = new Date(Math.max(new Date(status.latest_recovery_time!).getTime(), Date.now()));
  const [value, setValue] = useState(() => localInputValue(new Date(Math.floor(Date.now() / 1000) * 1000)));
  const [tried, setTried] = useState(false);
  const [restoring, setRestoring] = useState<Date | null>(null);
  const problem = pointInTimeProblem(value, earliest, latest);
  const noPermission = manage.isLoading ? 'Loading permissions' : manage.can ? undefined : BackupMessages.needPermissions;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const newest = status.base_backups[0];

  const review = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem) setRestoring(new Date(value));
  };

  return (
    <div className="dash-card">
      <div className="dash-card__body db-backups__pitr">
        <p>
          <Badge tone="success">Enabled</Badge> {PITR.name} is on for this project, with a retention of <strong>{status.retention_days} days</strong>.
        </p>
        <dl className="db-backups__window" aria-label="Recovery window">
          <dt>Earliest recovery point</dt>
          <dd>{secondOf(earliest)}</dd>
          <dt>Latest recovery point</dt>
          <dd>Now (the log is archived up to the moment a restore starts)</dd>
          {newest && (
            <>
              <dt>Latest base backup</dt>
              <dd>
                {secondOf(new Date(newest.completed_at))} ({formatBytes(newest.size_bytes)}, {status.base_backups.length} kept)
              </dd>
            </>
          )}
        </dl>
        <form className="db-form db-backups__restore" onSubmit={review} noValidate>
          <TextField
            label={`Restore to (your time zone, ${zone})`}
            type="datetime-local"
            step={1}
            min={localInputValue(earliest)}
            max={localInputValue(latest)}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={tried ? (problem ?? undefined) : undefined}
            hint="To the second. The restore makes a new project with the database as it was then; this project is not changed."
          />
          <div>
            <Button type="submit" variant="primary" disabledReason={noPermission}>
              Restore to new project
            </Button>
          </div>
        </form>
        <p className="db-muted">
          Daily and on-demand logical backups are still made: they are on the <NavLink to={databasePaths.page(useProjectRef(), 'backups/scheduled')}>Scheduled backups</NavLink> tab,
          with the point-in-time backups that restores make.
        </p>
      </div>
      {restoring && <RestoreDialog source={{ pointInTime: restoring }} onClose={() => setRestoring(null)} />}
    </div>
  );
}

/** `/database/backups/pitr`: the point-in-time recovery add-on's state, its window, and a restore. */
function PointInTime() {
  const ref = useProjectRef();
  // While the first base backup is made the window is not open yet: asked again until it is.
  const [waiting, setWaiting] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = usePitrStatusQuery({ ref }, { refetchOnMountOrArgChange: true, pollingInterval: waiting ? RUNNING_POLL_MS : 0 });
  const opening = data?.problem === PitrMessages.noBaseBackup;
  if (opening !== waiting) setWaiting(opening);
  let body;
  if (isLoading) body = <Spinner label="Loading point in time recovery" />;
  else if (error) body = <ErrorPanel title="Failed to retrieve point in time recovery" message={errorMessage(error)} onRetry={refetch} retrying={isFetching} />;
  else if (!data?.enabled) {
    body = (
      <EmptyState
        title={`${PITR.name} is off`}
        description={
          <>
            {PITR.description} Add it in <NavLink to={`/project/${ref}/settings/addons`}>Add-ons</NavLink>; meanwhile the daily backups are on the Scheduled
            backups tab.
          </>
        }
      />
    );
  } else if (opening) {
    body = (
      <div className="dash-card">
        <div className="dash-card__body db-backups__pitr" role="status">
          <span className="dash-spinner dash-spinner--inline" aria-hidden /> {PitrMessages.noBaseBackup}
        </div>
      </div>
    );
  } else if (data.problem) {
    body = <ErrorPanel title="Point in time recovery is not available" message={data.problem} />;
  } else {
    body = <RecoveryForm status={data} />;
  }
  return (
    <DatabasePage title="Backups" description={PITR.description} toolbar={<BackupTabs />}>
      {body}
      {data?.enabled && (
        <p className="db-muted db-note">
          Change the retention or turn it off in <NavLink to={`/project/${ref}/settings/addons`}>Add-ons</NavLink>.
        </p>
      )}
    </DatabasePage>
  );
}

export function ScheduledBackupsPage() {
  return (
    <HostedOnly>
      <ScheduledBackups />
    </HostedOnly>
  );
}

export function PointInTimePage() {
  return (
    <HostedOnly>
      <PointInTime />
    </HostedOnly>
  );
}

export function BackupsIndexPage() {
  return (
    <HostedOnly>
      <BackupsRedirect />
    </HostedOnly>
  );
}
