// `--shard K/N` and `scrub merge` (issue 12 §7): N shard runs over the same inputs, merged, give the reports of one
// unsharded run, byte for byte (summary timings and the 277CA's creation date aside). Real worker threads on the
// shared reference database; inputs are the sample files of every format and a generated CSV whose patients have
// many claims each, so the cross-claim checks have work in every shard.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeShards } from '../../src/pipeline/merge-shards.js';
import { SHARD_MANIFEST } from '../../src/pipeline/run-files.js';
import { runScrub, type ScrubOptions } from '../../src/pipeline/run-scrub.js';
import { ScrubSummary, ShardManifest } from '../../src/schemas/scrub.js';
import { createScrubPool, type ScrubPool } from '../../src/workers/pool.js';
import { parseShard, shardOfKey } from '../../src/workers/shard.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';
import { expectReportsAgree } from '../helpers/report-agreement.js';

const reference = { database: 'shared', builtAt: 'test', schemaVersion: 1 };
const SAMPLES = join(import.meta.dirname, '../../samples/claims');
const HEADER = 'claimId,lineNumber,patientId,claimType,dateOfServiceFrom,procedureCode,modifiers,units,diagnosisCodes';

/** 600 claims of 23 patients (and some without a patient id): repeated 99213 lines make duplicates and MUE sums. */
function patientsCsv(): string {
  const rows = [HEADER];
  for (let c = 0; c < 600; c++) {
    const patient = c % 41 === 0 ? '' : `PT${String(c % 23)}`;
    const lines = (c % 3) + 1;
    for (let l = 1; l <= lines; l++) {
      const units = c % 97 === 5 && l === lines ? 'many' : String(l);
      const code = l === 1 ? '99213' : c % 2 === 0 ? '83036' : '36415';
      rows.push(`S${String(c).padStart(4, '0')},${l},${patient},professional,2026-05-0${(c % 5) + 1},${code},${c % 7 === 0 ? '25' : ''},${units},${c % 4 === 0 ? 'J06.9' : 'E11.9'}`);
    }
  }
  return `${rows.join('\n')}\n`;
}

const REPORTS = ['findings.csv', 'findings.ndjson', 'claims.csv', 'rejected.csv'];

let pool: ScrubPool;
let dir: string;
let inputs: string[];

beforeAll(async () => {
  pool = createScrubPool(2, await sharedReferenceDbPath());
  dir = mkdtempSync(join(tmpdir(), 'shards-'));
  const csv = join(dir, 'patients.csv');
  writeFileSync(csv, patientsCsv());
  inputs = [SAMPLES, csv];
}, 600_000);
afterAll(async () => {
  await pool.close();
});

async function scrub(name: string, extra: Partial<ScrubOptions> = {}): Promise<{ out: string; summary: ScrubSummary }> {
  const out = join(dir, name);
  const summary = await runScrub(
    { inputs, outDir: out, formats: { csv: true, ndjson: true }, resume: false, chunkClaims: 32, ...extra },
    { pool, reference },
  );
  return { out, summary };
}
const read = (out: string, file: string): string => readFileSync(join(out, file), 'utf8');
/** summary.json without what differs between any two runs: timings and dates. */
const comparable = (s: ScrubSummary): unknown => ({ ...s, timing: undefined, startedAt: undefined, finishedAt: undefined });
/**
 * A 277CA without its creation date and time (ISA09-10, GS04-05, BHT04-05) and the control numbers taken from the
 * run's start (ISA13, IEA02, GS06, GE02, and the reference id built on the interchange's).
 */
const undated = (x12: string): string =>
  x12
    .replace(/^(ISA(?:\*[^*]*){8})\*\d{6}\*\d{4}/, '$1*D*T')
    .replace(/^(ISA(?:\*[^*]*){12})\*\d{9}/, '$1*N')
    .replace(/IEA\*1\*\d{9}/, 'IEA*1*N')
    .replace(/(GS(?:\*[^*]*){3})\*\d{8}\*\d{4}\*\d+/, '$1*D*T*N')
    .replace(/GE\*(\d+)\*\d+/, 'GE*$1*N')
    .replace(/277CA\d{9}/g, '277CA#')
    .replace(/(BHT(?:\*[^*]*){3})\*\d{8}\*\d{4}/, '$1*D*T');

describe('--shard and scrub merge', () => {
  let whole: { out: string; summary: ScrubSummary };

  beforeAll(async () => {
    whole = await scrub('whole');
  }, 300_000);

  it.each([1, 3, 4])('%i shards merged give the reports of one run', async (n) => {
    const dirs: string[] = [];
    const shardClaims: number[] = [];
    for (let k = 0; k < n; k++) {
      const { out, summary } = await scrub(`n${String(n)}-k${String(k)}`, { shard: { index: k, count: n } });
      dirs.push(out);
      shardClaims.push(summary.claims.read);
      // Each shard reads every line and accounts for those it left to the others.
      expect(summary.linesRead).toBe(whole.summary.linesRead);
      expect(summary.linesScrubbed + summary.linesRejected + (summary.shard?.linesElsewhere ?? -1)).toBe(summary.linesRead);
      expect(summary.accounting.linesBalance).toBe(true);
    }
    expect(shardClaims.reduce((a, b) => a + b, 0)).toBe(whole.summary.claims.read);
    if (n > 1) {
      // The split is real: no shard has every claim.
      expect(Math.max(...shardClaims)).toBeLessThan(whole.summary.claims.read);
    }
    const out = join(dir, `merged-${String(n)}`);
    const merged = await mergeShards([...dirs].reverse(), out);
    for (const file of REPORTS) {
      expect(read(out, file), file).toBe(read(whole.out, file));
    }
    expect(read(whole.out, 'findings.csv')).toMatch(/,batch\.duplicate,/);
    // Cross-claim findings count in claims.csv and the summary, in one run and merged alike.
    expect(expectReportsAgree(whole.out, whole.summary).crossClaimClaims).toBeGreaterThan(0);
    expectReportsAgree(out, merged);
    for (const file of whole.summary.reports.filter((f) => f.startsWith('warnings-'))) {
      expect(read(out, file), file).toBe(read(whole.out, file));
    }
    const acks = whole.summary.reports.filter((f) => f.startsWith('277ca-'));
    expect(acks.length).toBe(2);
    for (const file of acks) {
      expect(undated(read(out, file)), file).toBe(undated(read(whole.out, file)));
      // The merge read each 837 again where its shards read it: providers and charges, not placeholders.
      expect(read(out, file), file).toMatch(/NM1\*85\*2\*[A-Z ]+\*{5}XX\*\d{10}~\nHL\*\d+\*\d+\*PT~/);
      expect(read(out, file), file).not.toContain('NOTREPORTED');
    }
    expect(comparable(ScrubSummary.parse(JSON.parse(read(out, 'summary.json'))))).toEqual(comparable(whole.summary));
    expect(merged.reports).toEqual(whole.summary.reports);
  }, 300_000);

  it('records where it read each input as an absolute path, so a merge run elsewhere reads the 837s again', async () => {
    const relativeInputs = inputs.map((i) => relative(process.cwd(), i));
    expect(relativeInputs.some((i) => !isAbsolute(i))).toBe(true);
    const { out } = await scrub('relative-k0', { shard: { index: 0, count: 2 }, inputs: relativeInputs });
    const manifest = ShardManifest.parse(JSON.parse(read(out, SHARD_MANIFEST)));
    const paths = manifest.inputs.map((i) => i.location?.path ?? '');
    expect(paths).toHaveLength(5);
    expect(paths.every((p) => isAbsolute(p) && existsSync(p)), paths.join(' ')).toBe(true);
  });

  it('a shard resumed after a crash merges like one that never stopped', async () => {
    const opts = { chunkClaims: 16, checkpointSeconds: 0.000001 };
    const other = await scrub('resume-k1', { shard: { index: 1, count: 2 }, ...opts });
    // The state a kill -9 right after the 6th checkpoint of shard 0 leaves, then --resume on it.
    const live = join(dir, 'resume-k0-live');
    const snapshot = join(dir, 'resume-k0-snap');
    let n = 0;
    await runScrub(
      { inputs, outDir: live, formats: { csv: true, ndjson: true }, resume: false, shard: { index: 0, count: 2 }, ...opts },
      {
        pool,
        reference,
        onCheckpoint: () => {
          if (++n === 6) {
            cpSync(live, snapshot, { recursive: true });
          }
        },
      },
    );
    expect(n).toBeGreaterThan(6);
    await runScrub(
      { inputs, outDir: snapshot, formats: { csv: true, ndjson: true }, resume: true, shard: { index: 0, count: 2 }, ...opts },
      { pool, reference },
    );
    const out = join(dir, 'merged-resumed');
    await mergeShards([snapshot, other.out], out);
    for (const file of REPORTS) {
      expect(read(out, file), file).toBe(read(whole.out, file));
    }
  }, 300_000);

  it('keeps the first 100 file-structure problems in input order, as one run does, whatever the shard order', async () => {
    // One 837 of 160 transaction sets, each with a wrong SE01: 160 problems, more than a summary keeps.
    const text = readFileSync(join(import.meta.dirname, '../fixtures/claims/professional.837'), 'latin1');
    const set = text.slice(text.indexOf('ST*837'), text.indexOf('GE*'));
    const sets = Array.from({ length: 160 }, (_, i) => set.replace(/ST\*837\*0001/, `ST*837*${String(i + 1).padStart(4, '0')}`).replace(/SE\*\d+\*0001/, `SE*999*${String(i + 1).padStart(4, '0')}`));
    const file = join(dir, 'many-problems.837');
    writeFileSync(file, `${text.slice(0, text.indexOf('ST*837'))}${sets.join('')}GE*160*301~\nIEA*1*000000301~\n`, 'latin1');
    const run = async (name: string, shard?: { index: number; count: number }): Promise<ScrubSummary> =>
      runScrub(
        { inputs: [file], outDir: join(dir, name), formats: { csv: true, ndjson: false }, resume: false, ...(shard === undefined ? {} : { shard }) },
        { pool, reference },
      );
    const whole = await run('many-whole');
    expect(whole.fileProblems?.count).toBe(160);
    await run('many-0', { index: 0, count: 2 });
    await run('many-1', { index: 1, count: 2 });
    const a = await mergeShards([join(dir, 'many-0'), join(dir, 'many-1')], join(dir, 'many-a'));
    const b = await mergeShards([join(dir, 'many-1'), join(dir, 'many-0')], join(dir, 'many-b'));
    expect(a.fileProblems).toEqual(whole.fileProblems);
    expect(b.fileProblems).toEqual(whole.fileProblems);
  }, 300_000);

  it('refuses a missing, doubled, unfinished or foreign shard, and a shard whose reports disagree with its index', async () => {
    const a = await scrub('bad-k0', { shard: { index: 0, count: 2 } });
    const b = await scrub('bad-k1', { shard: { index: 1, count: 2 } });
    await expect(mergeShards([a.out], join(dir, 'm1'))).rejects.toThrow(/shard 1 of 2 missing/);
    await expect(mergeShards([a.out, a.out, b.out], join(dir, 'm2'))).rejects.toThrow(/both shard 0\/2/);
    const other = await scrub('bad-other', { shard: { index: 1, count: 2 }, checks: ['ncd.lab'] });
    await expect(mergeShards([a.out, other.out], join(dir, 'm3'))).rejects.toThrow(/another run/);
    // Shards of one --checks run merge into a summary that names the rules, as the run's own would.
    const other0 = await scrub('bad-other0', { shard: { index: 0, count: 2 }, checks: ['ncd.lab'] });
    expect(other.summary.checks).toEqual(['ncd.lab']);
    expect((await mergeShards([other0.out, other.out], join(dir, 'm3b'))).checks).toEqual(['ncd.lab']);
    await expect(mergeShards([a.out, b.out], a.out)).rejects.toThrow(/is one of the shard folders/);
    // An unfinished shard: its checkpoint is there, its shard.json not yet.
    const unfinished = join(dir, 'bad-unfinished');
    cpSync(b.out, unfinished, { recursive: true });
    rmSync(join(unfinished, 'shard.json'));
    writeFileSync(join(unfinished, '.scrub-checkpoint.json'), '{}');
    await expect(mergeShards([a.out, unfinished], join(dir, 'm4'))).rejects.toThrow(/has not finished/);
    // A shard written by another version of the scrubber (manifest version 8: its reference has no build key).
    const older = join(dir, 'bad-older');
    cpSync(b.out, older, { recursive: true });
    const manifest = JSON.parse(read(older, 'shard.json')) as Record<string, unknown>;
    writeFileSync(join(older, 'shard.json'), JSON.stringify({ ...manifest, version: 8 }));
    await expect(mergeShards([a.out, older], join(dir, 'm7'))).rejects.toThrow(/written by another version of the scrubber \(shard manifest version 8, this one reads 9\)/);
    // A report cut short.
    const cut = join(dir, 'bad-cut');
    cpSync(b.out, cut, { recursive: true });
    const claims = read(cut, 'claims.csv');
    writeFileSync(join(cut, 'claims.csv'), claims.slice(0, claims.length - 10));
    await expect(mergeShards([a.out, cut], join(dir, 'm5'))).rejects.toThrow(/ends before the bytes/);
    // The merge failed part way: it leaves no partial reports a nightly job could take for the night's.
    expect(REPORTS.filter((f) => existsSync(join(dir, 'm5', f)))).toEqual([]);
    // Shards scrubbed against reference databases built from other sources (other build keys) are refused; built
    // from the same ones on two hosts (one key, two build times) they merge.
    const withReference = (from: string, name: string, ref: Record<string, unknown>): string => {
      const to = join(dir, name);
      cpSync(from, to, { recursive: true });
      const m = JSON.parse(read(to, 'shard.json')) as { reference: Record<string, unknown> };
      writeFileSync(join(to, 'shard.json'), JSON.stringify({ ...m, reference: { ...m.reference, ...ref } }));
      return to;
    };
    const hostA = withReference(a.out, 'ref-a', { buildKey: 'k1', builtAt: '2026-11-27T01:00:00Z' });
    const hostB = withReference(b.out, 'ref-b', { buildKey: 'k2', builtAt: '2026-11-27T01:00:05Z' });
    await expect(mergeShards([hostA, hostB], join(dir, 'm8'))).rejects.toThrow(/ref-b was scrubbed against another reference database than .*ref-a \(built from other sources/);
    const sameSources = withReference(b.out, 'ref-b2', { buildKey: 'k1', builtAt: '2026-11-27T01:00:05Z' });
    const notes: string[] = [];
    await expect(mergeShards([hostA, sameSources], join(dir, 'm9'), (n) => notes.push(n))).resolves.toBeDefined();
    expect(notes.join('\n')).toMatch(/built from the same sources at different times/);
    // Without build keys (older databases), other build times are other databases.
    await expect(mergeShards([a.out, withReference(b.out, 'ref-b3', { builtAt: 'other' })], join(dir, 'm10'))).rejects.toThrow(/another reference database/);
  }, 300_000);

  it('refuses shards that read other content under the same input names and sizes', async () => {
    const csv = inputs[1] as string;
    const original = readFileSync(csv, 'utf8');
    const a = await scrub('content-k0', { shard: { index: 0, count: 2 } });
    // What each shard read is in its summary: the SHA-256 of the file.
    const entry = a.summary.inputs.find((i) => i.name.endsWith('patients.csv'));
    expect(entry?.sha256).toBe(createHash('sha256').update(original).digest('hex'));
    // The same file name and size, one diagnosis changed: the run key matches, the content does not.
    const changed = original.replace('E11.9', 'E11.8');
    expect(changed).not.toBe(original);
    expect(changed.length).toBe(original.length);
    writeFileSync(csv, changed);
    try {
      const b = await scrub('content-k1', { shard: { index: 1, count: 2 } });
      await expect(mergeShards([a.out, b.out], join(dir, 'm6'))).rejects.toThrow(
        /content-k1 read other content for .*patients\.csv than .*content-k0 \(SHA-256 [0-9a-f]{64} against [0-9a-f]{64}\)/,
      );
    } finally {
      writeFileSync(csv, original);
    }
  }, 300_000);
});

describe('--shard with --history', () => {
  it('refuses shards run with other histories of the same size', async () => {
    const history = join(dir, 'history.csv');
    const earlier = 'patientId,dateOfService,procedureCode\nPT1,2026-01-10,G0439\n';
    writeFileSync(history, earlier);
    const a = await scrub('hist-k0', { shard: { index: 0, count: 2 }, history });
    const edited = earlier.replace('PT1', 'PT2');
    expect(edited.length).toBe(earlier.length);
    writeFileSync(history, edited);
    const b = await scrub('hist-k1', { shard: { index: 1, count: 2 }, history });
    await expect(mergeShards([a.out, b.out], join(dir, 'hist-m'))).rejects.toThrow(/another run/);
    // The same history in both: they merge.
    const c = await scrub('hist-k0b', { shard: { index: 0, count: 2 }, history });
    await expect(mergeShards([c.out, b.out], join(dir, 'hist-m2'))).resolves.toBeDefined();
  }, 300_000);
});

describe('shard keys', () => {
  it('reads K/N and refuses anything else', () => {
    expect(parseShard('2/5')).toEqual({ index: 2, count: 5 });
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    for (const bad of ['5/5', '1/0', '-1/3', 'a/b', '3', '1/2/3']) {
      expect(typeof parseShard(bad), bad).toBe('string');
    }
  });

  it('is the documented hash: the first 4 bytes of SHA-256 as a big-endian integer, modulo N', () => {
    // SHA_PT1 (below) was computed independently with `printf PT1 | sha256sum`.
    expect(shardOfKey('PT1', 1 << 30)).toBe(Number.parseInt(SHA_PT1.slice(0, 8), 16) % (1 << 30));
    const counts = [0, 0, 0, 0];
    for (let p = 0; p < 4000; p++) {
      counts[shardOfKey(`P${String(p)}`, 4)]! += 1;
    }
    // Spread evenly: each of 4 shards within 10% of 1,000.
    for (const c of counts) {
      expect(Math.abs(c - 1000)).toBeLessThan(100);
    }
  });
});

const SHA_PT1 = 'de1d6946b1ed908b608b89620ccd30d16021334943db4dbabdaa96c9e73da581';
