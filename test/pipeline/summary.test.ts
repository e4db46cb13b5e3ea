// buildSummary: the one builder of summary.json for a run and for a merge of shards.
import { describe, expect, it } from 'vitest';
import { buildSummary, historySummary, type SummaryInput } from '../../src/pipeline/summary.js';
import { emptyStats } from '../../src/workers/messages.js';

const inputs = [
  { name: 'a.837', format: 'x12' as const, claims: 0, linesRead: 0 },
  { name: 'b.837', format: 'x12' as const, claims: 0, linesRead: 0 },
];
const base: Omit<SummaryInput, 'stats'> = {
  inputs,
  startedAt: '2026-11-26T00:00:00.000Z',
  resumed: false,
  reference: { database: 'ref.sqlite', builtAt: 'b', schemaVersion: 1 },
  timing: { elapsedMs: 1, workers: 1, workerLoad: [], read: 0, wait: 0, write: 0, crossClaim: 0, peakRssMb: 1 },
  reports: [],
};

describe('buildSummary', () => {
  it('lists file problems in input order, then line, whatever order the shards gave them in', () => {
    const problems = [
      { file: 'b.837', line: 4, reason: 'GE01 says 2' },
      { file: 'a.837', line: 30, reason: 'SE01 says 99' },
      { file: 'a.837', line: 7, reason: 'SE01 says 98' },
    ];
    const summaryOf = (first: typeof problems): unknown => {
      const stats = emptyStats();
      stats.fileProblems = { count: 3, first: [...first] };
      return buildSummary({ ...base, stats }).fileProblems;
    };
    const expected = { count: 3, first: [problems[2], problems[1], problems[0]] };
    expect(summaryOf(problems)).toEqual(expected);
    expect(summaryOf([...problems].reverse())).toEqual(expected);
  });

  it('says what the history file gave: services loaded and the rows rejected', () => {
    const summary = buildSummary({
      ...base,
      stats: emptyStats(),
      history: historySummary('h.csv', { loaded: 5, rejectedCount: 1, rejected: [{ line: 3, reason: 'no patientId' }] }),
    });
    expect(summary.history).toEqual({ file: 'h.csv', services: 5, rejected: 1, firstRejected: [{ line: 3, reason: 'no patientId' }] });
    expect(buildSummary({ ...base, stats: emptyStats() }).history).toBeUndefined();
  });
});
