import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';
import { assertSvgWithinLimits, SvgRejectedError } from './svg-limits.js';

// An uploaded SVG is a document that can run script, load other documents and reach other hosts. Logos are served
// with a CSP sandbox and shown through <img> (where browsers run nothing), but a stored logo may also be opened
// directly or copied elsewhere, so the stored file itself must be inert: the file is parsed as XML (as browsers
// read image/svg+xml), passed through DOMPurify's SVG allowlist, stripped of every reference that leaves the
// document, and serialized again. A DOCTYPE with declarations (entities: billion laughs, external files) is
// refused before parsing; a plain DOCTYPE naming the SVG DTD, which many editors write, is dropped. Size, element
// count and depth are bounded first (svg-limits.ts); the upload runs this in a worker with a deadline, so even a
// miss there cannot stop the server.

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

export { SvgRejectedError };

// DOMPurify lowercases names before comparing, so the lists are lower case. Script and embedded documents;
// animation, which can rewrite an attribute (href) after sanitizing; elements that only make sense as handlers.
const FORBIDDEN_TAGS = [
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'embed',
  'object',
  'applet',
  'audio',
  'video',
  'canvas',
  'base',
  'meta',
  'link',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'set',
  'discard',
  'handler',
  'listener',
];
// Attributes that load or navigate elsewhere (a fragment href is handled in the hook), plus cursor (a URL).
const FORBIDDEN_ATTRIBUTES = [
  'target',
  'xml:base',
  'src',
  'srcset',
  'action',
  'formaction',
  'srcdoc',
  'data',
  'cursor',
  'attributename',
  'ev:event',
];

const purifyConfig: Config = {
  IN_PLACE: true,
  USE_PROFILES: { svg: true, svgFilters: true },
  // <use> draws a symbol from the same file; with the fragment-only href rule below it cannot fetch another file.
  ADD_TAGS: ['use'],
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
  ALLOW_DATA_ATTR: false,
  // A removed element goes with its content: the text of a <script> in another namespace must not stay behind.
  KEEP_CONTENT: false,
};

/** True when every reference in the value stays inside the document (`#id`); `url()` elsewhere or none. */
function isFragmentReference(value: string): boolean {
  return value.trim().startsWith('#');
}

// Every pattern here is matched by hand or is a plain literal: CSS comes from the uploader, and a pattern such as
// `url\(\s*...\s*\)` takes time quadratic in a run of spaces (issue 8).
const CSS_URL_START = /url\(/gi;
// Left after the URLs are dealt with, any of these (on the CSS without spaces, lower case) means the CSS tries
// something a logo never needs.
const CSS_DANGERS = [
  '\\',
  'url(',
  '@import',
  '@font-face',
  '@namespace',
  'expression(',
  'javascript:',
  'vbscript:',
  '-moz-binding',
  'behavior:',
  'image-set',
  'image(',
  'cross-fade',
  'element(',
  'src(',
];
const SPACE = /\s/;

/** The value without spaces and control characters, which URL parsers skip (`java\tscript:`). */
function compacted(value: string): string {
  let result = '';
  for (const character of value) if (character > ' ' && character !== '\u007f') result += character;
  return result;
}

/** The CSS without its comments, or undefined when one is left open (a lenient reader would hide what follows). */
function withoutCssComments(css: string): string | undefined {
  let result = '';
  let index = 0;
  for (;;) {
    const open = css.indexOf('/*', index);
    if (open === -1) return result + css.slice(index);
    const close = css.indexOf('*/', open + 2);
    if (close === -1) return undefined;
    result += css.slice(index, open);
    index = close + 2;
  }
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && SPACE.test(text[index]!)) index++;
  return index;
}

/**
 * The `url("...")`, `url('...')` or `url(...)` whose argument starts at `from` (just past `url(`): its target and the
 * index past its `)`, or undefined when it is not one of those.
 */
function readCssUrl(css: string, from: number): { target: string; end: number } | undefined {
  let index = skipSpace(css, from);
  let target: string;
  const quote = css[index];
  if (quote === '"' || quote === "'") {
    const close = css.indexOf(quote, index + 1);
    if (close === -1) return undefined;
    target = css.slice(index + 1, close);
    index = close + 1;
  } else {
    const start = index;
    while (index < css.length && !`)'"`.includes(css[index]!) && !SPACE.test(css[index]!)) index++;
    target = css.slice(start, index);
  }
  index = skipSpace(css, index);
  return css[index] === ')' ? { target, end: index + 1 } : undefined;
}

/**
 * CSS from a style attribute or element: comments and @import rules removed, `url()` to anything but a fragment
 * replaced by `none`; anything still doubtful (escapes, expression(), bindings, other loaders) empties it.
 */
export function sanitizeCss(css: string): string {
  let text = withoutCssComments(css);
  // Removing a comment may also join a `/` and a `*` into a new opening.
  if (text === undefined || text.includes('/*')) return '';
  text = text.replace(/@import\s+[^;]*;?/gi, '');
  // Fragment references are kept as written and left out of the check below, so that any url( the check still
  // finds is one this did not understand.
  let result = '';
  let outsideUrls = '';
  let index = 0;
  for (;;) {
    CSS_URL_START.lastIndex = index;
    const start = CSS_URL_START.exec(text);
    if (!start) break;
    const url = readCssUrl(text, start.index + start[0].length);
    if (!url) return '';
    const before = text.slice(index, start.index);
    result += before + (isFragmentReference(url.target) ? text.slice(start.index, url.end) : 'none');
    outsideUrls += `${before} `;
    index = url.end;
  }
  result += text.slice(index);
  outsideUrls += text.slice(index);
  const compact = compacted(outsideUrls).toLowerCase();
  return CSS_DANGERS.some((danger) => compact.includes(danger)) ? '' : result;
}

// On compacted values (no spaces); `data:` only where it starts a word, so that `metadata:` passes.
const SCRIPT_SCHEME = /(?:java|vb)script:|(?<![a-z])data:/i;

let purifier: { purify: DOMPurify; window: JSDOM['window'] } | undefined;

// One jsdom window and one DOMPurify for the process: creating them costs tens of milliseconds, and sanitizing is
// synchronous, so uploads cannot interleave on them.
function getPurifier(): { purify: DOMPurify; window: JSDOM['window'] } {
  if (purifier) return purifier;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style') node.textContent = sanitizeCss(node.textContent ?? '');
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue;
    const compact = compacted(value);
    if (name === 'href' || name.endsWith(':href')) {
      if (!isFragmentReference(value)) data.keepAttr = false;
      return;
    }
    if (name === 'style') {
      data.attrValue = sanitizeCss(value);
      if (data.attrValue.trim() === '') data.keepAttr = false;
      return;
    }
    if (name.startsWith('on') || SCRIPT_SCHEME.test(compact)) {
      data.keepAttr = false;
      return;
    }
    // Presentation attributes (fill, filter, mask, clip-path, marker-*) take url() too.
    if (/url\(/i.test(value) && sanitizeCss(value) !== value) data.keepAttr = false;
  });
  purifier = { purify, window };
  return purifier;
}

/** Refuses declarations before any parser sees them; drops a declaration-free DOCTYPE. */
function withoutDoctype(text: string): string {
  if (/<!ENTITY/i.test(text)) throw new SvgRejectedError('SVG files with entity declarations are not accepted.');
  const doctype = /<!DOCTYPE/i.exec(text);
  if (!doctype) return text;
  const close = text.indexOf('>', doctype.index);
  const subset = text.indexOf('[', doctype.index);
  if (close === -1 || (subset !== -1 && subset < close)) {
    throw new SvgRejectedError('SVG files with a DOCTYPE that declares anything are not accepted.');
  }
  const rest = text.slice(close + 1);
  if (/<!DOCTYPE/i.test(rest)) throw new SvgRejectedError('An SVG file has at most one DOCTYPE.');
  return text.slice(0, doctype.index) + rest;
}

/**
 * The SVG made inert, as UTF-8 text ready to store. Throws SvgRejectedError when the text is not a well-formed
 * SVG document (root `svg` in the SVG namespace), declares entities or exceeds `svgLimits`.
 */
export function sanitizeSvg(source: string): string {
  assertSvgWithinLimits(source);
  const { purify, window } = getPurifier();
  const document = new window.DOMParser().parseFromString(withoutDoctype(source), 'image/svg+xml');
  const root = document.documentElement;
  if (
    root?.localName !== 'svg' ||
    root.namespaceURI !== SVG_NAMESPACE ||
    document.getElementsByTagName('parsererror').length > 0
  ) {
    throw new SvgRejectedError('The file is not a well-formed SVG document.');
  }
  purify.sanitize(root, purifyConfig);
  if (!root.isConnected || root.localName !== 'svg') {
    throw new SvgRejectedError('Nothing of the SVG document was left after removing unsafe content.');
  }
  assertInert(root);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new window.XMLSerializer().serializeToString(root)}\n`;
}

/**
 * The root and every element below it, in document order. A walk over sibling links, not getElementsByTagName('*'):
 * jsdom's live collection recomputes on indexed access, which made this check quadratic in the element count.
 */
function* elementsOf(root: Element): Generator<Element> {
  let element: Element | null = root;
  while (element) {
    yield element;
    if (element.firstElementChild) {
      element = element.firstElementChild;
      continue;
    }
    while (element && element !== root && !element.nextElementSibling) element = element.parentElement;
    element = element === root || !element ? null : element.nextElementSibling;
  }
}

/** A last look at the result, independent of DOMPurify's lists: a miss here is a bug, so refuse the file. */
function assertInert(root: Element): void {
  const forbidden = new Set(FORBIDDEN_TAGS);
  for (const element of elementsOf(root)) {
    if (forbidden.has(element.localName.toLowerCase()) || element.namespaceURI !== SVG_NAMESPACE) {
      throw new SvgRejectedError(`The SVG still contained <${element.localName}> after sanitizing.`);
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const compact = compacted(attribute.value);
      const isUnsafe =
        name.startsWith('on') ||
        ((name === 'href' || name.endsWith(':href')) && !isFragmentReference(attribute.value)) ||
        SCRIPT_SCHEME.test(compact);
      if (isUnsafe) throw new SvgRejectedError(`The SVG still contained ${attribute.name} after sanitizing.`);
    }
  }
}
