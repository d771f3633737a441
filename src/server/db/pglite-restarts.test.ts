import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStartParams } from './pglite-client.js';
import { initdbInChildProcess } from './pglite-initdb.js';
import { openRestartingPgliteThread } from './pglite-restarts.js';
import type { PgliteThreadClient } from './pglite-thread.js';

// The embedded database's thread ending by itself (here: a statement whose rows outgrow the thread's heap, which V8
// answers by ending the thread) must cost the server the statements that waited for it, not the database: a new
// thread opens the same folder, keeps what was committed, and answers what is asked meanwhile.

/** initdb and two openings of PGlite: seconds each on a busy machine. */
const TIMEOUT_MS = 120_000;

/** Rows of about 300 MB together: far beyond the test thread's heap of 24 MB. */
const ROWS_BEYOND_THE_HEAP = "select repeat('x', 1000) || i as big from generate_series(1, 300000) as i";

describe('the embedded database on a folder, when its thread ends', { timeout: TIMEOUT_MS }, () => {
  let root: string;
  let client: PgliteThreadClient | undefined;
  const events: string[] = [];
  let noticeLost = () => {};
  const lost = new Promise<void>((resolve) => {
    noticeLost = resolve;
  });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'packgate-pglite-restarts-'));
    const dataDir = path.join(root, 'pglite');
    const startParams = pgliteStartParams();
    await initdbInChildProcess(dataDir, startParams);
    client = await openRestartingPgliteThread(
      { dataDir, startParams },
      {
        onLost: (error) => {
          events.push(`lost: ${error.message}`);
          noticeLost();
        },
        onRestarted: () => events.push('restarted'),
        onRestartFailed: (error) => events.push(`restart failed: ${error.message}`),
      },
      { maxOldGenerationSizeMb: 24 },
    );
  }, TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('keeps what was committed, drops the transaction in flight and answers again on a new thread', async () => {
    const database = client as PgliteThreadClient;
    const notified: string[] = [];
    await database.listen('restart_test', (payload) => notified.push(payload));
    await database.exec('create table item (id int primary key)');
    await database.query('insert into item values (1)');

    const inFlight = database
      .transaction(async (tx) => {
        await tx.query('insert into item values (2)');
        await tx.query(ROWS_BEYOND_THE_HEAP);
      })
      .catch((error: Error) => error);
    const failure = await inFlight;
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/memory limit/);

    // Asked once the thread is known to have ended: it waits for the new one.
    await lost;
    const rows = await database.query<{ id: number }>('select id from item order by id');
    expect(rows.rows).toEqual([{ id: 1 }]);
    expect(events).toEqual([expect.stringMatching(/^lost: .*memory limit/), 'restarted']);
    expect(database.ready).toBe(true);

    // The new thread listens where the old one did, and writes as before.
    await database.query("notify restart_test, 'after the restart'");
    await database.query('insert into item values (3)');
    expect(notified).toEqual(['after the restart']);
    expect((await database.query<{ id: number }>('select id from item order by id')).rows).toEqual([
      { id: 1 },
      { id: 3 },
    ]);
  });

  it('refuses once closed, and opens no thread after', async () => {
    const database = client as PgliteThreadClient;
    await database.close();
    expect(database.closed).toBe(true);
    expect(database.ready).toBe(false);
    await expect(database.query('select 1')).rejects.toThrow('The embedded database is closed.');
    expect(events).toEqual([expect.stringMatching(/^lost: /), 'restarted']);
  });
});

describe('the embedded database, when a new thread cannot open its folder', { timeout: TIMEOUT_MS }, () => {
  let root: string;
  let client: PgliteThreadClient | undefined;

  afterAll(async () => {
    await client?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('tries again after a while, and answers from the folder once it opens', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'packgate-pglite-restarts-'));
    const dataDir = path.join(root, 'pglite');
    const movedAside = path.join(root, 'pglite-aside');
    const startParams = pgliteStartParams();
    await initdbInChildProcess(dataDir, startParams);
    const events: string[] = [];
    let noticeFailure = () => {};
    const failed = new Promise<void>((resolve) => {
      noticeFailure = resolve;
    });
    let noticeRestart = () => {};
    const restarted = new Promise<void>((resolve) => {
      noticeRestart = resolve;
    });
    client = await openRestartingPgliteThread(
      { dataDir, startParams },
      {
        onLost: () => {
          events.push('lost');
          // The folder is gone (a disk unmounted, say) when the new thread opens it: a file stands in its place.
          renameSync(dataDir, movedAside);
          writeFileSync(dataDir, 'not a folder');
        },
        onRestarted: () => {
          events.push('restarted');
          noticeRestart();
        },
        onRestartFailed: (_error, retryInMs) => {
          events.push(`failed, again in ${retryInMs} ms`);
          noticeFailure();
        },
      },
      { maxOldGenerationSizeMb: 24 },
    );
    await client.exec('create table item (id int primary key); insert into item values (1)');
    await expect(client.query(ROWS_BEYOND_THE_HEAP)).rejects.toThrow(/memory limit/);

    await failed;
    // Until the next attempt every statement fails at once rather than waiting.
    await expect(client.query('select 1')).rejects.toThrow('The embedded database is closed.');
    expect(client.ready).toBe(false);
    rmSync(dataDir);
    renameSync(movedAside, dataDir);

    await restarted;
    expect(events).toEqual(['lost', 'failed, again in 1000 ms', 'restarted']);
    expect((await client.query<{ id: number }>('select id from item')).rows).toEqual([{ id: 1 }]);
  });
});
