import { useSyncExternalStore } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../../lib/constants';
import { type ToastAction, type ToastData, type ToastState, toastReducer } from './toast-store';

export type { ToastData, ToastVariant } from './toast-store';

export type ToastInput = Omit<ToastData, 'id' | 'open'>;

let state: ToastState = { toasts: [] };
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function dispatch(action: ToastAction): void {
  state = toastReducer(state, action, TOAST_LIMIT);
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      dispatch({ type: 'remove', toastId: id });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Marks a toast (or every toast) closed; it is removed from the store after the removal delay. */
export function dismissToast(toastId?: string): void {
  const ids = toastId ? [toastId] : state.toasts.map((toast) => toast.id);
  for (const id of ids) scheduleRemoval(id);
  dispatch({ type: 'dismiss', toastId });
}

/** Shows a toast; returns handles to update (merge by id) or dismiss it. */
export function toast(input: ToastInput): { id: string; update: (patch: ToastInput) => void; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = `toast-${counter}`;
  dispatch({ type: 'add', toast: { ...input, id, open: true } });
  return {
    id,
    update: (patch) => dispatch({ type: 'update', toast: { ...patch, id } }),
    dismiss: () => dismissToast(id),
  };
}

/** Forgets every toast at once (logout clears all client state). */
export function clearToasts(): void {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  dispatch({ type: 'remove' });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const getState = () => state;

export function useToast(): ToastState & { toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getState, getState);
  return { ...current, toast, dismiss: dismissToast };
}

const FLASH_KEY = 'packgate:flash-toast';

/**
 * Shows a toast on the next page load: flows that end in a full reload (impersonation, admin sign-in)
 * would otherwise lose the toast the spec asks for.
 */
export function toastAfterReload(input: { title: string; description?: string; variant?: 'default' | 'destructive' }) {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(input));
  } catch {
    toast(input);
  }
}

/** Called once at start-up by the Toaster. */
export function showFlashToast(): void {
  try {
    const stored = sessionStorage.getItem(FLASH_KEY);
    if (!stored) return;
    sessionStorage.removeItem(FLASH_KEY);
    toast(JSON.parse(stored) as ToastInput);
  } catch {
    // A malformed or blocked entry is not worth an error screen.
  }
}
