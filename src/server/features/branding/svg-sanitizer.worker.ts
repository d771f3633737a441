// The task a piscina worker thread runs for svg-sanitizer-pool.ts: jsdom and DOMPurify live only in these threads,
// never on the server's event loop.
import { SvgRejectedError, sanitizeSvg } from './svg-sanitizer.js';

/** A refusal travels as data: an error loses its class on the way back from a worker thread. */
export type SanitizeOutcome = { svg: string } | { rejected: string };

export default function sanitizeInWorker(source: string): SanitizeOutcome {
  try {
    return { svg: sanitizeSvg(source) };
  } catch (error) {
    if (error instanceof SvgRejectedError) return { rejected: error.reason };
    throw error;
  }
}

/**
 * Answers once the thread has loaded this module (jsdom included) and sanitized a first, empty document, so that a
 * file's time bound starts there: jsdom's and DOMPurify's first use in a thread costs about 100 ms more than the next
 * (more under load), which a logo must not be charged for.
 */
export function ready(): true {
  sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"/>');
  return true;
}
