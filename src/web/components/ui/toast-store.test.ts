import { describe, expect, it } from 'vitest';
import { type ToastData, toastReducer } from './toast-store';

const toast = (id: string, extra: Partial<ToastData> = {}): ToastData => ({ id, open: true, title: id, ...extra });

describe('toast store', () => {
  it('keeps only the newest toast when the limit is 1', () => {
    let state = toastReducer({ toasts: [] }, { type: 'add', toast: toast('a') }, 1);
    state = toastReducer(state, { type: 'add', toast: toast('b') }, 1);
    expect(state.toasts.map((t) => t.id)).toEqual(['b']);
  });

  it('puts the newest first', () => {
    let state = toastReducer({ toasts: [] }, { type: 'add', toast: toast('a') }, 3);
    state = toastReducer(state, { type: 'add', toast: toast('b') }, 3);
    expect(state.toasts.map((t) => t.id)).toEqual(['b', 'a']);
  });

  it('merges an update into the toast with the same id', () => {
    const state = toastReducer(
      { toasts: [toast('a', { description: 'old', variant: 'destructive' })] },
      { type: 'update', toast: { id: 'a', description: 'new' } },
      1,
    );
    expect(state.toasts[0]).toMatchObject({ id: 'a', title: 'a', description: 'new', variant: 'destructive' });
  });

  it('marks a dismissed toast closed without removing it', () => {
    const state = toastReducer({ toasts: [toast('a'), toast('b')] }, { type: 'dismiss', toastId: 'a' }, 3);
    expect(state.toasts.map((t) => [t.id, t.open])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('dismisses and removes every toast when no id is given', () => {
    const dismissed = toastReducer({ toasts: [toast('a'), toast('b')] }, { type: 'dismiss' }, 3);
    expect(dismissed.toasts.every((t) => !t.open)).toBe(true);
    expect(toastReducer(dismissed, { type: 'remove' }, 3).toasts).toEqual([]);
  });

  it('removes one toast by id', () => {
    const state = toastReducer({ toasts: [toast('a'), toast('b')] }, { type: 'remove', toastId: 'b' }, 3);
    expect(state.toasts.map((t) => t.id)).toEqual(['a']);
  });
});
