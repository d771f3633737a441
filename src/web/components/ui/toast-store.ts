import type { ReactNode } from 'react';

export type ToastVariant = 'default' | 'destructive';

export type ToastData = {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds on screen; the Toaster's default (5 s) when absent. */
  duration?: number;
  open: boolean;
};

export type ToastState = { toasts: ToastData[] };

export type ToastAction =
  | { type: 'add'; toast: ToastData }
  | { type: 'update'; toast: Partial<ToastData> & { id: string } }
  | { type: 'dismiss'; toastId?: string }
  | { type: 'remove'; toastId?: string };

/**
 * Newest first, at most `limit` kept; update merges by id; dismiss marks closed (Radix then animates out);
 * remove drops the entry. Without an id, dismiss and remove apply to every toast.
 */
export function toastReducer(state: ToastState, action: ToastAction, limit: number): ToastState {
  switch (action.type) {
    case 'add':
      return { toasts: [action.toast, ...state.toasts].slice(0, limit) };
    case 'update':
      return {
        toasts: state.toasts.map((toast) => (toast.id === action.toast.id ? { ...toast, ...action.toast } : toast)),
      };
    case 'dismiss':
      return {
        toasts: state.toasts.map((toast) =>
          action.toastId === undefined || toast.id === action.toastId ? { ...toast, open: false } : toast,
        ),
      };
    case 'remove':
      return {
        toasts: action.toastId === undefined ? [] : state.toasts.filter((toast) => toast.id !== action.toastId),
      };
  }
}
