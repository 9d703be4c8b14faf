import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
  description?: string;
  durationMs: number;
}

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    showToast: {
      reducer: (state, action: PayloadAction<Toast>) => {
        state.push(action.payload);
      },
      prepare: (toast: Omit<Toast, 'id' | 'durationMs'> & { durationMs?: number }) => ({
        payload: { id: nanoid(), durationMs: 5000, ...toast },
      }),
    },
    dismissToast: (state, action: PayloadAction<string>) => state.filter((t) => t.id !== action.payload),
  },
  selectors: { selectToasts: (state) => state },
});

export const { showToast, dismissToast } = toastsSlice.actions;
export const { selectToasts } = toastsSlice.selectors;
