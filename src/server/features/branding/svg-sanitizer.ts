import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';

// An uploaded SVG is a document that can run script, load other documents and reach other hosts. Logos are served
// with a CSP sandbox and shown through <img> (where browsers run nothing), but a stored logo may also be opened
// directly or copied elsewhere, so the stored file itself must be inert: the file is parsed as XML (as browsers
// read image/svg+xml), passed through DOMPurify's SVG allowlist, stripped of every reference that leaves the
// document, and serialized again. A DOCTYPE with declarations (entities: billion laughs, external files) is
// refused before parsing; a plain DOCTYPE naming the SVG DTD, which many editors write, is dropped.

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** The file is not an SVG we accept; `reason` is for the seller's suggestion line. */
export class SvgRejectedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SvgRejectedError';
  }
}

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

// url("..."), url('...') or url(...): group 1, 2 or 3 is the target.
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)/gi;
// Left after the URLs are dealt with, any of these means the CSS tries something a logo never needs.
const CSS_DANGER =
  /\\|url\(|@import|@font-face|@namespace|expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:|image-set|image\(|cross-fade|element\(|src\(/i;

const PLACEHOLDER = '\uE000';
const PLACEHOLDERS = /\uE000(\d+)\uE000/g;

/** The value without spaces and control characters, which URL parsers skip (`java\tscript:`). */
function compacted(value: string): string {
  let result = '';
  for (const character of value) if (character > ' ' && character !== '\u007f') result += character;
  return result;
}

/**
 * CSS from a style attribute or element: comments and @import rules removed, `url()` to anything but a fragment
 * replaced by `none`; anything still doubtful (escapes, expression(), bindings, other loaders) empties it.
 */
export function sanitizeCss(css: string): string {
  // A private-use character delimits the placeholders below; it has no business in a logo's CSS.
  if (css.includes(PLACEHOLDER)) return '';
  let text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // An unterminated comment would hide what follows from this check but not from a lenient reader.
  if (text.includes('/*')) return '';
  text = text.replace(/@import\s+[^;]*;?/gi, '');
  // Fragment references are set aside, so that any url( left afterwards is one this did not understand.
  const fragments: string[] = [];
  text = text.replace(CSS_URL, (whole, double?: string, single?: string, bare?: string) => {
    if (!isFragmentReference(double ?? single ?? bare ?? '')) return 'none';
    fragments.push(whole);
    return `${PLACEHOLDER}${fragments.length - 1}${PLACEHOLDER}`;
  });
  if (CSS_DANGER.test(text)) return '';
  return text.replace(PLACEHOLDERS, (_, index: string) => fragments[Number(index)]!);
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
 * SVG document (root `svg` in the SVG namespace) or declares entities.
 */
export function sanitizeSvg(source: string): string {
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

/** A last look at the result, independent of DOMPurify's lists: a miss here is a bug, so refuse the file. */
function assertInert(root: Element): void {
  const forbidden = new Set(FORBIDDEN_TAGS);
  for (const element of [root, ...Array.from(root.getElementsByTagName('*'))]) {
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
