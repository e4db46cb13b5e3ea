// The scrub CLI end to end, as a user runs it: exit statuses, and a run killed with SIGKILL at random points and
// resumed each time, whose final reports must be byte-identical to an uninterrupted run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';

let db = '';
let dir = '';
beforeAll(async () => {
  db = await sharedReferenceDbPath();
  dir = mkdtempSync(join(tmpdir(), 'scrub-cli-'));
}, 600_000);

const args = (extra: string[]): string[] => ['--import', 'tsx', 'pipelines/scrub.ts', '--db', db, ...extra];
const cli = (extra: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, args(extra), { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** `n` claims of 1-3 lines with a mix of clean lines, lab NCD errors and MUE warnings. */
function claimCsv(n: number): string {
  const rows = ['claimId,lineNumber,patientId,claimType,dateOfServiceFrom,procedureCode,units,diagnosisCodes'];
  for (let c = 0; c < n; c++) {
    for (let l = 1; l <= (c % 3) + 1; l++) {
      const [code, dx, units] = [['83036', 'J06.9', 1], ['83036', 'E11.9', 1], ['36415', 'N18.30', 3], ['99213', 'I10', 1]][c % 4] as [string, string, number];
      rows.push(`R${String(c).padStart(6, '0')},${l},P${c % 89},professional,2026-05-${String((c % 28) + 1).padStart(2, '0')},${code},${units},${dx}`);
    }
  }
  return `${rows.join('\n')}\n`;
}

const REPORTS = ['findings.csv', 'findings.ndjson', 'claims.csv', 'rejected.csv'];

describe('npm run scrub', () => {
  test('scrubs the samples: summary on stdout, reports written, exit 0; --fail-on error exits 1', () => {
    const out = join(dir, 'samples');
    const ok = cli(['samples/claims', '--out', out, '--workers', '1']);
    // Nothing but progress: a run slower than the first progress log (a busy machine) logs it and its stages.
    const progress = /^(scrubbing .+ elapsed|(cross-claim checks and claims\.csv|writing claims\.csv) \([\d,]+ claims\)|summary and the last reports)$/;
    expect(ok.stderr.split('\n').filter((l) => l !== '' && !progress.test(l))).toEqual([]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^scrubbed \d+ claims/);
    expect(ok.stdout).toContain(`reports in ${out}`);
    for (const f of ['findings.csv', 'claims.csv', 'rejected.csv', 'summary.json', 'report.html']) {
      expect(existsSync(join(out, f))).toBe(true);
    }
    expect(cli(['samples/claims', '--out', out, '--workers', '1', '--fail-on', 'error']).status).toBe(1);
    // A night whose every claim is unreadable has no finding, and fails the gate all the same.
    const unreadable = join(dir, 'unreadable.csv');
    writeFileSync(unreadable, 'claimId,lineNumber,claimType,dateOfServiceFrom,procedureCode,units\nU1,1,professional,2026-02-30,99213,1\nU2,1,professional,2026-05-04,99213,abc\n');
    const rejectedOnly = join(dir, 'unreadable-out');
    expect(cli([unreadable, '--out', rejectedOnly, '--workers', '1']).status).toBe(0);
    for (const level of ['error', 'warning']) {
      const r = cli([unreadable, '--out', rejectedOnly, '--workers', '1', '--fail-on', level]);
      expect(r.stdout).toMatch(/findings: 0 errors, 0 warnings/);
      expect(r.status, level).toBe(1);
    }
  }, 120_000);

  test('two --shard runs merged with `scrub merge` write the reports of one run', () => {
    const whole = join(dir, 'shard-whole');
    expect(cli(['samples/claims', '--out', whole, '--workers', '1']).status).toBe(0);
    const shards = [0, 1].map((k) => join(dir, `shard-${String(k)}`));
    for (const [k, out] of shards.entries()) {
      const r = cli(['samples/claims', '--out', out, '--workers', '1', '--shard', `${String(k)}/2`]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`of other shards \\(this is shard ${String(k)}/2\\)`));
    }
    const merged = join(dir, 'shard-merged');
    const m = cli(['merge', ...shards, '--out', merged]);
    expect(m.stderr).toBe('');
    expect(m.status).toBe(0);
    expect(m.stdout).toContain(`reports in ${merged}: findings.csv, claims.csv, rejected.csv, summary.json, report.html, 277ca-`);
    for (const f of ['findings.csv', 'claims.csv', 'rejected.csv']) {
      expect(readFileSync(join(merged, f), 'utf8'), f).toBe(readFileSync(join(whole, f), 'utf8'));
    }
  }, 120_000);

  test.each([
    ['no --out', ['samples/claims'], 2, /give the claim files or folders and --out DIR/],
    ['a bad --fail-on', ['samples/claims', '--out', 'x', '--fail-on', 'sometimes'], 2, /--fail-on takes error, warning or never/],
    ['an unknown rule', ['samples/claims', '--out', 'x', '--checks', 'ncci.nope'], 2, /unknown rule ncci\.nope/],
    ['an empty --checks (it would run no rule)', ['samples/claims', '--out', 'x', '--checks', ' , '], 2, /--checks: name at least one rule/],
    ['a missing input', ['no/such/file.csv', '--out', 'x'], 3, /no\/such\/file\.csv: cannot read: ENOENT/],
    ['a bad --shard', ['samples/claims', '--out', 'x', '--shard', '2/2'], 2, /--shard 2\/2: N must be 1 to 10000 and K from 0 to N-1/],
    ['merge without folders', ['merge', '--out', 'x'], 2, /merge: give the shard folders and --out DIR/],
    ['merge of a folder that holds no shard', ['merge', 'samples', '--out', 'x'], 2, /samples: no shard\.json: it holds no shard run/],
    ['merge given a shard run\'s options', ['merge', 'samples', '--out', 'x', '--format', 'ndjson', '--resume'], 2, /merge takes --out and --fail-on \(and --db, --sources, --log-level\), not --format, --resume: the shards' runs took those options/],
  ])('exits with its status on %s', (_name, extra, status, message) => {
    const r = cli(extra);
    expect(r.status).toBe(status);
    expect(r.stderr).toMatch(message);
  }, 60_000);

  test('exits 3 on a binary input and 4 when --out cannot be written', () => {
    const binary = join(dir, 'claims.dat');
    writeFileSync(binary, Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]));
    const bin = cli([binary, '--out', join(dir, 'bin')]);
    expect(bin.status).toBe(3);
    expect(bin.stderr).toMatch(/binary content, not a claim file/);
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const unwritable = cli(['samples/claims/claims.csv', '--out', join(blocker, 'out'), '--workers', '1']);
    expect(unwritable.status).toBe(4);
    expect(unwritable.stderr).toMatch(/cannot create .*a-file\/out: ENOTDIR/);
  }, 60_000);

  test('merge exits as the unsharded run would: 3 when an input was not read, 1 with --fail-on and findings', () => {
    const inputs = join(dir, 'merge-in');
    mkdirSync(inputs, { recursive: true });
    writeFileSync(join(inputs, 'claims.csv'), readFileSync('samples/claims/claims.csv'));
    writeFileSync(join(inputs, 'empty.csv'), '');
    const shards = [0, 1].map((k) => join(dir, `merge-shard-${String(k)}`));
    for (const [k, out] of shards.entries()) {
      expect(cli([inputs, '--out', out, '--shard', `${String(k)}/2`, '--workers', '1']).status).toBe(3);
    }
    expect(cli(['merge', ...shards, '--out', join(dir, 'merged')]).status).toBe(3);
    writeFileSync(join(inputs, 'empty.csv'), readFileSync('samples/claims/claims.ndjson'));
    for (const [k, out] of shards.entries()) {
      expect(cli([inputs, '--out', out, '--shard', `${String(k)}/2`, '--workers', '1']).status).toBe(0);
    }
    expect(cli(['merge', ...shards, '--out', join(dir, 'merged')]).status).toBe(0);
    expect(cli(['merge', ...shards, '--out', join(dir, 'merged'), '--fail-on', 'error']).status).toBe(1);
  }, 180_000);

  test('exit statuses of bad places: --out under /proc (4, no hang), a missing history file (3), a report name taken by a folder (4)', () => {
    const proc = cli(['samples/claims/claims.csv', '--out', '/proc/no-such-folder/out', '--workers', '1']);
    expect(proc.status).toBe(4);
    expect(proc.stderr).toMatch(/cannot create \/proc\/no-such-folder\/out: ENOENT\n$/);
    const history = cli(['samples/claims/claims.csv', '--out', join(dir, 'h'), '--history', join(dir, 'none.csv'), '--workers', '1']);
    expect(history.status).toBe(3);
    expect(history.stderr).toMatch(/none\.csv: cannot read the history file: ENOENT/);
    const taken = join(dir, 'taken');
    mkdirSync(join(taken, 'summary.json'), { recursive: true });
    const isDir = cli(['samples/claims/claims.csv', '--out', taken, '--workers', '1']);
    expect(isDir.status).toBe(4);
    expect(isDir.stderr).toMatch(/cannot replace .*summary\.json/);
    const whole = gzipSync(claimCsv(2000));
    const cut = join(dir, 'cut.csv.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const partly = cli([cut, 'samples/claims/claims.csv', '--out', join(dir, 'cut'), '--workers', '1']);
    expect(partly.status).toBe(3);
    expect(partly.stdout).toMatch(/NOT READ TO ITS END: .*cut\.csv\.gz: cannot read: unexpected end of file/);
    expect(existsSync(join(dir, 'cut', 'summary.json'))).toBe(true);
  }, 90_000);

  test('an --out folder inside the input folder is never read as input, run after run', () => {
    const inputs = join(dir, 'in-with-out');
    mkdirSync(inputs);
    writeFileSync(join(inputs, 'a.csv'), claimCsv(5));
    const out = join(inputs, 'reports');
    for (let run = 0; run < 2; run++) {
      const r = cli([inputs, '--out', out, '--workers', '1']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/scrubbed 5 claims .* from 1 file/);
    }
  }, 60_000);

  test('a run killed with SIGKILL at 10 random points, resumed after each, ends with byte-identical reports', async () => {
    const input = join(dir, 'kill.csv');
    writeFileSync(input, claimCsv(40_000));
    const whole = join(dir, 'whole');
    expect(cli([input, '--out', whole, '--workers', '1', '--format', 'csv,ndjson']).status).toBe(0);

    const out = join(dir, 'killed');
    const checkpoint = join(out, '.scrub-checkpoint.json');
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let kills = 0;
    let resumedFromCheckpoint = 0;
    for (let attempt = 0; kills < 10 && attempt < 30; attempt++) {
      const before = existsSync(checkpoint) ? statSync(checkpoint).mtimeMs : 0;
      const child = spawn(
        process.execPath,
        args([input, '--out', out, '--workers', '1', '--format', 'csv,ndjson', '--checkpoint-seconds', '0.2', ...(attempt > 0 ? ['--resume'] : [])]),
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } },
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Wait for a new checkpoint (the run is under way), then kill after a random delay.
      let finished = false;
      while (!(existsSync(checkpoint) && statSync(checkpoint).mtimeMs > before)) {
        if (child.exitCode !== null) {
          finished = true;
          break;
        }
        await sleep(20);
      }
      if (finished) {
        break;
      }
      await sleep(random() * 400);
      if (child.exitCode !== null) {
        break;
      }
      child.kill('SIGKILL');
      await exited;
      kills++;
      if (stderr.includes('resuming:')) {
        resumedFromCheckpoint++;
      }
    }
    expect(kills).toBe(10);
    expect(resumedFromCheckpoint).toBeGreaterThanOrEqual(9);
    const last = cli([input, '--out', out, '--workers', '1', '--format', 'csv,ndjson', '--resume']);
    expect(last.status).toBe(0);
    expect(last.stderr).toMatch(/resuming: \d+ claims already written/);
    for (const f of REPORTS) {
      expect(readFileSync(join(out, f)).equals(readFileSync(join(whole, f))), f).toBe(true);
    }
    const a = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    const b = JSON.parse(readFileSync(join(whole, 'summary.json'), 'utf8')) as Record<string, unknown>;
    for (const key of ['claims', 'linesRead', 'linesScrubbed', 'linesRejected', 'findings', 'notChecked', 'topProviders']) {
      expect(a[key], key).toEqual(b[key]);
    }
    expect(a['resumed']).toBe(true);
    expect(existsSync(checkpoint)).toBe(false);
  }, 600_000);
});
