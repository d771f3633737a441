import { describe, expect, it } from 'vitest';
import { benignSvg, tinyGif, tinyJpeg, tinyPng, tinyWebp } from '../../../../test/support/logo-fixtures.js';
import { detectRasterFormat, svgTextOf } from './logo-type.js';

describe('detectRasterFormat', () => {
  it('recognises PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(detectRasterFormat(tinyPng())).toBe('png');
    expect(detectRasterFormat(tinyJpeg())).toBe('jpg');
    expect(detectRasterFormat(tinyGif())).toBe('gif');
    expect(detectRasterFormat(tinyWebp())).toBe('webp');
  });

  it('recognises nothing else, whatever the file would be called', () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]);
    for (const bytes of [
      elf,
      Buffer.from('#!/bin/sh\necho pwned\n'),
      Buffer.from('MZ\x90\x00'),
      Buffer.from('%PDF-1.7\n'),
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // a PNG signature and nothing after it
      Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '),
      Buffer.alloc(0),
      Buffer.from(benignSvg),
    ]) {
      expect(detectRasterFormat(bytes)).toBeUndefined();
    }
  });
});

describe('svgTextOf', () => {
  it('reads an SVG past its XML declaration, comments, DOCTYPE and byte order mark', () => {
    expect(svgTextOf(Buffer.from(benignSvg))).toBe(benignSvg);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<!-- a -->\n<svg/>')]);
    expect(svgTextOf(withBom)).toBe('<!-- a -->\n<svg/>');
  });

  it('refuses text that does not start with an svg element, and bytes that are not UTF-8', () => {
    expect(svgTextOf(Buffer.from('#!/bin/sh\n<svg/>'))).toBeUndefined();
    expect(svgTextOf(Buffer.from('<html><svg/></html>'))).toBeUndefined();
    expect(svgTextOf(Buffer.from('<svgfoo/>'))).toBeUndefined();
    expect(svgTextOf(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe]))).toBeUndefined();
  });

  it('scans a long run of unclosed comments in linear time', () => {
    const started = performance.now();
    expect(svgTextOf(Buffer.from('<!-- --> '.repeat(200_000)))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
