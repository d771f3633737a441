import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createShutdownHandler } from './shutdown.js';

function setUp(close: () => Promise<void>) {
  const exit = vi.fn<(code: number) => void>();
  const messages: string[] = [];
  const log = {
    info: (_details: object, message: string) => messages.push(message),
    error: (_details: object, message: string) => messages.push(message),
  };
  const shutdown = createShutdownHandler({ close, deadlineMs: 10_000, log, exit });
  return { shutdown, exit, messages };
}

const never = () => new Promise<void>(() => {});

describe('the shutdown on SIGTERM/SIGINT', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes the app, then exits 0', async () => {
    const close = vi.fn(async () => {});
    const { shutdown, exit } = setUp(close);
    shutdown('SIGTERM');
    await vi.runAllTimersAsync();
    expect(close).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledExactlyOnceWith(0);
  });

  it('exits 1 when closing fails', async () => {
    const { shutdown, exit, messages } = setUp(async () => {
      throw new Error('database gone');
    });
    shutdown('SIGTERM');
    await vi.runAllTimersAsync();
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    expect(messages).toContain('shutdown failed');
  });

  it('exits anyway when closing outlasts the deadline', async () => {
    const { shutdown, exit, messages } = setUp(never);
    shutdown('SIGTERM');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    expect(messages).toContain('shutdown did not finish within 10 s: exiting anyway');
  });

  it('exits at once on a second signal, with the code a shell reports for it', async () => {
    const close = vi.fn(never);
    const { shutdown, exit } = setUp(close);
    shutdown('SIGINT');
    shutdown('SIGINT');
    expect(exit).toHaveBeenCalledExactlyOnceWith(130);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
