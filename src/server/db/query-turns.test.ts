import { describe, expect, it } from 'vitest';
import { createQueryTurns } from './query-turns.js';

/** Resolves once the event loop has turned (an immediate set now has run). */
const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createQueryTurns', () => {
  it('lets statements run at once within a slice, then makes the next wait for the loop to turn', async () => {
    let now = 100;
    const turns = createQueryTurns(4, () => now);
    expect(turns.pauseIfLong()).toBeUndefined();
    now = 103.9;
    expect(turns.pauseIfLong()).toBeUndefined();
    now = 104;
    const turn = turns.pauseIfLong();
    expect(turn).toBeInstanceOf(Promise);
    // Every statement asked for in the spent slice waits for the same turn.
    expect(turns.pauseIfLong()).toBe(turn);
    let ranAfterTurn = false;
    const other = loopTurn().then(() => {
      ranAfterTurn = true;
    });
    await turn;
    await other;
    expect(ranAfterTurn).toBe(true);
    // The loop has turned: the next statement begins a new slice and runs at once, however late it is.
    now = 500;
    expect(turns.pauseIfLong()).toBeUndefined();
  });

  it('begins a new slice once the loop has turned, without any wait', async () => {
    let now = 0;
    const turns = createQueryTurns(4, () => now);
    expect(turns.pauseIfLong()).toBeUndefined();
    await loopTurn();
    now = 50;
    expect(turns.pauseIfLong()).toBeUndefined();
    now = 53;
    expect(turns.pauseIfLong()).toBeUndefined();
  });
});
