import { afterAll, describe, expect, it } from 'vitest';
import {
  benignSvg,
  costlyAllowedSvg,
  flatSvgOfSize,
  hostileSvgs,
  nestedGroupsSvg,
} from '../../../../test/support/logo-fixtures.js';
import { SvgRejectedError, svgLimits } from './svg-limits.js';
import { sanitizeSvg } from './svg-sanitizer.js';
import {
  createSvgSanitizer,
  type SvgSanitizer,
  SvgSanitizerBusyError,
  svgSanitizerDefaults,
} from './svg-sanitizer-pool.js';

// The sanitizer as the upload uses it: measured on the calling thread, sanitized in a worker thread. Starting a
// thread loads jsdom (seconds on a busy machine), hence the long timeouts.
const THREAD_TEST_TIMEOUT = 120_000;

const started: SvgSanitizer[] = [];
function sanitizer(options: Partial<typeof svgSanitizerDefaults> = {}): SvgSanitizer {
  const created = createSvgSanitizer({ ...svgSanitizerDefaults, ...options });
  started.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(started.map((each) => each.close()));
});

async function rejectionOf(pending: Promise<unknown>): Promise<SvgRejectedError> {
  const error = await pending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SvgRejectedError);
  return error as SvgRejectedError;
}

describe('the SVG sanitizer thread', () => {
  const shared = sanitizer();

  it(
    'sanitizes a logo exactly as sanitizeSvg does',
    async () => {
      expect(await shared.sanitize(benignSvg)).toBe(sanitizeSvg(benignSvg));
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'refuses 10,000 nested groups and a 4 MiB flat SVG with the limit each broke',
    async () => {
      expect((await rejectionOf(shared.sanitize(nestedGroupsSvg(10_000)))).reason).toContain('levels deep');
      expect((await rejectionOf(shared.sanitize(flatSvgOfSize(4 * 1024 * 1024)))).reason).toContain('512 KB');
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'refuses entity declarations (billion laughs) from the thread as a refusal, not an error',
    async () => {
      const billionLaughs = hostileSvgs.find((entry) => entry.name.startsWith('billion laughs'))!;
      expect((await rejectionOf(shared.sanitize(billionLaughs.svg))).reason).toContain('entity declarations');
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'leaves the calling event loop free while a document is sanitized',
    async () => {
      const events: string[] = [];
      const sanitized = shared.sanitize(costlyAllowedSvg()).then(() => events.push('sanitized'));
      // Sanitizing on this thread would finish before the loop could turn to this callback.
      setImmediate(() => events.push('event loop turned'));
      await sanitized;
      expect(events).toEqual(['event loop turned', 'sanitized']);
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'refuses more waiting documents than it queues, as busy rather than invalid',
    async () => {
      const oneAtATime = sanitizer({ maxQueue: 1 });
      const first = oneAtATime.sanitize(benignSvg);
      await expect(oneAtATime.sanitize(benignSvg)).rejects.toBeInstanceOf(SvgSanitizerBusyError);
      await expect(first).resolves.toContain('<svg');
    },
    THREAD_TEST_TIMEOUT,
  );
});

describe('a thread that goes wrong', () => {
  it(
    'is stopped at the deadline and the file refused, naming the deadline',
    async () => {
      const hurried = sanitizer({ deadlineMs: 1 });
      const error = await rejectionOf(hurried.sanitize(costlyAllowedSvg()));
      expect(error.reason).toContain('took longer than 0.001 s');
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'is stopped when it runs out of heap, the file refused, and replaced for the next file',
    async () => {
      // 48 MB holds jsdom and a logo, not the largest document the limits allow with a hundred attributes per element.
      const small = sanitizer({ maxHeapMb: 48 });
      const attributes = Array.from(
        { length: svgLimits.maxAttributesPerElement },
        (_, i) => `a${i}="${'x'.repeat(30)}"`,
      );
      const heavy = `<svg xmlns="http://www.w3.org/2000/svg">${`<rect ${attributes.join(' ')}/>`.repeat(140)}</svg>`;
      expect((await rejectionOf(small.sanitize(heavy))).reason).toContain('needed more than 48 MB of memory');
      await expect(small.sanitize(benignSvg)).resolves.toBe(sanitizeSvg(benignSvg));
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'answers busy, without ending the process, when a thread cannot even start',
    async () => {
      const starved = sanitizer({ maxHeapMb: 4 });
      await expect(starved.sanitize(benignSvg)).rejects.toBeInstanceOf(SvgSanitizerBusyError);
    },
    THREAD_TEST_TIMEOUT,
  );
});
