import { useLayoutEffect, useRef, type Dispatch, type RefObject } from 'react';
import type { Bucket } from '@dash/contracts';
import type { BucketArg } from '../api/objects';
import type { explorerReducer, ExplorerState } from './state';

export type ExplorerDispatch = Dispatch<Parameters<typeof explorerReducer>[1]>;

/** What the explorer's hooks share: the bucket, where its calls go, and the explorer's local state. */
export interface ExplorerScope {
  bucket: Bucket;
  target: BucketArg;
  /** The state as of the last render (see useLatestRef). */
  stateRef: RefObject<ExplorerState>;
  dispatch: ExplorerDispatch;
}

/** `value` as of the last render: async work reads the latest one, not that of the render that started it. */
export function useLatestRef<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
