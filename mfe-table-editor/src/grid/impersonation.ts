import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { useCallback } from 'react';
import { rootReducer, type RootState } from '@dash/shell-sdk';
import type { Impersonation } from '@dash/contracts';

/**
 * The database role the grid acts as, per table (`ref:tableId`), kept in the shell's store so it stays
 * chosen while the user visits other tables and comes back. Absent means the default (postgres).
 */
export const gridRoleSlice = createSlice({
  name: 'tableEditorGridRole',
  initialState: { byTable: {} as Record<string, Impersonation> },
  reducers: {
    impersonate(state, action: PayloadAction<{ table: string; role: Impersonation | null }>) {
      const { table, role } = action.payload;
      if (role) state.byTable[table] = role;
      else delete state.byTable[table];
    },
  },
  selectors: { selectRoleOf: (state, table: string): Impersonation | undefined => state.byTable[table] },
});

declare module '@dash/shell-sdk' {
  // An interface, not a type: module augmentation merges interfaces only.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface LazyLoadedSlices extends WithSlice<typeof gridRoleSlice> {}
}

const injected = gridRoleSlice.injectInto(rootReducer);

export function useImpersonation(table: string): [Impersonation | undefined, (role: Impersonation | null) => void] {
  const dispatch = useDispatch();
  const role = useSelector((state: RootState) => injected.selectors.selectRoleOf(state, table));
  const setRole = useCallback((next: Impersonation | null) => dispatch(gridRoleSlice.actions.impersonate({ table, role: next })), [dispatch, table]);
  return [role, setRole];
}
