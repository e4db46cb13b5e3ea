// The scrubber's unit of work (issue 12 §3), a pure function of (reference, task): read each claim of the chunk
// from its text, validate the chunk with the engine, and render the chunk's report rows. A claim on which the
// engine throws is rejected with the error and the rest of the chunk goes on. Run in a worker thread by tasks.ts.
import { crossClaimFacts, validateClaims, type CrossClaimFacts, type ValidationReference } from '../engines/validation/index.js';
import { claimOfCsvRows } from '../readers/claims/csv-claims.js';
import { claimOfJsonLine } from '../readers/claims/ndjson.js';
import type { ReadClaim, ReadItem } from '../readers/claims/types.js';
import {
  claimRow,
  claimStatusOf,
  csvText,
  findingJson,
  findingRow,
  rejectedClaimRow,
  rejectedRow,
} from '../reports/rows.js';
import type { Claim } from '../schemas/claim.js';
import type { ClaimResult } from '../schemas/findings.js';
import { countFinding, emptyStats, type ScrubTask, type ScrubTaskResult, type WorkUnit } from './messages.js';

/** The billing provider as the claim model knows it: contractor number, else state and ZIP5. */
function providerKey(claim: Claim): string {
  const p = claim.provider;
  if (p?.contractorNumber !== undefined) {
    return `contractor ${p.contractorNumber}`;
  }
  const where = [p?.state, p?.zip?.slice(0, 5)].filter((x) => x !== undefined).join(' ');
  return where === '' ? 'unknown' : where;
}

/** One unit → a read claim or a rejection. */
function readUnit(unit: WorkUnit, task: ScrubTask): ReadItem {
  switch (unit.t) {
    case 'csv':
      if (task.columns === undefined) {
        throw new TypeError('a CSV unit needs the task\'s "columns"');
      }
      return claimOfCsvRows(unit.group, task.columns, task.file);
    case 'json':
      return claimOfJsonLine(unit.text, unit.line, task.file);
    case 'item':
      return unit.item;
  }
}

/** Validates each claim alone, so one that throws is rejected with the error and the others still get answers. */
function validateOneByOne(ref: ValidationReference, claims: readonly ReadClaim[], task: ScrubTask): (ClaimResult | Error)[] {
  return claims.map((c) => {
    try {
      return validateClaims(ref, [c.claim], { checks: task.checks })[0] as ClaimResult;
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  });
}

/**
 * Scrubs one chunk.
 * @param ref - the reference, loaded once per thread
 * @param task - the chunk
 * @returns the chunk's report text and counts
 */
export function scrubChunk(ref: ValidationReference, task: ScrubTask): ScrubTaskResult {
  const stats = emptyStats();
  const t0 = performance.now();
  const items = task.units.map((u) => readUnit(u, task));
  const claims = items.filter((i): i is ReadClaim => i.kind === 'claim');
  const t1 = performance.now();
  let results: (ClaimResult | Error)[];
  try {
    results = validateClaims(ref, claims.map((c) => c.claim), { checks: task.checks });
  } catch {
    results = validateOneByOne(ref, claims, task);
  }
  const t2 = performance.now();

  const findingRows: (string | number)[][] = [];
  const claimRows: (string | number)[][] = [];
  const rejectedRows: (string | number)[][] = [];
  const ndjson: string[] = [];
  const facts: CrossClaimFacts[] = [];
  let next = 0;
  let order = task.firstOrder - 1;
  for (const item of items) {
    order++;
    stats.claims++;
    if (item.kind === 'rejected') {
      stats.claimsByStatus.rejected++;
      stats.linesRejected += item.records.length;
      claimRows.push(rejectedClaimRow(task.file, item.records[0]?.line ?? 1, item.claimId, item.records.length));
      for (const r of item.records) {
        rejectedRows.push(rejectedRow(r));
      }
      continue;
    }
    const result = results[next++] as ClaimResult | Error;
    if (result instanceof Error) {
      // A bug in a rule must not lose the claim: it is reported rejected, with the error, and the run goes on.
      stats.claimsByStatus.rejected++;
      stats.linesRejected += item.inputLines;
      const reason = `the validation engine failed on this claim: ${result.message}`;
      claimRows.push(rejectedClaimRow(task.file, item.line, item.claim.claimId, item.inputLines));
      for (let i = 0; i < item.inputLines; i++) {
        rejectedRows.push(rejectedRow({ file: task.file, line: item.line, claimId: item.claim.claimId, reason }));
      }
      continue;
    }
    if (task.crossClaim) {
      const f = crossClaimFacts(ref, item.claim, order, { checks: task.checks });
      facts.push(f);
      if (f.notChecked.length > 0) {
        result.notChecked.push(...f.notChecked);
      }
    }
    stats.linesScrubbed += item.inputLines;
    const status = claimStatusOf(result.findings);
    stats.claimsByStatus[status]++;
    const provider = providerKey(item.claim);
    const p = (stats.providers[provider] ??= { claims: 0, errors: 0, warnings: 0 });
    p.claims++;
    if (status === 'errors') {
      p.errors++;
    } else if (status === 'warnings') {
      p.warnings++;
    }
    claimRows.push(claimRow(task.file, item.line, item.claim, result.findings, result.notChecked));
    for (const f of result.findings) {
      countFinding(stats, f);
      if (task.reports.csv) {
        findingRows.push(findingRow(task.file, f));
      }
      if (task.reports.ndjson) {
        ndjson.push(findingJson(task.file, f));
      }
    }
    const seen = new Set<string>();
    for (const n of result.notChecked) {
      const key = `${n.rule}\t${n.missing}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      const entry = stats.notChecked[key];
      if (entry !== undefined) {
        entry.claims++;
      } else {
        stats.notChecked[key] = { claims: 1, reason: n.reason };
      }
    }
  }
  const out: ScrubTaskResult = {
    findingsCsv: csvText(findingRows),
    findingsNdjson: ndjson.length > 0 ? `${ndjson.join('\n')}\n` : '',
    claimsCsv: csvText(claimRows),
    rejectedCsv: csvText(rejectedRows),
    facts,
    stats,
  };
  const t3 = performance.now();
  stats.readMs = t1 - t0;
  stats.validateMs = t2 - t1;
  stats.renderMs = t3 - t2;
  return out;
}
