import { describe, expect, it } from 'vitest';
import {
  benignSvg,
  flatSvgOfSize,
  nestedGroupsSvg,
  svgNestedToLevel,
  svgWithElements,
} from '../../../../test/support/logo-fixtures.js';
import { refusalReason } from '../../../../test/support/svg-refusal.js';
import { assertSvgWithinLimits, svgLimits } from './svg-limits.js';

const refusal = (text: string) => refusalReason(() => assertSvgWithinLimits(text));

const open = '<svg xmlns="http://www.w3.org/2000/svg">';

describe('assertSvgWithinLimits', () => {
  it('lets an ordinary logo through and counts its elements and depth', () => {
    // The XML declaration, then svg, defs, linearGradient, 2 stops, symbol, circle, style, rect, path, use, text.
    expect(assertSvgWithinLimits(benignSvg)).toEqual({ nodes: 13, depth: 4 });
  });

  it('refuses 10,000 nested groups, naming the depth limit', () => {
    expect(refusal(nestedGroupsSvg(10_000))).toContain(`at most ${svgLimits.maxDepth} levels deep`);
  });

  it('refuses a 4 MiB flat SVG, naming the size limit and the file’s size', () => {
    expect(refusal(flatSvgOfSize(4 * 1024 * 1024))).toMatch(/at most 512 KB; this one is 40\d\d KB/);
  });

  it('lets exactly 512 KB through and refuses one byte more, counted in UTF-8 bytes', () => {
    const atLimit = `${open}<text>${'a'.repeat(svgLimits.maxBytes - open.length - '<text></text></svg>'.length)}</text></svg>`;
    expect(Buffer.byteLength(atLimit)).toBe(svgLimits.maxBytes);
    expect(assertSvgWithinLimits(atLimit).nodes).toBe(2);
    expect(refusal(atLimit.replace('<text>a', '<text>é'))).toContain('at most 512 KB');
  });

  it('lets nesting through at the depth limit and refuses one level more', () => {
    expect(assertSvgWithinLimits(svgNestedToLevel(svgLimits.maxDepth)).depth).toBe(svgLimits.maxDepth);
    expect(refusal(svgNestedToLevel(svgLimits.maxDepth + 1))).toContain('levels deep');
  });

  it('lets the element limit through and refuses one element more', () => {
    expect(assertSvgWithinLimits(svgWithElements(svgLimits.maxNodes)).nodes).toBe(svgLimits.maxNodes);
    expect(refusal(svgWithElements(svgLimits.maxNodes + 1))).toContain(`at most ${svgLimits.maxNodes} elements`);
  });

  it('counts comments, processing instructions and CDATA sections, which the parser builds as nodes too', () => {
    for (const node of ['<!---->', '<?x?>', '<![CDATA[]]>']) {
      expect(refusal(`${open}${node.repeat(svgLimits.maxNodes)}</svg>`), node).toContain('elements');
    }
  });

  it('refuses an element with more attributes than any logo needs', () => {
    const attributes = (count: number) => Array.from({ length: count }, (_, index) => `a${index}="1"`).join(' ');
    const rect = (count: number) => `${open}<rect ${attributes(count)}/></svg>`;
    expect(assertSvgWithinLimits(rect(svgLimits.maxAttributesPerElement)).nodes).toBe(2);
    expect(refusal(rect(svgLimits.maxAttributesPerElement + 1))).toContain('attributes');
  });

  it('reads markup the way the XML parser does: > in quoted values, tags inside comments and CDATA', () => {
    const text = `${open}<text title="a > b" lang='x/>'>1 > 0</text><!-- <g><g> --><style><![CDATA[ <g> ]]></style></svg>`;
    expect(assertSvgWithinLimits(text)).toEqual({ nodes: 5, depth: 2 });
  });

  it('cannot be made to miss elements by an unclosed construct: counting stops only where parsing fails', () => {
    // Everything after an unclosed comment or value is inside it for the parser as well, which refuses the file.
    expect(assertSvgWithinLimits(`${open}<!-- ${'<g>'.repeat(10_000)}`).nodes).toBe(2);
    expect(assertSvgWithinLimits(`${open}<rect fill="${'<g>'.repeat(10_000)}`).nodes).toBe(2);
  });
});
