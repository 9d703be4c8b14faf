import { createSlice, type WithSlice } from '@reduxjs/toolkit';
import { createStore, rootReducer, servicesUnreachable, sessionExpired } from '@dash/shell-sdk';

/**
 * Counts `sessionExpired` (dispatched by the sdk's baseQuery on any 401) and `servicesUnreachable`. The
 * store has no listener middleware of its own, so the shell observes the actions through a slice injected
 * like any remote's: `SessionWatcher` reacts to a change of the first count by sending the user to
 * sign-in, `ConnectionBanner` to the second by checking whether the services are there.
 */
export const shellSessionSlice = createSlice({
  name: 'shellSession',
  initialState: { expiredCount: 0, unreachableCount: 0 },
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, (state) => {
      state.expiredCount += 1;
    });
    builder.addCase(servicesUnreachable, (state) => {
      state.unreachableCount += 1;
    });
  },
  selectors: { selectExpiredCount: (state) => state.expiredCount, selectUnreachableCount: (state) => state.unreachableCount },
});

declare module '@dash/shell-sdk' {
  // An interface, not a type: module augmentation merges interfaces only.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface LazyLoadedSlices extends WithSlice<typeof shellSessionSlice> {}
}

const injected = shellSessionSlice.injectInto(rootReducer);
export const { selectExpiredCount, selectUnreachableCount } = injected.selectors;

/** The page's one store: the sdk's, with the shell's slice injected. */
export function createShellStore() {
  return createStore();
}
export type ShellStore = ReturnType<typeof createShellStore>;
