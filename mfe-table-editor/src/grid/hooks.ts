import { useCallback, useEffect, useRef, useState } from 'react';
import { CHANGES_SAVED_INDICATOR_MS } from '@dash/contracts';
import type { SaveState } from './GridFooter';

/** A stable function that always runs the latest `fn` (grid column definitions keep their identity). */
export function useLatestCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  ref.current = fn;
  return useCallback((...args: A) => ref.current(...args), []);
}

/**
 * The footer's save indicator: 'saving' while any write is under way, then 'Changes saved' for
 * CHANGES_SAVED_INDICATOR_MS, then back to Refresh (spec section 4). A failed write goes straight back.
 */
export function useSaveIndicator() {
  const [state, setState] = useState<SaveState>('idle');
  const pending = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const track = useCallback(async <T,>(write: () => Promise<T>): Promise<T> => {
    pending.current += 1;
    clearTimeout(timer.current);
    setState('saving');
    let ok = false;
    try {
      const result = await write();
      ok = true;
      return result;
    } finally {
      pending.current -= 1;
      if (pending.current === 0) {
        setState(ok ? 'saved' : 'idle');
        if (ok) timer.current = setTimeout(() => setState('idle'), CHANGES_SAVED_INDICATOR_MS);
      }
    }
  }, []);

  return { state, track };
}
