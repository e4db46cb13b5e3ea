// Validation engine benchmark (issue 11 §5). Two parts:
//
// 1. Engine: seeded claims of 1-8 lines and 1-12 diagnoses drawn from the real rows of the built reference database
//    (ICD-10-CM billable codes in force on the date; HCPCS/CPT codes with an MUE row in the claim's setting table;
//    lab NCD HCPCS codes with diagnoses from their NCD's ICD-10 list; add-on codes with one of their listed primaries;
//    ICD-10-PCS procedures and patient age/sex/POA on the institutional claims), validated by `validateClaims` with
//    every rule on, on one core, after `ref.load()` (timed on its own). The first pass is timed and shown (answers
//    not yet remembered); then timed rounds, median shown; then each claim alone for µs per claim p50/p99. Baseline,
//    same run, its own connection: the bare lookups those claims need (codeDetails of the diagnoses and of the line
//    codes, then per line `edits.mue`, `labNcdsForHcpcs`, `ncdIcd10Resolution` per NCD and diagnosis, `aocForAddOn`).
//    Then each rule of RULES alone (`{ checks: [id] }`) against no rule at all (`{ checks: [] }`, the claim view
//    only), so the rules that cost are visible. Target: 100,000 claim lines/s on one core.
// 2. HTTP: CodeValidate (`POST /json/reply/CodeValidate`, 3 cptCodes and 4 icdCodes from the same pools) against a
//    bare node:http server answering a body of the same size, each in its own process as `npm run serve` runs the
//    product (test/bench/http-target.ts, auth off), autocannon in another, median of 3 rounds. The one request body
//    repeats, so the server's remembered answers are warm. Target: CodeValidate p99 under 5 ms at 16 connections.
//
// Usage: npm run bench -- validate [--db=data/build/reference.sqlite] [--size=20000] [--date=2026-05-15]
//          [--rounds=5] [--duration=5] [--connections=16] [--http-rounds=3] [--no-http] [--pool=N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { codeDetails } from '../../src/engines/codes/index.js';
import { RULES, validateClaims } from '../../src/engines/validation/index.js';
import type { RuleId } from '../../src/findings/codes.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import type { CodeValidate } from '../../src/schemas/code-validate.js';
import { MueSetting } from '../../src/schemas/edits.js';
import type { ClaimResult } from '../../src/schemas/findings.js';
import { claimMaker, dotted, loadClaimPools } from './claim-generator.js';
import { benchOptions, seededSampler } from './harness.js';
import { placement, printResults, roundsAgainstBare, startTarget, type LoadOptions } from './load.js';
import { machineLine } from './machine.js';

// Step 0: options. `--size` counts claims; the date defaults to one every loaded edit table covers.
const base = benchOptions(20_000);
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    'http-rounds': { type: 'string', default: '3' },
    'no-http': { type: 'boolean', default: false },
    pool: { type: 'string', default: '' },
  },
  strict: false,
});
const dbPath = base.config.refdataDb;
const size = base.size;
const date = process.argv.some((a) => a.startsWith('--date')) ? base.date : '2026-05-15';
const rounds = Math.min(Math.max(Number(values.rounds) || 5, 1), 21);
const duration = Math.min(Math.max(Number(values.duration) || 5, 1), 60);
const connections = Math.min(Math.max(Number(values.connections) || 16, 1), 100);
const httpRounds = Math.min(Math.max(Number(values['http-rounds']) || 3, 1), 9);
// `--pool=N` keeps N codes of each pool (diagnoses, ICD-10-PCS, MUE codes, ZIPs): a night's files repeat a few
// thousand codes, while the default draws from every code in force (the worst case for remembered answers).
const poolSize = Number(values.pool) > 0 ? Math.floor(Number(values.pool)) : undefined;
const TARGET_LINES_PER_S = 100_000;
const TARGET_P99_MS = 5;
const { random, pick } = seededSampler(0x0a11da7e);
const out = process.stdout;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

// Step 1: the pools, read straight from the database, and the claims.
const sampler = { random, pick };
const pools = loadClaimPools(dbPath, date, poolSize, sampler);
const { dxPool, pcsPool, mueBySetting, ncdDx, addOns, addOnPool, zipPool, labPool } = pools;
const makeClaim = claimMaker(pools, sampler, date);
const claims = Array.from({ length: size }, (_, i) => makeClaim(i + 1));
const lineTotal = claims.reduce((n, c) => n + c.lines.length, 0);
const institutionalCount = claims.filter((c) => c.claimType === 'institutional').length;
// Distinct codes matter: the engine remembers answers per code up to a bound (src/engines/answer-memory.ts).
const distinctDx = new Set(claims.flatMap((c) => c.diagnoses.map((d) => d.code.replace('.', '')))).size;
const distinctProcs = new Set(claims.flatMap((c) => c.lines.map((l) => l.procedureCode))).size;

out.write(
  `validation engine benchmark: ${fmt(size)} claims, ${fmt(lineTotal)} lines (${(lineTotal / size).toFixed(2)} per claim), ` +
    `${(claims.reduce((n, c) => n + c.diagnoses.length, 0) / size).toFixed(2)} diagnoses per claim, ` +
    `${fmt(institutionalCount)} institutional, ${fmt(distinctDx)} distinct diagnoses and ${fmt(distinctProcs)} distinct procedure codes, on ${date}, one core\n` +
    `pools${poolSize === undefined ? '' : ` (--pool=${String(poolSize)}: a sample of each)`}: ${fmt(dxPool.length)} ICD-10-CM, ${fmt(mueBySetting.practitioner.length)} + ${fmt(mueBySetting.hospital.length)} MUE (practitioner + outpatient hospital), ` +
    `${String(labPool.length)} lab NCD HCPCS, ${String(addOnPool.length)} add-on codes, ${fmt(pcsPool.length)} ICD-10-PCS, ${fmt(zipPool.length)} ZIPs\n` +
    `reference: ${dbPath}\n${machineLine()}\n\n`,
);

// Step 3: helpers for timing.
const time = (fn: () => void): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const perLineRate = (ms: number): number => (lineTotal / ms) * 1000;
const row = (label: string, ms: number): void => {
  out.write(
    `${label.padEnd(60)} ${ms.toFixed(0).padStart(7)} ms ${fmt(perLineRate(ms)).padStart(10)} lines/s ${fmt((size / ms) * 1000).padStart(9)} claims/s ${((ms * 1000) / size).toFixed(1).padStart(7)} us/claim\n`,
  );
};
const fresh = (): Reference => {
  const ref = openReference(dbPath);
  ref.load();
  return ref;
};

// Step 4: the baseline, on its own connection: the bare lookups the claims need, no rule logic.
interface BareClaim {
  readonly dx: readonly string[];
  readonly procs: readonly string[];
  readonly lines: readonly { readonly code: string; readonly dx: readonly string[] }[];
  readonly setting: MueSetting;
}
const bare: BareClaim[] = claims.map((c) => {
  const dx = c.diagnoses.map((d) => d.code);
  return {
    dx,
    procs: c.lines.map((l) => l.procedureCode),
    lines: c.lines.map((l) => ({
      code: l.procedureCode,
      dx: l.diagnosisPointers === undefined ? dx : l.diagnosisPointers.map((p) => dx[p - 1] as string),
    })),
    setting: c.claimType === 'institutional' ? MueSetting.outpatientHospital : MueSetting.practitioner,
  };
});
let baselineMs = 0;
{
  const ref = fresh();
  const pass = (): void => {
    for (const c of bare) {
      codeDetails(ref, c.dx, date, 'ICD-10 CM');
      codeDetails(ref, c.procs, date);
      for (const l of c.lines) {
        ref.edits.mue(l.code, date, c.setting);
        for (const ncd of ref.edits.labNcdsForHcpcs(l.code, date)) {
          for (const d of l.dx) {
            ref.edits.ncdIcd10Resolution(ncd.ncd, d, date);
          }
        }
        ref.edits.aocForAddOn(l.code, date);
      }
    }
  };
  row('baseline: bare lookups, first pass', time(pass));
  baselineMs = median(Array.from({ length: rounds }, () => time(pass)));
  row(`baseline: bare lookups, median of ${String(rounds)} rounds`, baselineMs);
  ref.close();
}

// Step 5: the engine, every rule on, on its own connection.
let engineMs = 0;
let results: ClaimResult[] = [];
const latencies: number[] = [];
{
  const ref = openReference(dbPath);
  const loadMs = time(() => ref.load());
  out.write(
    `${'load: ref.load() (tables into memory, once per thread)'.padEnd(60)} ${loadMs.toFixed(0).padStart(7)} ms\n`,
  );
  row(
    'engine: validateClaims, all rules, first pass',
    time(() => (results = validateClaims(ref, claims))),
  );
  engineMs = median(Array.from({ length: rounds }, () => time(() => validateClaims(ref, claims))));
  row(`engine: validateClaims, all rules, median of ${String(rounds)} rounds`, engineMs);
  for (const c of claims) {
    const t = performance.now();
    validateClaims(ref, [c]);
    latencies.push((performance.now() - t) * 1000);
  }
  latencies.sort((a, b) => a - b);
  const q = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  out.write(
    `engine: one claim per call: p50 ${q(0.5).toFixed(1)} us, p99 ${q(0.99).toFixed(1)} us, max ${q(1).toFixed(0)} us per claim\n`,
  );
  const findings = results.reduce((n, r) => n + r.findings.length, 0);
  const notChecked = results.reduce((n, r) => n + r.notChecked.length, 0);
  const bySeverity = new Map<string, number>();
  const byCode = new Map<string, number>();
  for (const r of results) {
    for (const f of r.findings) {
      bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
      byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
    }
  }
  out.write(
    `findings: ${(findings / size).toFixed(2)} per claim (${[...bySeverity].map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}), ` +
      `${(notChecked / size).toFixed(2)} notChecked per claim\n` +
      `  most frequent: ${[...byCode]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')}\n`,
  );
  const ratio = engineMs / baselineMs;
  out.write(
    `rules over raw lookups: the engine takes ${ratio.toFixed(2)}x the baseline's time ` +
      `(${(((engineMs - baselineMs) * 1000) / size).toFixed(1)} us per claim ${engineMs >= baselineMs ? 'more' : 'less'})\n` +
      `target: >= ${fmt(TARGET_LINES_PER_S)} claim lines/s on one core: ${perLineRate(engineMs) >= TARGET_LINES_PER_S ? 'MET' : 'MISSED'} (${fmt(perLineRate(engineMs))} lines/s)\n\n`,
  );

  // Step 6: each rule alone, against the claim view alone (no rule): what each rule adds.
  const best = (checks: readonly RuleId[]): number => {
    validateClaims(ref, claims, { checks });
    return Math.min(
      time(() => validateClaims(ref, claims, { checks })),
      time(() => validateClaims(ref, claims, { checks })),
    );
  };
  const viewMs = best([]);
  out.write(`per rule (each alone, best of 2 passes over the same claims; "adds" = over the claim view alone):\n`);
  out.write(
    `${'rule'.padEnd(30)}${'lines/s'.padStart(12)}${'adds us/claim'.padStart(15)}${'adds us/line'.padStart(14)}\n`,
  );
  out.write(
    `${'(none: claim view only)'.padEnd(30)}${fmt(perLineRate(viewMs)).padStart(12)}${'-'.padStart(15)}${'-'.padStart(14)}\n`,
  );
  const perRule = RULES.map((rule) => ({ id: rule.id, ms: best([rule.id]) }));
  for (const r of perRule) {
    const extra = Math.max(0, r.ms - viewMs);
    out.write(
      `${r.id.padEnd(30)}${fmt(perLineRate(r.ms)).padStart(12)}${((extra * 1000) / size).toFixed(2).padStart(15)}${((extra * 1000) / lineTotal).toFixed(2).padStart(14)}\n`,
    );
  }
  const extras = perRule.map((r) => ({ id: r.id, extra: Math.max(0, r.ms - viewMs) }));
  const sumExtra = extras.reduce((n, r) => n + r.extra, 0);
  out.write(
    `claim view alone: ${((viewMs / engineMs) * 100).toFixed(0)}% of the all-rules time; costliest rules: ${[...extras]
      .sort((a, b) => b.extra - a.extra)
      .slice(0, 4)
      .map((r) => `${r.id} ${((r.extra / Math.max(sumExtra, 1e-9)) * 100).toFixed(0)}%`)
      .join(', ')} of the rules' summed cost\n\n`,
  );
  ref.close();
}

// Step 7: CodeValidate over HTTP against a bare server answering a body of the same size.
if (values['no-http'] !== true) {
  const lab = pick(labPool);
  const labDx = ncdDx.get(lab.ncd) ?? [];
  const addOn = pick(addOnPool.filter((a) => (addOns.get(a)?.length ?? 0) > 0));
  const request: CodeValidate = {
    codeCheckTypes: ['NCD', 'CMS'],
    effectiveDate: date,
    cptCodes: [lab.code, pick(addOns.get(addOn) ?? []), addOn],
    icdCodes: [pick(labDx), pick(labDx), pick(dxPool), pick(dxPool)].map(dotted),
    icdType: 'ICD-10 CM',
    providerType: 'Physician',
    patient: { age: 67, gender: 'F' },
  };
  const body = JSON.stringify(request);
  const PATH = '/json/reply/CodeValidate';
  const opts: LoadOptions = {
    connections,
    seconds: duration,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  };
  const dir = mkdtempSync(join(tmpdir(), 'bench-validate-http-'));
  const bodyFile = join(dir, 'code-validate.json');
  const probe = await startTarget(['reference', '--db', dbPath]);
  const answer = await fetch(`${probe.info.url}${PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  const answerBody = await answer.text();
  await probe.stop();
  if (answer.status !== 200) {
    throw new Error(`CodeValidate answered ${String(answer.status)}: ${answerBody.slice(0, 500)}`);
  }
  writeFileSync(bodyFile, answerBody);
  out.write(
    `CodeValidate over HTTP: ${String(httpRounds)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, ` +
      `each server and autocannon in their own processes, loopback; ${placement}, auth off\n` +
      `request (${String(Buffer.byteLength(body))} bytes): ${body}\n` +
      `answer: ${String(Buffer.byteLength(answerBody))} bytes, ${String((JSON.parse(answerBody) as { count?: number }).count ?? '?')} items\n\n`,
  );
  const http = await roundsAgainstBare({
    rounds: httpRounds,
    bodyFile,
    bareLabel: `bare node:http (same ${String(Buffer.byteLength(answerBody))}-byte body)`,
    bareOpts: opts,
    label: `CodeValidate, POST ${PATH}`,
    dbPath,
    url: (base) => `${base}${PATH}`,
    opts,
  });
  rmSync(dir, { recursive: true, force: true });
  printResults(http);
  const cv = http[1];
  if (cv) {
    out.write(
      `\ntarget: CodeValidate p99 < ${String(TARGET_P99_MS)} ms at ${String(connections)} connections: ${cv.p99 < TARGET_P99_MS ? 'MET' : 'MISSED'} (${cv.p99.toFixed(1)} ms)\n`,
    );
  }
}
