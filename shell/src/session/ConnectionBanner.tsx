import { useEffect, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Messages, type GatewayHealth } from '@dash/contracts';
import { baseApi, type AppDispatch, type RootState } from '@dash/shell-sdk';
import { selectUnreachableCount } from '../store';

/** How often `/health` is asked while the services are not ready. */
export const RECONNECT_POLL_MS = 2000;

/** What `/health` says is missing; null when the services are ready. */
async function notReady(): Promise<string | null> {
  try {
    const response = await fetch('/health', { cache: 'no-store' });
    if (response.ok) return null;
    const body = (await response.json().catch(() => null)) as Partial<GatewayHealth> | null;
    return body?.message ?? `The dashboard answered ${response.status}`;
  } catch {
    return 'The dashboard cannot be reached';
  }
}

/**
 * A call found the services unreachable (the sdk dispatched `servicesUnreachable`): ask `/health`, and
 * while it is not ready show a banner saying what is missing, asking again every two seconds. Once it
 * is ready again every query on the page is refetched, so open pages recover without a reload. A call
 * that failed for a reason of its own (a paused project's 503) finds `/health` ready and shows nothing.
 */
export function ConnectionBanner() {
  const count = useSelector((state: RootState) => selectUnreachableCount(state));
  const dispatch = useDispatch<AppDispatch>();
  const [missing, setMissing] = useState<string | null>(null);

  useEffect(() => {
    if (count === 0) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wasDown = false;
    const check = async () => {
      const problem = await notReady();
      if (!live) return;
      setMissing(problem);
      if (problem) {
        wasDown = true;
        timer = setTimeout(() => void check(), RECONNECT_POLL_MS);
      } else if (wasDown) {
        dispatch(baseApi.internalActions.onOnline());
      }
    };
    void check();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [count, dispatch]);

  if (!missing) return null;
  return (
    <div className="shell-connection-banner" role="status" aria-live="polite">
      <strong>{Messages.reconnecting}</strong> <span>{Messages.reconnectingDetail}</span>
      <span className="shell-connection-banner__detail">{missing}</span>
    </div>
  );
}
