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

/** Answers once the thread has loaded this module (jsdom included), so that a sanitize's deadline starts there. */
export function ready(): true {
  return true;
}
