import { expect } from 'vitest';
import { SvgRejectedError } from '../../src/server/features/branding/svg-limits.js';

/** Runs an SVG check that must refuse the file and answers the reason it gives; fails when the file gets through. */
export function refusalReason(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(SvgRejectedError);
    return (error as SvgRejectedError).reason;
  }
  throw new Error('the SVG was not refused');
}
