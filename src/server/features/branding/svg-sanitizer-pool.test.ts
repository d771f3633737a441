import { afterAll, describe, expect, it } from 'vitest';
import {
  benignSvg,
  costlyAllowedSvg,
  flatSvgOfSize,
  hostileSvgs,
  nestedGroupsSvg,
} from '../../../../test/support/logo-fixtures.js';
import { AppError } from '../../http/errors.js';
import { prepareLogo } from './logos.service.js';
import { SvgRejectedError, svgLimits, tooSlowToCheck } from './svg-limits.js';
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
  // Time enough for the costliest file the limits allow on a loaded machine: these tests are not about the bound.
  const shared = sanitizer({ deadlineMs: 60_000 });

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
    'is stopped at its time bound, the file refused naming the bound, and replaced for the next file',
    async () => {
      // The bound is read per file: the first gets 1 ms (so the refusal does not depend on the machine's speed), the
      // next enough time to load nothing new and check a logo.
      const bounds = [1, 60_000];
      const hurried = sanitizer({ deadlineMs: () => bounds.shift() ?? 60_000 });
      const error = await rejectionOf(hurried.sanitize(costlyAllowedSvg()));
      expect(error.reason).toBe(
        'This SVG took too long to check (over 1 ms), so it was stopped. Simplify it or upload it as PNG.',
      );
      await expect(hurried.sanitize(benignSvg)).resolves.toBe(sanitizeSvg(benignSvg));
    },
    THREAD_TEST_TIMEOUT,
  );

  it(
    'answers an upload stopped at its time bound as an invalid file, with the bound in the suggestion',
    async () => {
      const hurried = sanitizer({ deadlineMs: 1 });
      const refusal = await prepareLogo(hurried, Buffer.from(costlyAllowedSvg())).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        title: 'Invalid file type',
        message: 'Please upload an image file (SVG, PNG, JPG, GIF, or WebP)',
        suggestion: 'This SVG took too long to check (over 1 ms), so it was stopped. Simplify it or upload it as PNG.',
      });
    },
    THREAD_TEST_TIMEOUT,
  );

  it('bounds each file to 2 seconds by default, and says so', () => {
    expect(svgSanitizerDefaults.deadlineMs).toBe(svgLimits.maxCheckMs);
    expect(svgLimits.maxCheckMs).toBe(2_000);
    expect(tooSlowToCheck().reason).toBe(
      'This SVG took too long to check (over 2 seconds), so it was stopped. Simplify it or upload it as PNG.',
    );
  });

  it(
    'is stopped when it runs out of heap, the file refused, and replaced for the next file',
    async () => {
      // 48 MB holds jsdom and a logo, not the largest document the limits allow with a hundred attributes per element.
      // The deadline is out of the way: on a loaded machine the 2 s default came first (a CI run beside another).
      const small = sanitizer({ maxHeapMb: 48, deadlineMs: 100_000 });
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
