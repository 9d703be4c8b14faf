import { useNavigate } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Button, PageHeader } from '@dash/shell-sdk/ui';
import { LOG_QUERY_TEMPLATES } from '@dash/contracts';
import { ExplorerGate } from './ExplorerGate';
import { explorerPath, type ExplorerOpen } from './paths';

/** /logs/explorer/templates: ready-made queries; Run opens the explorer with one and runs it. */
export function TemplatesPage() {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const run = (sql: string) => navigate(explorerPath(ref), { state: { sql } satisfies ExplorerOpen });
  return (
    <ExplorerGate>
      <PageHeader title="Templates" description="Ready-made queries over the project's logs. Run one to open it in the explorer." />
      <ul className="logs-query-list" aria-label="Templates">
        {LOG_QUERY_TEMPLATES.map((t) => (
          <li key={t.id} className="logs-query-card">
            <div className="logs-query-card__head">
              <div>
                <h3 className="logs-query-card__title">{t.name}</h3>
                <p className="logs-query-card__meta">{t.description} · <span className="mono">{t.table}</span></p>
              </div>
              <Button size="sm" variant="primary" onClick={() => run(t.sql)} aria-label={`Run ${t.name}`}>Run</Button>
            </div>
            <pre className="logs-query-card__sql">{t.sql}</pre>
          </li>
        ))}
      </ul>
    </ExplorerGate>
  );
}
