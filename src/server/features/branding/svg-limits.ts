// How big and how deep an SVG logo may be, checked before any parser sees it (issue 8). Building a DOM with jsdom
// and walking it with DOMPurify costs far more than the bytes suggest: 10,000 nested <g> took 73 s and a 4 MiB flat
// SVG over 7 minutes and 1.26 GB. A logo needs none of that, so the text is measured first, in one linear pass that
// neither backtracks nor builds anything, and refused when it is beyond what any logo needs.

/** The file is not an SVG we accept; `reason` is for the seller's suggestion line. */
export class SvgRejectedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SvgRejectedError';
  }
}

export const svgLimits = {
  /**
   * Logos drawn for a header are a few KiB; detailed emblems exported from design tools stay under 200 KiB. 512 KiB
   * leaves room for those while keeping the worst document the sanitizer must build small: a logo that is larger is
   * better uploaded as PNG, whose 5 MB limit is the spec's.
   */
  maxBytes: 512 * 1024,
  /**
   * Elements, comments, processing instructions and CDATA sections together. Real logos have tens to a few hundred;
   * jsdom's cost per removed node grows with its siblings, so the count, not the bytes, bounds the sanitizer's time.
   */
  maxNodes: 4000,
  /** Design tools nest groups a dozen levels deep; DOMPurify's checks re-read whole subtrees at every level. */
  maxDepth: 64,
  /** Real elements carry a handful; removing an attribute costs a search through the others. */
  maxAttributesPerElement: 100,
  /**
   * How long checking one file may take in the sanitizer's thread before the thread is stopped and the file refused
   * (svg-sanitizer-pool.ts). Real logos take milliseconds; within the limits above, files built to be costly (hundreds
   * of elements with a hundred attributes each) took 1.2 s on a two-core machine under a load of 5, and 7.6 s for
   * the issue-28 probe under heavier load. Two seconds keeps a hostile file from holding the only thread for long,
   * and refuses only files no logo needs: they are told to simplify or use PNG.
   */
  maxCheckMs: 2_000,
} as const;

/** "2 seconds", "1 second", "250 ms": a time bound as the refusal names it. */
function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** The refusal of a file whose check ran past `maxCheckMs` (or the bound a sanitizer was given). */
export function tooSlowToCheck(maxCheckMs: number = svgLimits.maxCheckMs): SvgRejectedError {
  return new SvgRejectedError(
    `This SVG took too long to check (over ${durationText(maxCheckMs)}), so it was stopped. Simplify it or upload it as PNG.`,
  );
}

export type SvgMeasure = { nodes: number; depth: number };

const KIB = 1024;

function tooLarge(bytes: number): SvgRejectedError {
  return new SvgRejectedError(
    `An SVG logo may be at most ${svgLimits.maxBytes / KIB} KB; this one is ${Math.ceil(bytes / KIB)} KB. Simplify it or upload it as PNG.`,
  );
}

/**
 * Refuses an SVG text beyond `svgLimits` with a SvgRejectedError naming the limit; returns what it counted. Linear
 * in the text: every search starts where the previous one ended. Malformed markup is not judged here (the parser
 * refuses it), but it can never hide elements from the count: the scan stops only where the parser would fail.
 */
export function assertSvgWithinLimits(text: string): SvgMeasure {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > svgLimits.maxBytes) throw tooLarge(bytes);
  let nodes = 0;
  let depth = 0;
  let deepest = 0;
  const countNode = () => {
    nodes++;
    if (nodes > svgLimits.maxNodes) {
      throw new SvgRejectedError(
        `An SVG logo may have at most ${svgLimits.maxNodes} elements (comments and processing instructions included); this one has more. Simplify it or upload it as PNG.`,
      );
    }
  };
  let index = text.indexOf('<');
  while (index !== -1) {
    let end: number;
    if (text.startsWith('<!--', index)) {
      countNode();
      end = indexAfter(text, '-->', index + 4);
    } else if (text.startsWith('<![CDATA[', index)) {
      countNode();
      end = indexAfter(text, ']]>', index + 9);
    } else if (text.startsWith('<?', index)) {
      countNode();
      end = indexAfter(text, '?>', index + 2);
    } else if (text.startsWith('<!', index) || text.startsWith('</', index)) {
      // A DOCTYPE (the sanitizer refuses any with declarations) or an end tag.
      if (text[index + 1] === '/') depth = Math.max(0, depth - 1);
      end = indexAfter(text, '>', index + 2);
    } else {
      countNode();
      // The root is level 1; an empty element (`<rect/>`) has a level too, it just opens nothing below it.
      const level = depth + 1;
      if (level > svgLimits.maxDepth) {
        throw new SvgRejectedError(
          `An SVG logo may nest elements at most ${svgLimits.maxDepth} levels deep; this one goes deeper. Flatten its groups or upload it as PNG.`,
        );
      }
      deepest = Math.max(deepest, level);
      const tag = scanStartTag(text, index + 1);
      end = tag.end;
      if (!tag.isSelfClosing) depth = level;
    }
    if (end === -1) break;
    index = text.indexOf('<', end);
  }
  return { nodes, depth: deepest };
}

/** The index just past `token` searched from `from`, or -1 when it never comes (the parser will refuse the file). */
function indexAfter(text: string, token: string, from: number): number {
  const found = text.indexOf(token, from);
  return found === -1 ? -1 : found + token.length;
}

/**
 * Reads a start tag from just after its `<` to just past its `>`, skipping quoted attribute values (which may hold
 * `>`), and counts its attributes: in XML every attribute has a quoted value, so the values are the count.
 */
function scanStartTag(text: string, from: number): { end: number; isSelfClosing: boolean } {
  let attributes = 0;
  let index = from;
  while (index < text.length) {
    const character = text[index];
    if (character === '"' || character === "'") {
      attributes++;
      if (attributes > svgLimits.maxAttributesPerElement) {
        throw new SvgRejectedError(
          `An SVG logo element may have at most ${svgLimits.maxAttributesPerElement} attributes; one has more. Simplify it or upload it as PNG.`,
        );
      }
      const close = text.indexOf(character, index + 1);
      if (close === -1) return { end: -1, isSelfClosing: false };
      index = close + 1;
    } else if (character === '>') {
      return { end: index + 1, isSelfClosing: text[index - 1] === '/' };
    } else {
      index++;
    }
  }
  return { end: -1, isSelfClosing: false };
}
