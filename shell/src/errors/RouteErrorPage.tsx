import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { FullPageError } from './FullPageError';

/** The router's errorElement: a crash anywhere in the shell's own routes lands here. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const message = typeof error.data === 'string' && error.data ? error.data : error.statusText || 'Unexpected error';
    return <FullPageError code={error.status} message={message} />;
  }
  const message = error instanceof Error ? error.message : String(error ?? 'Unexpected error');
  return <FullPageError code="UNEXPECTED_ERROR" message={message} />;
}

export function NotFoundPage({ message = 'Page not found' }: { message?: string }) {
  return <FullPageError code={404} message={message} />;
}
