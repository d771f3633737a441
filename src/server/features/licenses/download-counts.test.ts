import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type DownloadCounter, registerCountsBeforeOtherRequests } from './download-counts.js';

/** A counter whose pending counts are written when the test says so. */
function heldCounter() {
  let write = () => {};
  let written = Promise.resolve();
  const counter = {
    hasWaiting: false,
    flushes: 0,
    hold() {
      counter.hasWaiting = true;
      written = new Promise<void>((resolve) => {
        write = () => {
          counter.hasWaiting = false;
          resolve();
        };
      });
    },
    write: () => write(),
    flush() {
      counter.flushes++;
      return written;
    },
  };
  return counter;
}

const app = Fastify();
afterEach(() => app.close());

describe('registerCountsBeforeOtherRequests', () => {
  it('holds every request but a download until the counts still waiting are written', async () => {
    const counter = heldCounter();
    registerCountsBeforeOtherRequests(app, counter as unknown as DownloadCounter);
    app.get('/api/licenses', async () => ({ counted: !counter.hasWaiting }));
    app.get('/api/composer/download/acme/widget/v1.0.0', async () => 'zip');

    // Nothing waiting: nothing is held, and the counter is not even asked to flush.
    expect((await app.inject('/api/licenses')).json()).toEqual({ counted: true });
    expect(counter.flushes).toBe(0);

    counter.hold();
    // A download is answered while counts wait: a wave of zips is not turned into a statement per zip.
    expect((await app.inject('/api/composer/download/acme/widget/v1.0.0')).body).toBe('zip');
    expect(counter.flushes).toBe(0);

    let isAnswered = false;
    const read = app.inject('/api/licenses').then((response) => {
      isAnswered = true;
      return response.json();
    });
    // A second download is answered meanwhile; the read is not, until the counts are written.
    expect((await app.inject('/api/composer/download/acme/widget/v1.0.0')).statusCode).toBe(200);
    expect(isAnswered).toBe(false);
    counter.write();
    expect(await read).toEqual({ counted: true });
    expect(counter.flushes).toBe(1);
  });
});
