// Batch scrubber benchmark (issue 12 §9). Generates a realistic claim CSV of `--lines` lines (real code mix from
// test/bench/claim-generator.ts: 1-8 lines a claim, 1-12 diagnoses, 15% institutional), then in one run measures:
//   1. baseline: raw csv-parse throughput on the same file (records counted, nothing else), on this process;
//   2. the full scrub with every check, as `npm run scrub` runs it (the compiled dist/pipelines/scrub.js in a
//      child process, its own worker pool), read back from the run's summary.json: lines/s, the ratio to (1), peak
//      RSS and time per stage.
// Targets on 2 cores: at least 100,000 lines/s, at least 40% of raw csv-parse, peak RSS under 1 GB and flat.
//
// Usage: npm run bench -- scrub [--lines=1000000] [--workers=N] [--db=data/build/reference.sqlite] [--pool=N]
//          [--date=2026-05-15] [--days=1] [--claims-per-patient=1] [--keep]
// With --claims-per-patient above 1, consecutive claims share a patient (all on the one date): the cross-claim checks
// then find duplicates and MUE sums to answer, as a night of real claims does. With --days above 1, each claim's
// dates of service move to one of the `--days` days from --date on (codes are drawn in force on --date: keep the
// days in its quarter, e.g. --date=2026-04-01 --days=91): a night's file spans weeks of service dates.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { loadConfig } from '../../src/config.js';
import { CLAIM_CSV_COLUMNS } from '../../src/schemas/claim-csv.js';
import type { Claim } from '../../src/schemas/claim.js';
import type { ScrubSummary } from '../../src/schemas/scrub.js';
import { READ_BYTES } from '../../src/readers/byte-source.js';
import { readX12ClaimBatches } from '../../src/readers/claims/x12.js';
import { csvText } from '../../src/reports/rows.js';
import { claimMaker, loadClaimPools } from './claim-generator.js';
import { seededSampler } from './harness.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    workers: { type: 'string', default: String(availableParallelism()) },
    db: { type: 'string' },
    pool: { type: 'string', default: '5000' },
    date: { type: 'string', default: '2026-05-15' },
    keep: { type: 'boolean', default: false },
    'claims-per-patient': { type: 'string', default: '1' },
    days: { type: 'string', default: '1' },
  },
  strict: false,
});
const targetLines = Math.max(1000, Number(values.lines) || 1_000_000);
const workers = Math.max(1, Number(values.workers) || availableParallelism());
const config = loadConfig(typeof values.db === 'string' ? [`--db=${values.db}`] : []);
const date = typeof values.date === 'string' ? values.date : '2026-05-15';
const poolSize = Number(values.pool) > 0 ? Number(values.pool) : undefined;
const claimsPerPatient = Math.max(1, Math.floor(Number(values['claims-per-patient']) || 1));
const days = Math.max(1, Math.floor(Number(values.days) || 1));
/** A claim's date of service moved by its own offset of 0 to `days - 1` days (the same for all its lines). */
function shifted(iso: string, claimNumber: number): string {
  const offset = Math.imul(claimNumber, 0x9e3779b1) >>> 0;
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + (offset % days));
  return d.toISOString().slice(0, 10);
}
const out = process.stdout;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const dir = mkdtempSync(join(tmpdir(), 'scrub-bench-'));

// Step 1: the claim file, written as it is generated (never held in memory).
const sampler = seededSampler(0x5c2b);
const makeClaim = claimMaker(loadClaimPools(config.refdataDb, date, poolSize, sampler), sampler, date);
const file = join(dir, 'claims.csv');
function rowsOf(c: Claim): string[] {
  const dx = c.diagnoses.map((d) => d.code).join('|');
  const poa = c.diagnoses.some((d) => d.poa !== undefined) ? c.diagnoses.map((d) => d.poa ?? '').join('|') : '';
  const birth = c.patient?.birthDate ?? (c.patient?.age !== undefined ? `${2026 - c.patient.age - 1}-07-01` : '');
  return c.lines.map((l) => {
    const cells: Record<(typeof CLAIM_CSV_COLUMNS)[number], string> = {
      claimId: c.claimId,
      lineNumber: String(l.lineNumber),
      patientId: `P${String(Math.ceil(Number(c.claimId.slice(1)) / claimsPerPatient))}`,
      patientBirthDate: birth,
      patientSex: c.patient?.sex ?? '',
      claimType: c.claimType,
      providerType: c.provider?.type ?? '',
      billingProviderState: c.provider?.state ?? '',
      billingProviderZip: c.provider?.zip ?? '',
      contractorNumber: '',
      payerCode: 'MEDICARE',
      dateOfServiceFrom: shifted(l.dateOfService ?? c.dateOfServiceFrom, Number(c.claimId.slice(1))),
      dateOfServiceTo: '',
      placeOfService: l.placeOfService ?? '',
      procedureCode: l.procedureCode,
      modifiers: l.modifiers.join('|'),
      units: String(l.units),
      diagnosisCodes: dx,
      diagnosisPointers: l.diagnosisPointers?.join('|') ?? '',
      poaIndicators: poa,
      revenueCode: l.revenueCode ?? '',
      icdType: 'ICD-10 CM',
      billType: c.billType ?? '',
    };
    return csvText([CLAIM_CSV_COLUMNS.map((col) => cells[col])]).slice(0, -1);
  });
}
const g0 = performance.now();
const writer = createWriteStream(file);
writer.write(`${CLAIM_CSV_COLUMNS.join(',')}\n`);
let lines = 0;
let claims = 0;
while (lines < targetLines) {
  const rows = rowsOf(makeClaim(++claims)).slice(0, targetLines - lines);
  lines += rows.length;
  if (!writer.write(`${rows.join('\n')}\n`)) {
    await once(writer, 'drain');
  }
}
writer.end();
await once(writer, 'finish');
const bytes = statSync(file).size;
out.write(
  `scrub benchmark: ${fmt(lines)} lines, ${fmt(claims)} claims, ${(bytes / 1e6).toFixed(1)} MB CSV (generated in ${((performance.now() - g0) / 1000).toFixed(1)} s), ` +
    `${workers} workers, dates ${days === 1 ? date : `${date} and the ${String(days - 1)} days after`}, code pools of ${poolSize ?? 'all'}, ${claimsPerPatient} claim(s) per patient\nreference: ${config.refdataDb}\n${machineLine()}\n\n`,
);

// Step 2: baseline, raw csv-parse over the same file.
const b0 = performance.now();
let records = 0;
for await (const record of createReadStream(file, { highWaterMark: READ_BYTES }).pipe(parse({ bom: true })) as AsyncIterable<string[]>) {
  records += record.length > 0 ? 1 : 0;
}
const rawMs = performance.now() - b0;
const rawRate = ((records - 1) / rawMs) * 1000;
out.write(`baseline  raw csv-parse: ${fmt(records - 1)} records in ${(rawMs / 1000).toFixed(2)} s = ${fmt(rawRate)} lines/s\n`);

// Step 2b: the 837 reader (target 50 MB/s) on an 837P of the first professional claims, against reading the same
// bytes with nothing done to them. Every file here is read in the product's read size (byte-source.ts).
const x12File = join(dir, 'claims.837');
{
  const x12 = createWriteStream(x12File);
  const d8 = (iso: string): string => iso.replace(/-/g, '');
  x12.write('ISA*00*          *00*          *ZZ*BENCH          *ZZ*MEDICARE       *260515*1200*^*00501*000000001*0*T*:~\nGS*HC*BENCH*MED*20260515*1200*1*X*005010X222A1~\n');
  let st = 0;
  let written = 0;
  let n = 0;
  const x12Claims = Math.min(claims, 150_000);
  while (written < x12Claims) {
    st++;
    const seg: string[] = [`ST*837*${st}*005010X222A1`, 'BHT*0019*00*B1*20260515*1200*CH', 'NM1*41*2*BENCH*****46*S1', 'NM1*40*2*MEDICARE*****46*00000', 'HL*1**20*1', 'NM1*85*2*CLINIC*****XX*1234567893', 'N3*1 MAIN ST', 'N4*RICHMOND*VA*232191234', 'REF*EI*123456789'];
    for (let k = 0; k < 1000 && written < x12Claims; ) {
      const c = makeClaim(++n);
      if (c.claimType !== 'professional') {
        continue;
      }
      k++;
      written++;
      seg.push(`HL*${k + 1}*1*22*0`, 'SBR*P*18*******MB', `NM1*IL*1*DOE*JANE****MI*M${n}`, `DMG*D8*19520314*${c.patient?.sex ?? 'U'}`, 'NM1*PR*2*MEDICARE*****PI*00000', `CLM*${c.claimId}*100***11:B:1*Y*A*Y*Y`);
      seg.push(`HI*${c.diagnoses.slice(0, 12).map((d, i) => `${i === 0 ? 'ABK' : 'ABF'}:${d.code.replace('.', '')}`).join('*')}`);
      for (const l of c.lines) {
        const pointers = (l.diagnosisPointers ?? [1]).filter((p) => p <= 12).slice(0, 4);
        seg.push(`LX*${l.lineNumber}`, `SV1*HC:${l.procedureCode}*10*UN*${l.units}***${(pointers.length > 0 ? pointers : [1]).join(':')}`, `DTP*472*D8*${d8(shifted(c.dateOfServiceFrom, n))}`);
      }
    }
    seg.push(`SE*${seg.length + 1}*${st}`);
    if (!x12.write(`${seg.join('~\n')}~\n`)) {
      await once(x12, 'drain');
    }
  }
  x12.end(`GE*${st}*1~\nIEA*1*000000001~\n`);
  await once(x12, 'finish');
}
const x12Bytes = statSync(x12File).size;
const r0 = performance.now();
for await (const chunk of createReadStream(x12File, { highWaterMark: READ_BYTES }) as AsyncIterable<Buffer>) {
  void chunk.length;
}
const rawReadMs = performance.now() - r0;
const x0 = performance.now();
let x12Read = 0;
for await (const batch of readX12ClaimBatches(createReadStream(x12File, { highWaterMark: READ_BYTES }), x12File)) {
  for (const item of batch) {
    x12Read += item.kind === 'claim' ? 1 : 0;
  }
}
const x12Ms = performance.now() - x0;
const x12Rate = x12Bytes / 1e6 / (x12Ms / 1000);
out.write(
  `837 reader: ${(x12Bytes / 1e6).toFixed(1)} MB, ${fmt(x12Read)} claims in ${(x12Ms / 1000).toFixed(2)} s = ${x12Rate.toFixed(1)} MB/s ` +
    `(reading the bytes alone: ${(x12Bytes / 1e6 / (rawReadMs / 1000)).toFixed(0)} MB/s); target 50 MB/s ${x12Rate >= 50 ? 'met' : 'MISSED'}\n`,
);

// Step 3: the scrub, as the product runs it.
const reports = join(dir, 'out');
const s0 = performance.now();
const run = spawnSync(
  process.execPath,
  ['dist/pipelines/scrub.js', file, '--out', reports, '--workers', String(workers), '--db', config.refdataDb, '--log-level', 'warn'],
  { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
);
const wallMs = performance.now() - s0;
if (run.status !== 0) {
  out.write(run.stdout);
  throw new Error(`scrub exited with ${String(run.status)}`);
}
const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as ScrubSummary;
const t = summary.timing;
const rate = t.linesPerSecond;
out.write(
  `scrub     full, every check: ${fmt(summary.linesRead)} lines in ${(t.elapsedMs / 1000).toFixed(2)} s = ${fmt(rate)} lines/s ` +
    `(process wall ${(wallMs / 1000).toFixed(2)} s incl. start-up), ${(rate / rawRate * 100).toFixed(0)}% of raw csv-parse\n` +
    `          claims: ${fmt(summary.claims.read)} (${fmt(summary.claims.clean)} clean, ${fmt(summary.claims.warnings)} warnings, ${fmt(summary.claims.errors)} errors, ${fmt(summary.claims.rejected)} rejected), findings ${fmt(summary.findings.total)}\n` +
    `          accounting: ${summary.linesRead} read = ${summary.linesScrubbed} scrubbed + ${summary.linesRejected} rejected: ${summary.accounting.linesBalance && summary.linesRead === lines ? 'holds' : 'BROKEN'}\n` +
    `          peak RSS ${fmt(t.peakRssMb)} MB; worker start-up ${t.workerLoadMs.join(', ')} ms, heap ${t.workerHeapMb.join(', ')} MB\n` +
    `          main thread: read+group ${fmt(t.mainReadMs)} ms, waiting on workers ${fmt(t.mainWaitMs)} ms, writing ${fmt(t.mainWriteMs)} ms, cross-claim checks and claims.csv at the end ${fmt(t.crossClaimMs)} ms\n` +
    `          workers (thread ms summed): claims from text ${fmt(t.workerReadMs)}, validate ${fmt(t.workerValidateMs)}, report text ${fmt(t.workerRenderMs)}; slowest stage: ${t.slowestStage}\n`,
);
out.write(
  `targets: ${fmt(rate)} >= 100,000 lines/s ${rate >= 100_000 ? 'met' : 'MISSED'}; ${(rate / rawRate * 100).toFixed(0)}% >= 40% of raw ${rate / rawRate >= 0.4 ? 'met' : 'MISSED'}; ` +
    `peak RSS ${fmt(t.peakRssMb)} MB < 1,024 ${t.peakRssMb < 1024 ? 'met' : 'MISSED'}\n`,
);
if (values.keep === true) {
  out.write(`kept ${dir}\n`);
} else {
  rmSync(dir, { recursive: true, force: true });
}
