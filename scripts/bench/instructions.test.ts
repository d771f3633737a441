import { describe, expect, it } from 'vitest';
import { dumpTotal, mainThreadDump } from './instructions.js';

describe("callgrind's dumps as the instruction counts read them", () => {
  it('take the count of the totals line', () => {
    const dump = [
      '# callgrind format',
      'version: 1',
      'events: Ir',
      'summary: 0',
      '',
      'fn=(1) main',
      '0 12',
      'totals: 188103953',
      '',
    ].join('\n');
    expect(dumpTotal(dump)).toBe(188_103_953);
  });

  it('refuse a dump without a count rather than read it as zero', () => {
    expect(() => dumpTotal('events: Ir\nsummary: 0\n')).toThrow(/no totals line/);
    expect(() => dumpTotal('totals: many\n')).toThrow(/not a count/);
  });

  it("pick the main thread's file of the process's dump, not another thread's or another process's", () => {
    const files = ['packgate.4242.3-02', 'packgate.4242.3-01', 'packgate.42.3-01', 'bare.4242.3-01', 'packgate.4242'];
    expect(mainThreadDump(files, 'packgate.4242')).toBe('packgate.4242.3-01');
    expect(mainThreadDump(['packgate.4242.3-02'], 'packgate.4242')).toBeUndefined();
  });
});
