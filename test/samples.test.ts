// Every claim file in samples/claims/ is scrubbed as the README's first command does, and the reports must equal
// the expected ones committed in samples/expected/ (regenerate with UPDATE_SAMPLES=1 after a reviewed change).
// The samples are written to set off every rule the loaded data lets fire; the test names the ones that do not.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_RULES, RULES } from '../src/engines/validation/index.js';
import { runScrub } from '../src/pipeline/run-scrub.js';
import { summaryText } from '../src/pipeline/summary.js';
import type { ScrubSummary } from '../src/schemas/scrub.js';
import { createScrubPool, type ScrubPool } from '../src/workers/pool.js';
import { sharedReferenceDbPath } from './helpers/reference-db.js';
import { expectReportsAgree } from './helpers/report-agreement.js';

const REPORTS = ['findings.csv', 'claims.csv', 'rejected.csv'];
/** Rules the samples cannot set off, and why. */
const CANNOT_FIRE: Record<string, string> = {
  'claim.structure': 'the readers reject what it checks (pointers, line numbers) before the engine sees it',
  'lcd.coverage': 'no MCD export with LCD code lists in ../shared/data: notChecked',
  'ncci.ptp': 'no PTP file in ../shared/data: notChecked',
  'mce.sex-conflict': 'the MCE sex edit is deactivated from 2024-10-01 (v43.1 text), the samples are in 2026',
};

let pool: ScrubPool;
let out = '';
let summary: ScrubSummary;
beforeAll(async () => {
  pool = createScrubPool(1, await sharedReferenceDbPath());
  out = mkdtempSync(join(tmpdir(), 'samples-'));
  summary = await runScrub(
    { inputs: ['samples/claims'], outDir: out, formats: { csv: true, ndjson: false }, resume: false },
    { pool, reference: { database: 'shared', builtAt: 'test', schemaVersion: 1 } },
  );
}, 600_000);
afterAll(async () => {
  await pool.close();
});

describe('samples/claims', () => {
  it.each(REPORTS)('%s equals its expected copy in samples/expected', (file) => {
    const got = readFileSync(join(out, file), 'utf8');
    const expectedPath = join('samples', 'expected', file);
    if (process.env['UPDATE_SAMPLES'] === '1') {
      writeFileSync(expectedPath, got);
    }
    expect(got).toBe(readFileSync(expectedPath, 'utf8'));
  });

  it('reads every format, accounts for every line and claim, and sets off every rule the data allows', () => {
    expect(summary.inputs.map((i) => i.format).sort()).toEqual(['csv', 'ndjson', 'x12', 'x12']);
    expect(summary.linesRead).toBe(summary.linesScrubbed + summary.linesRejected);
    expect(summary.claims.read).toBe(readFileSync(join(out, 'claims.csv'), 'utf8').trimEnd().split('\n').length - 1);
    expect(summary.claims.rejected).toBeGreaterThanOrEqual(4);
    const fired = new Set(summary.findings.byRule.map((r) => r.rule));
    const silent = [...RULES, ...BATCH_RULES].map((r) => r.id).filter((id) => !fired.has(id));
    expect(silent.sort()).toEqual(Object.keys(CANNOT_FIRE).sort());
  });

  it('claims.csv rolls up each claim\'s findings, cross-claim ones too, as the summary counts them', () => {
    expect(expectReportsAgree(out, summary).crossClaimClaims).toBe(3);
  });

  it("prints the summary the README's first command shows (its timings aside)", () => {
    const readme = readFileSync('README.md', 'utf8');
    const shown = /```text\n(scrubbed [^]*?)```/.exec(readme)?.[1] ?? '';
    const printed = summaryText(summary, 'out/samples');
    const untimed = (text: string): string[] => text.trimEnd().split('\n').slice(1);
    expect(shown.split('\n')[0]).toMatch(/^scrubbed 38 claims \(57 lines\) from 4 file\(s\) in [\d.]+ s, \d+ lines\/s$/);
    expect(printed.split('\n')[0]).toMatch(/^scrubbed 38 claims \(57 lines\) from 4 file\(s\) in [\d.]+ s, [\d,]+ lines\/s$/);
    expect(untimed(shown)).toEqual(untimed(printed));
  });

  it('acknowledges each 837 input with a 277CA: one TRN per claim, A2 for clean and warnings, A3 for errors and rejected', () => {
    const claims = readFileSync(join(out, 'claims.csv'), 'utf8').trimEnd().split('\n').slice(1).map((r) => r.split(','));
    for (const input of ['claims-837p.txt', 'claims-837i.txt']) {
      const ack = readFileSync(join(out, `277ca-${input}.x12`), 'latin1');
      const mine = claims.filter((c) => c[0] === `samples/claims/${input}`);
      const trns = [...ack.matchAll(/^NM1\*QC[^~]*~\nTRN\*2\*([^~]*)~\nSTC\*(A\d)/gm)].map((m) => [m[1], m[2]]);
      expect(trns).toEqual(mine.map((c) => [c[2] === '' ? `NOCLAIMID-S${c[1] ?? ''}` : c[2], c[5] === 'clean' || c[5] === 'warnings' ? 'A2' : 'A3']));
      // 2200B totals the claims' charges (STC04 of each 2200D, from the 837's CLM02), accepted and rejected apart.
      const cents = (category: string): number =>
        [...ack.matchAll(/^NM1\*QC[^~]*~\nTRN\*2\*[^~]*~\nSTC\*(A\d)[^*]*\*\d+\*\w+\*([\d.]+)/gm)]
          .filter((m) => category === '' || m[1] === category)
          .reduce((sum, m) => sum + Math.round(Number(m[2]) * 100), 0);
      const amount = (qualifier: string): number => Math.round(Number(new RegExp(`^AMT\\*${qualifier}\\*([\\d.]+)~`, 'm').exec(ack)?.[1]) * 100);
      expect(cents('A2')).toBeGreaterThan(0);
      expect(amount('YU')).toBe(cents('A2'));
      expect(amount('YY')).toBe(cents('A3'));
      expect(Math.round(Number(/^STC\*A1:19:AY\*\d+\*WQ\*([\d.]+)~/m.exec(ack)?.[1]) * 100)).toBe(cents(''));
      expect(summary.reports).toContain(`277ca-${input}.x12`);
      // The samples are test data (ISA15 T): so is their acknowledgement.
      expect(ack.split('*')[15]).toBe('T');
    }
  });
});
