// Checks that a scrub run's reports agree with each other: every claims.csv row counts exactly its claim's rows of
// findings.csv (own and cross-claim), its status is their worst severity, and summary.json counts the same
// statuses. Claim ids must be unique per file in the run checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { ScrubSummary } from '../../src/schemas/scrub.js';

type Row = Record<string, string>;

/**
 * Asserts the agreement; returns how many claims have cross-claim findings, the statuses counted, and whether the
 * providers' counts could be checked too (only when the summary lists every provider).
 */
export function expectReportsAgree(
  out: string,
  summary: ScrubSummary,
): { crossClaimClaims: number; byStatus: Record<string, number>; providersChecked: boolean } {
  const claims = parse<Row>(readFileSync(join(out, 'claims.csv')), { columns: true });
  const findings = parse<Row>(readFileSync(join(out, 'findings.csv')), { columns: true });
  const of = new Map<string, { error: number; warning: number; info: number; crossClaim: number }>();
  for (const f of findings) {
    const key = `${f['file'] ?? ''}\t${f['claimId'] ?? ''}`;
    const c = of.get(key) ?? { error: 0, warning: 0, info: 0, crossClaim: 0 };
    c[f['severity'] as 'error' | 'warning' | 'info']++;
    c.crossClaim += (f['ruleId'] ?? '').startsWith('batch.') ? 1 : 0;
    of.set(key, c);
  }
  const byStatus: Record<string, number> = { clean: 0, warnings: 0, errors: 0, rejected: 0 };
  let crossClaimClaims = 0;
  let cleanNotChecked = 0;
  for (const row of claims) {
    const c = of.get(`${row['file'] ?? ''}\t${row['claimId'] ?? ''}`) ?? {
      error: 0,
      warning: 0,
      info: 0,
      crossClaim: 0,
    };
    const status =
      row['status'] === 'rejected' ? 'rejected' : c.error > 0 ? 'errors' : c.warning > 0 ? 'warnings' : 'clean';
    expect([row['claimId'], row['status'], row['errors'], row['warnings'], row['info'], row['crossClaim']]).toEqual([
      row['claimId'],
      status,
      String(c.error),
      String(c.warning),
      String(c.info),
      String(c.crossClaim),
    ]);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    crossClaimClaims += c.crossClaim > 0 ? 1 : 0;
    cleanNotChecked += status === 'clean' && Number(row['notChecked']) > 0 ? 1 : 0;
  }
  const { clean, warnings, errors, rejected } = summary.claims;
  expect({ clean, warnings, errors, rejected }).toEqual(byStatus);
  expect(summary.claims.cleanRate).toBeCloseTo(byStatus['clean']! / claims.length, 10);
  expect(summary.claims.cleanNotChecked).toBe(cleanNotChecked);
  // When every provider is listed, their claims by status add up to the run's.
  const sum = (k: 'claims' | 'errors' | 'warnings'): number => summary.topProviders.reduce((n, p) => n + p[k], 0);
  const providersChecked = sum('claims') === claims.length - (byStatus['rejected'] ?? 0);
  if (providersChecked) {
    expect({ errors: sum('errors'), warnings: sum('warnings') }).toEqual({
      errors: byStatus['errors'],
      warnings: byStatus['warnings'],
    });
  }
  return { crossClaimClaims, byStatus, providersChecked };
}
