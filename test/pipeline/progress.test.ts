// The progress display's text: a bar with percentage and ETA on a terminal, a plain line in a log.
import { describe, expect, it } from 'vitest';
import { clock, etaMs, progressLine } from '../../src/pipeline/progress.js';
import type { ScrubProgress } from '../../src/pipeline/run-scrub.js';

const at = (fraction: number | undefined, elapsedMs = 30_000): ScrubProgress => ({
  file: 'claims.csv',
  linesRead: 900_000,
  claims: 250_000,
  elapsedMs,
  fraction,
});

describe('progress', () => {
  it('estimates the time left from the rate so far, not before 1% is read', () => {
    expect(etaMs(at(0.25))).toBe(90_000);
    expect(etaMs(at(1))).toBe(0);
    expect(etaMs(at(0.005))).toBeUndefined();
    expect(etaMs(at(undefined))).toBeUndefined();
    // Counted from the first progress, the start-up before it left out: 0.5 of the input in 20 s, 0.25 left.
    expect(etaMs(at(0.75, 30_000), at(0.25, 10_000))).toBe(10_000);
    expect(etaMs(at(0.255, 30_000), at(0.25, 10_000))).toBeUndefined();
    // Everything read: nothing left, even on the first progress of a short run.
    expect(etaMs(at(1), at(1))).toBe(0);
  });

  it('writes durations as m:ss and h:mm:ss', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(65_400)).toBe('1:05');
    expect(clock(3_725_000)).toBe('1:02:05');
  });

  it('draws a bar with the percentage, counts, rate and ETA on a terminal, cut to its width', () => {
    expect(progressLine(at(0.25), true)).toBe(
      '[######------------------] 25% 900,000 lines  250,000 claims  30,000 lines/s  ETA 1:30  claims.csv',
    );
    expect(progressLine(at(0.25), true, 40)).toHaveLength(39);
    expect(progressLine(at(0.25), true, 0)).toBe(progressLine(at(0.25), true));
    // Without a fraction (--group-by) there is no bar: the time elapsed stands in for the ETA.
    expect(progressLine(at(undefined), true)).toBe('900,000 lines  250,000 claims  30,000 lines/s  0:30  claims.csv');
  });

  it('writes a log line with the same figures', () => {
    expect(progressLine(at(0.5), false)).toBe(
      'scrubbing claims.csv: 900,000 lines, 250,000 claims, 30,000 lines/s, 50%, ETA 0:30, 0:30 elapsed',
    );
    expect(progressLine(at(0.001), false)).toBe(
      'scrubbing claims.csv: 900,000 lines, 250,000 claims, 30,000 lines/s, 0%, ETA --:--, 0:30 elapsed',
    );
  });
});
