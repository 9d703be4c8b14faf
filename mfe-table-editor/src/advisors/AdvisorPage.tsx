import { useState } from 'react';
import { useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button } from '@dash/shell-sdk/ui';
import { LINT_LEVELS, type Lint, type LintCategory, type LintLevel } from '@dash/contracts';
import { useLintsQuery } from '../api/advisors';
import { DatabasePage, ListState } from '../database/common';

const LEVELS: Record<LintLevel, { title: string; tone: 'danger' | 'warning' | 'neutral' }> = {
  ERROR: { title: 'Errors', tone: 'danger' },
  WARN: { title: 'Warnings', tone: 'warning' },
  INFO: { title: 'Info', tone: 'neutral' },
};

const ADVISORS: Record<LintCategory, { title: string; description: string; clean: string }> = {
  SECURITY: {
    title: 'Security Advisor',
    description: "Checks the database for what the project's API exposes without row-level security, and for functions and views that act with more rights than their callers.",
    clean: 'The security lints found nothing to fix in this database.',
  },
  PERFORMANCE: {
    title: 'Performance Advisor',
    description: 'Checks the database for missing, duplicated and unused indexes, tables without a primary key and policies that cost more than they need to.',
    clean: 'The performance lints found nothing to fix in this database.',
  },
};

/** The object a finding is about, as a reader names it (an extension has no schema of its own to show). */
const objectName = (lint: Lint) => (lint.metadata.type === 'extension' ? lint.metadata.name : `${lint.metadata.schema}.${lint.metadata.name}`);

function Finding({ lint, expanded, onToggle }: { lint: Lint; expanded: boolean; onToggle: () => void }) {
  const toast = useToast();
  const bodyId = `lint-${lint.cache_key}`;
  const copy = (sql: string) =>
    navigator.clipboard.writeText(sql).then(
      () => toast('success', 'Copied the statement to the clipboard'),
      (e: Error) => toast('error', `Failed to copy: ${e.message}`),
    );
  return (
    <li className={`adv-item${expanded ? ' is-open' : ''}`}>
      <button type="button" className="adv-item__summary" aria-expanded={expanded} aria-controls={bodyId} onClick={onToggle}>
        <span className="adv-item__chevron" aria-hidden>
          ▸
        </span>
        <span className="adv-item__title">{lint.title}</span>
        <code className="adv-item__object">{objectName(lint)}</code>
        <span className="adv-item__type">{lint.metadata.type}</span>
      </button>
      {expanded && (
        <div id={bodyId} className="adv-item__body" role="region" aria-label={`${lint.title}: ${objectName(lint)}`}>
          <p className="adv-item__detail">{lint.detail}</p>
          <h4>Why it matters</h4>
          <p>{lint.description}</p>
          <h4>How to fix it</h4>
          <p>{lint.remediation}</p>
          {lint.remediation_sql && (
            <figure className="adv-sql">
              <figcaption>
                <span>Suggested statement: review it before running it in the SQL editor</span>
                <Button size="sm" variant="ghost" onClick={() => void copy(lint.remediation_sql!)}>
                  Copy
                </Button>
              </figcaption>
              <pre>
                <code>{lint.remediation_sql}</code>
              </pre>
            </figure>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * One advisor: the lints of its category from one run of every lint (pg-meta), grouped by level with
 * counts, each finding expandable to its detail and remedy. Opening the page reruns the lints.
 */
export function AdvisorPage({ category }: { category: LintCategory }) {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch, fulfilledTimeStamp } = useLintsQuery({ ref }, { refetchOnMountOrArgChange: true });
  const [open, setOpen] = useState<string | null>(null);
  const advisor = ADVISORS[category];
  const lints = (data ?? []).filter((lint) => lint.categories.includes(category));
  const groups = LINT_LEVELS.map((level) => ({ level, lints: lints.filter((lint) => lint.level === level) }));

  return (
    <DatabasePage
      title={advisor.title}
      description={advisor.description}
      actions={
        <Button onClick={() => void refetch()} loading={isFetching} disabled={isLoading}>
          Rerun linter
        </Button>
      }
      toolbar={
        data && (
          <div className="adv-summary" aria-label="Findings by level">
            {groups.map(({ level, lints: found }) => (
              <span key={level} className="adv-summary__item">
                <Badge tone={found.length ? LEVELS[level].tone : 'neutral'}>{found.length}</Badge> {LEVELS[level].title}
              </span>
            ))}
            {fulfilledTimeStamp && <span className="db-muted adv-summary__time">Last run at {new Date(fulfilledTimeStamp).toLocaleTimeString('en-US')}</span>}
          </div>
        )
      }
    >
      <ListState
        what="lints"
        isLoading={isLoading}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
        empty={lints.length > 0 ? null : { title: 'No issues found', description: advisor.clean }}
      >
        {groups
          .filter((group) => group.lints.length > 0)
          .map(({ level, lints: found }) => (
            <section key={level} className="adv-group" aria-label={LEVELS[level].title}>
              <h2 className="adv-group__title">
                {LEVELS[level].title} <Badge tone={LEVELS[level].tone}>{found.length}</Badge>
              </h2>
              <ul className="adv-list">
                {found.map((lint) => (
                  <Finding key={lint.cache_key} lint={lint} expanded={open === lint.cache_key} onToggle={() => setOpen(open === lint.cache_key ? null : lint.cache_key)} />
                ))}
              </ul>
            </section>
          ))}
      </ListState>
    </DatabasePage>
  );
}
