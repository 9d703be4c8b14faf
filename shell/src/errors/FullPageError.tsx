import { useInRouterContext, useNavigate } from 'react-router-dom';
import { Button } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';

export interface FullPageErrorProps {
  code: string | number;
  message: string;
  /** The page tries again by itself (and says so). */
  retrying?: boolean;
}

/** `/support/new` with the error prefilled. */
export function supportRequestPath(code: string | number, message: string): string {
  return `/support/new?${new URLSearchParams({ code: String(code), message })}`;
}

/** The spec's full-page error: "Something went wrong", code, message, back to projects or ask for support. */
export function FullPageError(props: FullPageErrorProps) {
  // Outside the router (the registry failed before it was created) a plain page load is all there is.
  return useInRouterContext() ? <RoutedFullPageError {...props} /> : <FullPageErrorView {...props} go={(path) => window.location.assign(path)} />;
}

function RoutedFullPageError(props: FullPageErrorProps) {
  const navigate = useNavigate();
  return <FullPageErrorView {...props} go={(path) => navigate(path)} />;
}

function FullPageErrorView({ code, message, retrying, go }: FullPageErrorProps & { go: (path: string) => void }) {
  return (
    <main className="shell-fullpage-error">
      <div className="shell-fullpage-error__card" role="alert" aria-labelledby="shell-fullpage-error-title">
        <div className="shell-fullpage-error__icon" aria-hidden>
          <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
            <path d="M12 9v4M12 17h.01" />
          </svg>
        </div>
        <h1 id="shell-fullpage-error-title">{Messages.somethingWentWrong}</h1>
        <p className="shell-fullpage-error__message">{message}</p>
        <p className="shell-fullpage-error__code">
          Error code: <code data-testid="error-code">{String(code)}</code>
        </p>
        {retrying && <p className="shell-fullpage-error__retrying">{Messages.retryingAutomatically}</p>}
        <div className="shell-fullpage-error__actions">
          <Button variant="primary" onClick={() => go('/projects')}>
            Back to projects
          </Button>
          <Button onClick={() => go(supportRequestPath(code, message))}>Submit a support request</Button>
        </div>
      </div>
    </main>
  );
}
