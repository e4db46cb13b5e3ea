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
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { codeDetails } from '../../src/engines/codes/index.js';
import { RULES, validateClaims } from '../../src/engines/validation/index.js';
import type { RuleId } from '../../src/findings/codes.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import type { Claim, ClaimDiagnosis, ClaimLine, PoaIndicator } from '../../src/schemas/claim.js';
import type { CodeValidate } from '../../src/schemas/code-validate.js';
import { MueSetting } from '../../src/schemas/edits.js';
import type { ClaimResult } from '../../src/schemas/findings.js';
import { benchOptions, seededSampler } from './harness.js';
import { measure, medianRound, placement, printResults, startTarget, type LoadOptions, type Result } from './load.js';
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

// Step 1: the pools, read straight from the database.
interface MueCode {
  readonly code: string;
  readonly value: number;
}
const db = new Database(dbPath, { readonly: true });
const inForce = (a: string): string => `${a}.valid_from <= @date AND (${a}.valid_to IS NULL OR ${a}.valid_to >= @date)`;
const inRelease = (a: string): string => `JOIN source s ON s.id = ${a}.source_id AND ${inForce('s')}`;
const codes = (system: string): string[] =>
  db
    .prepare(`SELECT c.code FROM code c WHERE c.system = '${system}' AND c.billable = 1 AND ${inForce('c')}`)
    .pluck()
    .all({ date }) as string[];
/** A seeded sample of `poolSize` items (all of them without `--pool`). */
function limited<T>(items: T[]): T[] {
  if (poolSize === undefined || items.length <= poolSize) {
    return items;
  }
  const copy = [...items];
  for (let i = 0; i < poolSize; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, poolSize);
}
const dxPool = limited(codes('ICD10CM'));
const pcsPool = limited(codes('ICD10PCS'));
const muePool = (setting: MueSetting): MueCode[] =>
  db
    .prepare(
      `SELECT m.code, m.mue_value AS value FROM mue m ${inRelease('m')} WHERE m.setting = @setting AND ${inForce('m')}`,
    )
    .all({ date, setting }) as MueCode[];
const mueBySetting = {
  practitioner: limited(muePool(MueSetting.practitioner)),
  hospital: limited(muePool(MueSetting.outpatientHospital)),
};
const labHcpcs = db
  .prepare(`SELECT h.hcpcs AS code, h.ncd FROM ncd_lab_hcpcs h ${inRelease('h')} WHERE ${inForce('h')}`)
  .all({ date }) as { code: string; ncd: string }[];
const ncdDx = new Map<string, string[]>();
for (const r of db
  .prepare(
    `SELECT i.ncd, i.icd10 FROM ncd_lab_icd10 i ${inRelease('i')} WHERE i.icd10 <> '@@@@@@@' AND ${inForce('i')}`,
  )
  .all({ date }) as { ncd: string; icd10: string }[]) {
  const list = ncdDx.get(r.ncd) ?? [];
  list.push(r.icd10);
  ncdDx.set(r.ncd, list);
}
const addOns = new Map<string, string[]>();
for (const r of db
  .prepare(
    `SELECT a.add_on_code AS addOn, a.primary_code AS primaryCode FROM ncci_aoc a ${inRelease('a')} WHERE ${inForce('a')}`,
  )
  .all({ date }) as { addOn: string; primaryCode: string }[]) {
  const list = addOns.get(r.addOn) ?? [];
  if (r.primaryCode !== 'CCCCC') {
    list.push(r.primaryCode);
  }
  addOns.set(r.addOn, list);
}
const addOnPool = [...addOns.keys()];
const zipPool = limited(
  db
    .prepare(`SELECT z.zip5 FROM zip5_locality z ${inRelease('z')} WHERE ${inForce('z')}`)
    .pluck()
    .all({ date }) as string[],
);
db.close();
const labPool = labHcpcs.filter((l) => (ncdDx.get(l.ncd)?.length ?? 0) > 0);
if (dxPool.length === 0 || mueBySetting.practitioner.length === 0 || labPool.length === 0 || addOnPool.length === 0) {
  throw new Error(`${dbPath} lacks ICD-10-CM, MUE, lab NCD or AOC rows in force on ${date}: build it first`);
}

// Step 2: the claims. 85% professional (Physician, ZIP or state, pointers of up to 4 diagnoses per line), 15%
// institutional (Facility, birth date and sex, POA indicators, revenue codes, some ICD-10-PCS lines).
const dotted = (code: string): string => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const POA: readonly PoaIndicator[] = ['Y', 'Y', 'Y', 'Y', 'N', 'U', 'W', '1'];

function makeClaim(n: number): Claim {
  const institutional = random() < 0.15;
  const lineCount = int(1, 8);
  const dxCount = int(1, 12);
  const dx: string[] = [];
  const addDx = (code: string): number => {
    const at = dx.indexOf(code);
    if (at >= 0) {
      return at + 1;
    }
    if (dx.length >= dxCount) {
      return int(1, dx.length);
    }
    dx.push(code);
    return dx.length;
  };
  addDx(pick(dxPool));
  // Procedure codes first (lab lines bring their NCD's diagnoses), then the diagnoses are filled up.
  const procs: { code: string; units: number; pointers: number[] }[] = [];
  const mue = institutional ? mueBySetting.hospital : mueBySetting.practitioner;
  while (procs.length < lineCount) {
    const r = random();
    if (r < 0.15) {
      const lab = pick(labPool);
      const list = ncdDx.get(lab.ncd) ?? [];
      procs.push({
        code: lab.code,
        units: 1,
        pointers: [addDx(pick(list)), ...(random() < 0.5 ? [addDx(pick(list))] : [])],
      });
    } else if (r < 0.3) {
      const addOn = pick(addOnPool);
      const primaries = addOns.get(addOn) ?? [];
      if (primaries.length > 0 && random() < 0.8 && procs.length < lineCount - 1) {
        procs.push({ code: pick(primaries), units: 1, pointers: [] });
      }
      procs.push({ code: addOn, units: int(1, 2), pointers: [] });
    } else if (institutional && r < 0.45) {
      procs.push({ code: pick(pcsPool), units: 1, pointers: [] });
    } else {
      const m = pick(mue);
      procs.push({
        code: m.code,
        units: random() < 0.1 ? m.value + 1 : int(1, Math.max(1, Math.min(m.value, 3))),
        pointers: [],
      });
    }
  }
  while (dx.length < dxCount) {
    addDx(pick(dxPool));
  }
  const diagnoses: ClaimDiagnosis[] = dx.map((code) => ({
    code: random() < 0.3 ? dotted(code) : code,
    ...(institutional ? { poa: pick(POA) } : {}),
  }));
  const lines: ClaimLine[] = procs.map((p, i) => {
    const pointers = [...new Set([...p.pointers, ...Array.from({ length: int(1, 4) }, () => int(1, dx.length))])]
      .slice(0, 4)
      .sort((a, b) => a - b);
    return {
      lineNumber: i + 1,
      procedureCode: p.code,
      modifiers: [],
      units: p.units,
      ...(institutional ? { revenueCode: pick(['0300', '0301', '0320', '0360', '0450', '0510']) } : {}),
      ...(institutional ? {} : { diagnosisPointers: pointers, placeOfService: pick(['11', '11', '22', '81']) }),
    };
  });
  const birthYear = int(1930, 2024);
  return {
    claimId: `C${String(n)}`,
    claimType: institutional ? 'institutional' : 'professional',
    ...(institutional
      ? {
          patient: {
            birthDate: `${String(birthYear)}-0${String(int(1, 9))}-1${String(int(0, 9))}`,
            sex: pick(['M', 'F'] as const),
          },
        }
      : random() < 0.6
        ? { patient: { age: int(0, 95), sex: pick(['M', 'F', 'U'] as const) } }
        : {}),
    provider: {
      type: institutional ? 'Facility' : 'Physician',
      ...(random() < 0.7 && zipPool.length > 0
        ? { zip: pick(zipPool) }
        : { state: pick(['NY', 'CA', 'TX', 'FL', 'OH']) }),
    },
    dateOfServiceFrom: date,
    diagnoses,
    lines,
  };
}
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
  const all: Result[][] = [];
  for (let round = 0; round < httpRounds; round++) {
    const bareTarget = await startTarget(['bare', '--body-file', bodyFile]);
    const r = [
      await measure(
        `bare node:http (same ${String(Buffer.byteLength(answerBody))}-byte body)`,
        `${bareTarget.info.url}/`,
        opts,
        opts,
        bareTarget.pid,
      ),
    ];
    await bareTarget.stop();
    const ours = await startTarget(['reference', '--db', dbPath]);
    r.push(await measure(`CodeValidate, POST ${PATH}`, `${ours.info.url}${PATH}`, opts, opts, ours.pid));
    await ours.stop();
    all.push(r);
  }
  rmSync(dir, { recursive: true, force: true });
  const http = medianRound(all);
  printResults(http);
  const cv = http[1];
  if (cv) {
    out.write(
      `\ntarget: CodeValidate p99 < ${String(TARGET_P99_MS)} ms at ${String(connections)} connections: ${cv.p99 < TARGET_P99_MS ? 'MET' : 'MISSED'} (${cv.p99.toFixed(1)} ms)\n`,
    );
  }
}
