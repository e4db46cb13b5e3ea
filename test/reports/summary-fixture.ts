// A hand-made run summary for the report.html tests, checked against the ScrubSummary schema so it keeps its shape
// when the schema changes. Strings carry the characters a real run can meet in file names, rule ids and reasons
// (`<`, `&`, quotes), and counts are large enough to need thousands separators.
import { ScrubSummary } from '../../src/schemas/scrub.js';

/** A summary with hostile strings and 25 rules (more than the page lists). */
export function makeSummary(overrides: Partial<ScrubSummary> = {}): ScrubSummary {
  const byRule = Array.from({ length: 25 }, (_, i) => ({
    rule: i === 0 ? '<script>alert("rule")</script>' : `RULE_${String(i).padStart(2, '0')}`,
    error: 100 - i,
    warning: i,
    info: 1,
  }));
  const bySeverity = byRule.reduce(
    (s, r) => ({ error: s.error + r.error, warning: s.warning + r.warning, info: s.info + r.info }),
    { error: 0, warning: 0, info: 0 },
  );
  return ScrubSummary.parse({
    startedAt: '2025-03-01T09:00:00.000Z',
    finishedAt: '2025-03-01T09:02:03.456Z',
    resumed: false,
    inputs: [
      { name: 'claims <b>&"march"\'.csv', format: 'csv', claims: 12_000, linesRead: 40_100 },
      { name: 'late.ndjson', format: 'ndjson', claims: 345, linesRead: 900 },
    ],
    claims: { read: 12_345, clean: 9_876, warnings: 1_234, errors: 1_200, rejected: 35, cleanRate: 9_876 / 12_345, cleanNotChecked: 4_321 },
    linesRead: 41_000,
    linesScrubbed: 40_900,
    linesRejected: 100,
    accounting: { linesBalance: true, claimsReported: 12_345, claimsBalance: true },
    findings: { total: bySeverity.error + bySeverity.warning + bySeverity.info, bySeverity, byRule },
    rejectedRecords: 100,
    topProviders: [
      { provider: 'J "15" & <co>', claims: 4_000, errors: 700, warnings: 300 },
      { provider: 'CA 94110', claims: 800, errors: 50, warnings: 10 },
    ],
    reference: {
      database: '/data/build/reference<1>.sqlite',
      builtAt: '2025-02-28T12:00:00.000Z',
      schemaVersion: 7,
      releasesUsed: [
        { dataset: 'ncci-ptp', release: '2025Q1 & <x>', findings: 1_500 },
        { dataset: 'icd10cm', release: 'FY2025', findings: 700 },
      ],
    },
    notChecked: [
      {
        rule: 'MUE_<LIMIT>',
        missing: 'ncci-mue',
        reason: 'no MUE release covers dates of service < 2020 & "older"',
        claims: 42,
      },
    ],
    timing: {
      elapsedMs: 123_456,
      linesPerSecond: 332.1,
      workers: 2,
      workerLoadMs: [850, 910],
      workerHeapMb: [120, 121],
      mainReadMs: 20_000,
      mainWaitMs: 90_000,
      mainWriteMs: 5_000,
      crossClaimMs: 1_500,
      workerReadMs: 30_000,
      workerValidateMs: 180_000,
      workerRenderMs: 12_000,
      slowestStage: 'validate (workers)',
      peakRssMb: 512.4,
    },
    reports: ['findings.csv', 'claims.csv', 'rejected.csv', 'summary.json', 'report.html'],
    ...overrides,
  });
}

/** The figures the page shows by `data-total`, as the summary has them. */
export function expectedTotals(s: ScrubSummary): Record<string, number> {
  return {
    'claims-read': s.claims.read,
    'claims-clean': s.claims.clean,
    'claims-warnings': s.claims.warnings,
    'claims-errors': s.claims.errors,
    'claims-rejected': s.claims.rejected,
    'clean-not-checked': s.claims.cleanNotChecked,
    'lines-read': s.linesRead,
    'lines-scrubbed': s.linesScrubbed,
    'lines-rejected': s.linesRejected,
    'findings-total': s.findings.total,
  };
}
