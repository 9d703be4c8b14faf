import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from './api';
import { toastsSlice } from './toasts';

/**
 * The root reducer of the page. Remotes add their own slices at run time with `rootReducer.inject(slice)`;
 * the shell owns the only store.
 */
export const rootReducer = combineSlices(baseApi, toastsSlice).withLazyLoadedSlices<LazyLoadedSlices>();

/** Remotes extend this interface (declaration merging) for the slices they inject. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export function createStore(preloadedState?: Partial<ReturnType<typeof rootReducer>>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as ReturnType<typeof rootReducer> | undefined,
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type DashStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = DashStore['dispatch'];
