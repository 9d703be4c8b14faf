import type { ReactNode } from 'react';
import { Button } from './Button';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="dash-loading" role="status">
      <span className="dash-spinner" aria-hidden />
      <span>{label}…</span>
    </div>
  );
}

export function EmptyState({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="dash-empty">
      <p className="dash-empty__title">{title}</p>
      {description && <p className="dash-empty__description">{description}</p>}
      {action}
    </div>
  );
}

/** An error in one area of the page, with an optional Retry. */
export function ErrorPanel({ title, message, onRetry, retrying }: {
  title: string;
  message?: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div className="dash-error-panel" role="alert">
      <p className="dash-error-panel__title">{title}</p>
      {message && <p className="dash-error-panel__message">{message}</p>}
      {onRetry && (
        <Button onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      )}
    </div>
  );
}

/**
 * A failure inside a form or panel (a list of choices that did not load), smaller than `ErrorPanel`,
 * with an optional small Retry. One look for such errors in every area.
 */
export function InlineError({ title, message, onRetry }: { title: string; message?: string; onRetry?: () => void }) {
  return (
    <div className="dash-inline-error" role="alert">
      <p className="dash-inline-error__title">{title}</p>
      {message && <p className="dash-inline-error__message">{message}</p>}
      {onRetry && (
        <Button size="sm" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}

/** Shown instead of an area when the member lacks the permission to see it. */
export function NoAccess({ what }: { what: string }) {
  return (
    <EmptyState
      title="You need additional permissions"
      description={<>You do not have permission to {what}. Contact your organization owner or adminstrator for assistance.</>}
    />
  );
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'success' | 'warning' | 'danger' | 'brand' }) {
  return <span className={`dash-badge dash-badge--${tone}`}>{children}</span>;
}

/**
 * A note that tells how to get something working: its title, then the steps to run in order, each shown
 * as code (for example how to get pg_stat_statements counting).
 */
export function StepsCallout({ title, steps, className }: { title: string; steps: readonly string[]; className?: string }) {
  return (
    <div className={className ? `dash-callout ${className}` : 'dash-callout'} role="note">
      <p className="dash-callout__title">{title}</p>
      <ol className="dash-callout__text">
        {steps.map((step) => (
          <li key={step}>
            <code>{step}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}
