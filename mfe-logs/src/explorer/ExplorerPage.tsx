import { useLocation } from 'react-router-dom';
import { PageHeader } from '@dash/shell-sdk/ui';
import { ExplorerWorkbench } from './ExplorerWorkbench';
import { ExplorerGate } from './ExplorerGate';
import { SaveQueryButton } from './SaveQueryButton';
import type { ExplorerOpen } from './paths';

const DEFAULT_SQL = `select "timestamp", event_message, metadata
from edge_logs
order by "timestamp" desc
limit 100`;

/** /logs/explorer: SQL over the log tables. Opened from a template, a recent or a saved query, it runs that. */
export function ExplorerPage() {
  const location = useLocation();
  const opened = (location.state as ExplorerOpen | null) ?? null;
  const saved = opened?.savedId ? { id: opened.savedId, name: opened.savedName ?? '' } : undefined;
  return (
    <ExplorerGate>
      <PageHeader
        title="Logs Explorer"
        description="Query this project's logs with SQL: edge_logs, postgres_logs, auth_logs, storage_logs and the other sources are tables over the time range you pick."
      />
      {/* A new opening (location key) starts a fresh workbench with its query. */}
      <ExplorerWorkbench
        key={location.key}
        initialSql={opened?.sql ?? DEFAULT_SQL}
        autoRun={opened !== null}
        actions={({ sql }) => <SaveQueryButton key={saved?.id ?? 'new'} sql={sql} saved={saved} />}
      />
    </ExplorerGate>
  );
}
