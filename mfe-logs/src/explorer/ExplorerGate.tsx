import type { ReactNode } from 'react';
import { usePermission } from '@dash/shell-sdk';
import { NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission } from '@dash/contracts';

/** The explorer's pages need analytics read; without it, the spec's notice. */
export function ExplorerGate({ children }: { children: ReactNode }) {
  const { can, isLoading } = usePermission(Permission.AnalyticsRead);
  if (isLoading) return <Spinner />;
  if (!can) return <NoAccess what={Messages.noLogsAccess} />;
  return <>{children}</>;
}
