// The control numbers of the 277CAs a run writes: from the minute the run started, one per X12 input.
import { describe, expect, it } from 'vitest';
import { ackControlNumber } from '../../src/pipeline/finish-run.js';

describe('ackControlNumber', () => {
  it('differs night to night, is the same for the same start, and numbers the inputs of one run apart', () => {
    const tonight = ackControlNumber('2026-11-26T01:00:00.000Z', 0);
    expect(ackControlNumber('2026-11-26T01:00:59.999Z', 0)).toBe(tonight);
    expect(ackControlNumber('2026-11-25T01:00:00.000Z', 0)).not.toBe(tonight);
    expect(ackControlNumber('2026-11-26T01:00:00.000Z', 1)).toBe(tonight + 1);
    for (const at of ['1970-01-01T00:00:00.000Z', '2026-11-26T01:00:00.000Z', '2099-12-31T23:59:00.000Z', 'not a date']) {
      for (const i of [0, 998, 999]) {
        const n = ackControlNumber(at, i);
        expect(Number.isInteger(n) && n >= 1 && n <= 999_999_999, `${at} ${String(i)}: ${String(n)}`).toBe(true);
      }
    }
  });
});
