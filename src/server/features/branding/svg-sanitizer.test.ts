import { describe, expect, it } from 'vitest';
import {
  benignSvg,
  flatSvgOfSize,
  hostileSvgs,
  nestedGroupsSvg,
  svgNestedToLevel,
} from '../../../../test/support/logo-fixtures.js';
import { refusalReason } from '../../../../test/support/svg-refusal.js';
import { svgLimits } from './svg-limits.js';
import { SvgRejectedError, sanitizeCss, sanitizeSvg } from './svg-sanitizer.js';

const rejectionOf = (source: string) => refusalReason(() => sanitizeSvg(source));

describe('sanitizeSvg', () => {
  it('keeps a benign logo visually intact: shapes, gradient, symbol use, styles and text survive', () => {
    const clean = sanitizeSvg(benignSvg);
    expect(clean).toContain('<rect class="mark"');
    expect(clean).toContain('<path d="M50 10 L90 10 L70 30 Z"');
    expect(clean).toContain('<linearGradient id="accent">');
    expect(clean).toContain('xlink:href="#dot"');
    expect(clean).toContain('fill: url(#accent)');
    expect(clean).toContain('style="stroke: #8B5CF6; stroke-width: 2"');
    expect(clean).toContain('Acme &amp; Co');
    expect(clean).toContain('viewBox="0 0 100 40"');
    expect(clean).not.toContain('DOCTYPE');
  });

  it.each(hostileSvgs)('neutralizes $name', ({ svg, dangers }) => {
    let clean: string;
    try {
      clean = sanitizeSvg(svg);
    } catch (error) {
      // Refusing the file outright is also safe (DOCTYPE declarations are refused before parsing).
      expect(error).toBeInstanceOf(SvgRejectedError);
      return;
    }
    const lower = clean.toLowerCase();
    for (const danger of dangers) expect(lower, `${danger} in ${clean}`).not.toContain(danger);
    // What was harmless is still drawn.
    expect(clean).toMatch(/<(rect|circle)\b/);
  });

  it('refuses entity declarations before parsing', () => {
    const billionLaughs = hostileSvgs.find((entry) => entry.name.startsWith('billion laughs'))!;
    expect(() => sanitizeSvg(billionLaughs.svg)).toThrow(SvgRejectedError);
  });

  // Before the limits, the first took 73 s and the second over 7 minutes (1.26 GB) of a blocked event loop.
  it('refuses 10,000 nested groups before parsing, naming the depth limit', () => {
    expect(rejectionOf(nestedGroupsSvg(10_000))).toContain(`at most ${svgLimits.maxDepth} levels deep`);
  });

  it('refuses a 4 MiB flat SVG before parsing, naming the size limit', () => {
    expect(rejectionOf(flatSvgOfSize(4 * 1024 * 1024))).toContain('at most 512 KB');
  });

  it('sanitizes nesting at the depth limit and refuses one level more', () => {
    expect(sanitizeSvg(svgNestedToLevel(svgLimits.maxDepth))).toContain('<g><rect width="1" height="1"/></g>');
    expect(rejectionOf(svgNestedToLevel(svgLimits.maxDepth + 1))).toContain('levels deep');
  });

  it('refuses what is not a well-formed SVG document', () => {
    for (const text of [
      '<svg viewBox="0 0 1 1"><rect/></svg>', // no SVG namespace: browsers would not draw it as an image
      '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg">&nbsp;</svg>',
      '<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="http://www.w3.org/2000/svg"/></html>',
      '#!/bin/sh\nrm -rf /\n',
    ]) {
      expect(() => sanitizeSvg(text), text).toThrow(SvgRejectedError);
    }
  });
});

describe('sanitizeCss', () => {
  it('keeps ordinary declarations and fragment references', () => {
    expect(sanitizeCss('fill: url(#g); stroke: #fff')).toBe('fill: url(#g); stroke: #fff');
    expect(sanitizeCss(".a { fill: url('#g') }")).toBe(".a { fill: url('#g') }");
  });

  it('drops @import and replaces external url() with none', () => {
    expect(sanitizeCss('@import url(http://x/a.css); a { fill: red }')).toBe(' a { fill: red }');
    expect(sanitizeCss('fill: url(https://x/p.svg#a)')).toBe('fill: none');
    expect(sanitizeCss('fill: URL( "//x/p" )')).toBe('fill: none');
  });

  it('reads hostile CSS in linear time: long runs inside url( and unclosed comments', () => {
    // Each took minutes with the patterns `url\(\s*...\s*\)` and `\/\*[\s\S]*?\*\/`.
    expect(sanitizeCss(`fill: url(${' '.repeat(500_000)}`)).toBe('');
    expect(sanitizeCss('url(a'.repeat(100_000))).toBe('');
    expect(sanitizeCss('/* '.repeat(150_000))).toBe('');
  });

  it('empties CSS with escapes, expression(), bindings, other loaders or unclosed constructs', () => {
    for (const css of [
      'color: e\\78pression(alert(1))',
      'width: expression(alert(1))',
      '-moz-binding: url(#x)',
      'behavior: url(#x)',
      'background: image-set("https://x/a.png" 1x)',
      'fill: url("https://x/a',
      'fill: red /* unclosed',
      'a { background: url(#x) } b { background: uRl(javascript:alert(1)) }',
    ]) {
      expect(sanitizeCss(css), css).not.toMatch(/expression|binding|behavior|image-set|https|javascript/i);
    }
  });
});
