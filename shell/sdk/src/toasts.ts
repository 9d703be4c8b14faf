import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
  description?: string;
  durationMs: number;
}

/** Toasts on screen at once: a burst of actions shows the newest, and never buries the page under them. */
export const MAX_VISIBLE_TOASTS = 3;

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    showToast: {
      reducer: (state, action: PayloadAction<Toast>) => {
        state.push(action.payload);
        if (state.length > MAX_VISIBLE_TOASTS) state.splice(0, state.length - MAX_VISIBLE_TOASTS);
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
