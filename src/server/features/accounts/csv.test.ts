import { describe, expect, it } from 'vitest';
import { itAnswersEachCase } from '../../../../test/support/case-tables.js';
import { csvCell, csvRow } from './csv.js';

describe('the export CSV', () => {
  itAnswersEachCase(csvCell, {
    'quotes cells with commas, quotes and line breaks, doubling quotes': [
      ['plain', 'plain'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
    ],
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}SUM(A1)`).replaceAll('"', '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    // Numbers are numbers, negative ones too.
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes empty cells, dates, lists and objects readably, one CRLF-ended record per row', () => {
    expect(csvRow([null, undefined, new Date('2026-03-10T12:00:00Z'), ['a', 'b'], { k: 1 }, true])).toBe(
      ',,2026-03-10T12:00:00.000Z,a b,"{""k"":1}",true\r\n',
    );
  });

  it('escapes a long cell in one pass', () => {
    const long = `${'"'.repeat(200_000)},`;
    expect(csvCell(long)).toHaveLength(400_003);
  });
});
