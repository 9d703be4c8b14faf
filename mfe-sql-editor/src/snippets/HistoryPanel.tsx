import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button, InlineError, Spinner } from '@dash/shell-sdk/ui';
import type { SnippetVersion } from '@dash/contracts';
import { useListSnippetVersionsQuery } from '../api/snippets';
import { formatQueryStart } from '../running/format';
import { firstLine } from './preview';

/** The snippet's saved versions, newest first; Restore puts a version's text in the editor and saves it as a new version. */
export function HistoryPanel({ snippetId, currentSql, canRestore, onRestore, onClose }: {
  snippetId: string;
  currentSql: string;
  canRestore: boolean;
  onRestore: (version: SnippetVersion) => void;
  onClose: () => void;
}) {
  const ref = useProjectRef();
  const { data, error, isLoading, refetch } = useListSnippetVersionsQuery({ ref, id: snippetId }, { refetchOnMountOrArgChange: true });
  let body;
  if (isLoading) body = <Spinner label="Loading history" />;
  else if (error) body = <InlineError title="Failed to load the history" message={errorMessage(error)} onRetry={() => void refetch()} />;
  else if (!data || data.length === 0) body = <p className="sql-muted">No saved versions yet.</p>;
  else
    body = (
      <ol className="sql-history__list" aria-label="Versions">
        {data.map((version) => (
          <li key={version.version} className="sql-history__item">
            <div className="sql-history__meta">
              <strong>Version {version.version}</strong>
              <span className="sql-muted">{formatQueryStart(version.saved_at)}</span>
            </div>
            <div className="sql-muted">by {version.saved_by_name}</div>
            <code className="sql-history__line" title={version.sql}>
              {firstLine(version.sql)}
            </code>
            {canRestore && (
              <Button
                size="sm"
                aria-label={`Restore version ${version.version}`}
                disabled={version.sql === currentSql}
                title={version.sql === currentSql ? 'The editor has this text' : undefined}
                onClick={() => onRestore(version)}
              >
                Restore
              </Button>
            )}
          </li>
        ))}
      </ol>
    );
  return (
    <aside className="sql-history" aria-label="Query history">
      <header className="sql-history__header">
        <h2>History</h2>
        <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close history">
          ×
        </Button>
      </header>
      {body}
    </aside>
  );
}
