// The refdata CLI end to end, as a user runs it: build, status --json, verify, a no-op rebuild, and a build killed
// half-way that must leave the previous database usable.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { orderLine } from '../helpers/order-line.js';
import { officialDataDir } from '../helpers/build.js';

const cli = (args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipelines/refdata.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

let dir = '';
let sources = '';
let db = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refdata-cli-'));
  sources = join(dir, 'sources');
  db = join(dir, 'build', 'reference.sqlite');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(sources, { recursive: true });
  await writeFile(
    join(sources, '2026-code-descriptions-tabular-order.zip'),
    makeZip({ 'icd10cm_order_2026.txt': `${orderLine(1, 'A00', 0, 'Cholera')}\r\n${orderLine(2, 'A000', 1, 'Cholera 01')}\r\n` }),
  );
  await writeFile(join(sources, 'README.txt'), 'not a data file');
});

describe('npm run refdata', () => {
  test('build prints a summary, status --json lists the sources, verify passes, a rebuild is a no-op', () => {
    const built = cli(['build', '--sources', sources, '--db', db]);
    expect(built.status).toBe(0);
    expect(built.stdout).toMatch(/icd10cm-order\s+FY2026\s+2026-code-descriptions-tabular-order\.zip \[icd10cm_order_2026\.txt\]\s+2\b/);
    expect(built.stderr).toContain('skipped README.txt: not recognised by any loader');
    expect(built.stderr).toMatch(/loaded +icd10cm-order FY2026: 2 rows/);

    const text = cli(['status', '--db', db]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/rows per table:\n(.*\n)* {2}code +2\n/);
    const status = cli(['status', '--db', db, '--json']);
    expect(status.status).toBe(0);
    const json = JSON.parse(status.stdout) as { schemaVersion: number; builtAt: string; sources: Record<string, unknown>[] };
    expect(json.schemaVersion).toBe(1);
    expect(json.sources).toEqual([
      expect.objectContaining({ dataset: 'icd10cm-order', file: '2026-code-descriptions-tabular-order.zip', release: 'FY2026', validFrom: '2025-10-01', rows: 2 }),
      // The contractor table committed with the project is loaded beside the sources.
      expect.objectContaining({ dataset: 'medicare-contractors', file: 'bundled/medicare-contractors.json' }),
      // So are the policy packs shipped under samples/policies (config policiesDir).
      expect.objectContaining({ dataset: 'policy-pack:CMS-PREVENTIVE', file: 'policies/medicare-preventive.policy.json' }),
      expect.objectContaining({ dataset: 'policy-pack:EXAMPLE-PAYER-PREVENTIVE', file: 'policies/example-commercial.policy.json' }),
    ]);
    expect(json.sources[0]?.['sha256']).toMatch(/^[0-9a-f]{64}$/);

    expect(cli(['verify', '--sources', sources, '--db', db]).status).toBe(0);
    const again = cli(['build', '--sources', sources, '--db', db]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('is up to date');
  });

  test('a bad verb prints usage and exits 2; a missing database is a clear error', () => {
    const bad = cli(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('usage: npm run refdata');
    const missing = cli(['status', '--db', join(dir, 'nope.sqlite')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no reference database at');
  });

  test('killing a build half-way leaves the previous database usable, and the next build clears the debris', async () => {
    const before = cli(['status', '--db', db, '--json']);
    const builtAt = (JSON.parse(before.stdout) as { builtAt: string }).builtAt;
    // A real, longer build over the official files, killed as soon as its first unit is in.
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/refdata.ts', 'build', '--sources', officialDataDir, '--db', db, '--force'], {
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/^(loaded|  \.\.\.)/m.test(err)) {
          child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(readdirSync(join(dir, 'build')).some((n) => n.includes('.tmp-'))).toBe(true);
    const after = cli(['status', '--db', db, '--json']);
    expect(after.status).toBe(0);
    expect((JSON.parse(after.stdout) as { builtAt: string }).builtAt).toBe(builtAt);
    expect(cli(['verify', '--sources', sources, '--db', db]).status).toBe(0);
    // The next build removes the killed build's temporary file.
    expect(cli(['build', '--sources', sources, '--db', db, '--force']).status).toBe(0);
    expect(readdirSync(join(dir, 'build')).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(existsSync(db)).toBe(true);
  });
});
