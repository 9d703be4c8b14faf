import { Messages } from '@dash/contracts';
import { useExplorer } from './controller';
import { overallProgress } from './state';

function Progress({ label, value, failed }: { label: string; value: number; failed?: boolean }) {
  return (
    <div className={`sx-progress${failed ? ' is-failed' : ''}`} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <span style={{ width: `${value}%` }} />
    </div>
  );
}

/** Running uploads (each file and overall) and downloads, with the notice not to close the browser. */
export function OperationsPanel() {
  const { state } = useExplorer();
  const { uploads, activities } = state;
  if (uploads.length === 0 && activities.length === 0) return null;
  const overall = overallProgress(uploads);
  return (
    <section className="sx-ops" aria-label="Operations in progress" data-testid="explorer-operations">
      {uploads.length > 0 && (
        <div className="sx-ops__uploads">
          <header className="sx-ops__header">
            <span>
              Uploading {uploads.length} file{uploads.length === 1 ? '' : 's'}
            </span>
            <span className="sx-ops__percent">{overall}%</span>
          </header>
          <Progress label="Upload progress" value={overall} />
          <ul className="sx-ops__files">
            {uploads.map((upload) => {
              const value = upload.total ? Math.round((upload.loaded / upload.total) * 100) : upload.status === 'uploading' ? 0 : 100;
              return (
                <li key={upload.id} className="sx-ops__file">
                  <span className="sx-ops__name" title={upload.name}>
                    {upload.name}
                  </span>
                  <Progress label={`Uploading ${upload.name}`} value={value} failed={upload.status === 'failed'} />
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {activities.map((activity) => (
        <p key={activity.id} className="sx-ops__activity" role="status">
          <span className="dash-spinner dash-spinner--inline" aria-hidden />
          {activity.label}
        </p>
      ))}
      <p className="sx-ops__notice">{Messages.doNotCloseBrowser}</p>
    </section>
  );
}
