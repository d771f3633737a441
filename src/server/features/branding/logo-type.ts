// What an uploaded logo is, decided by its bytes (DESIGN "Security rules: uploads"): the file name and the type the
// browser claims are the uploader's to choose, so neither is read. Raster formats by their signatures; SVG is text
// and is recognised (and made safe) by svg-sanitizer.ts.

export type LogoFormat = 'png' | 'jpg' | 'gif' | 'webp' | 'svg';

export const logoContentTypes: Record<LogoFormat, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ascii(bytes: Buffer, start: number, end: number): string {
  return bytes.subarray(start, end).toString('latin1');
}

/** PNG, JPEG, GIF or WebP by signature; undefined for anything else (SVG included). */
export function detectRasterFormat(bytes: Buffer): Exclude<LogoFormat, 'svg'> | undefined {
  // PNG: the signature, then the IHDR chunk that must come first (so eight magic bytes alone do not pass).
  if (bytes.length >= 16 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && ascii(bytes, 12, 16) === 'IHDR') {
    return 'png';
  }
  // JPEG: start of image, then the first marker's 0xFF.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const gifHeader = ascii(bytes, 0, 6);
  if (bytes.length >= 13 && (gifHeader === 'GIF87a' || gifHeader === 'GIF89a')) return 'gif';
  // WebP: a RIFF container of form WEBP whose first chunk is one of the three VP8 variants.
  if (
    bytes.length >= 16 &&
    ascii(bytes, 0, 4) === 'RIFF' &&
    ascii(bytes, 8, 12) === 'WEBP' &&
    ['VP8 ', 'VP8L', 'VP8X'].includes(ascii(bytes, 12, 16))
  ) {
    return 'webp';
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The file as text when it could be an SVG: valid UTF-8 (byte order mark dropped) whose first markup, after an XML
 * declaration, comments and a DOCTYPE, opens an `svg` element. Parsing decides the rest.
 */
export function svgTextOf(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = firstMarkupIndex(text);
  return /^<svg[\s>/]/i.test(text.slice(start, start + 5)) ? text : undefined;
}

/** Index of the first element's `<`, past an XML declaration, comments and a DOCTYPE (a scan, not a regex, to stay linear). */
function firstMarkupIndex(text: string): number {
  const skipSpace = (from: number) => {
    let index = from;
    while (index < text.length && /\s/.test(text[index]!)) index++;
    return index;
  };
  const skipPast = (from: number, end: string) => {
    const found = text.indexOf(end, from);
    return found === -1 ? text.length : found + end.length;
  };
  let index = skipSpace(0);
  if (text.startsWith('<?xml', index)) index = skipSpace(skipPast(index, '?>'));
  for (;;) {
    if (text.startsWith('<!--', index)) {
      index = skipSpace(skipPast(index + 4, '-->'));
    } else if (text.slice(index, index + 9).toUpperCase() === '<!DOCTYPE') {
      const close = text.indexOf('>', index);
      const subset = text.indexOf('[', index);
      index = skipSpace(subset !== -1 && subset < close ? skipPast(skipPast(subset, ']'), '>') : skipPast(index, '>'));
    } else {
      return index;
    }
  }
}
