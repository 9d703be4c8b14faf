import { Navigate } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Spinner } from '@dash/shell-sdk/ui';
import { useListSnippetsQuery } from '../api/snippets';
import { sqlPaths } from '../paths';
import { mostRecent } from '../snippets/grouping';

/** `/sql`: the most recently changed snippet, or a new query when there is none (or the list failed). */
export function ToRecentSnippet() {
  const ref = useProjectRef();
  const { data, isLoading } = useListSnippetsQuery({ ref });
  if (isLoading) return <Spinner label="Loading queries" />;
  const recent = data ? mostRecent(data) : undefined;
  return <Navigate to={recent ? sqlPaths.snippet(ref, recent.id) : sqlPaths.newQuery(ref)} replace />;
}
