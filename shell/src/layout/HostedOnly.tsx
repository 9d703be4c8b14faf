import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useDashConfig } from '@dash/shell-sdk';
import { Spinner } from '@dash/shell-sdk/ui';

/** The self-hosted variant's one project: where account and settings pages send the user (§2). */
export const SELF_HOSTED_HOME = '/project/default';

/** A page of the hosted variant only: self-hosted, it redirects to the one project. */
export function HostedOnly({ children }: { children: ReactNode }) {
  const { mode, isLoading } = useDashConfig();
  if (isLoading) return <Spinner label="Loading" />;
  if (mode !== 'hosted') return <Navigate to={SELF_HOSTED_HOME} replace />;
  return children;
}
