// `npm run data:fetch` as a user runs it (the pipeline script in a child process): exit status, stderr messages,
// --list, --mirror, --only and --dest.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { readSourcesManifest, type SourcesManifest } from '../../../src/refdata/fetch/sources-manifest.js';
import { officialDataDir } from '../../helpers/build.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const listPath = join(repo, 'data', 'sources.json');

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/fetch-data.ts', ...args], {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

let list: SourcesManifest;
beforeAll(async () => {
  list = await readSourcesManifest(listPath);
});

describe('data:fetch command', () => {
  test('copies from a folder mirror; a checksum mismatch names the file and both hashes and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'data-fetch-cli-'));
    const good = list.sources.find((e) => e.file === 'hcpcs/2019-HCPCS-NOC-Codes.zip')!;
    const bad = { ...list.sources.find((e) => e.file === 'dmepos/DMEPEN26_JAN.xlsx')!, sha256: '0'.repeat(64) };
    await writeFile(join(dir, 'list.json'), JSON.stringify({ schemaVersion: 1, sources: [bad, good] }));
    const dest = join(dir, 'sources');
    const { code, stderr } = await run([
      '--list',
      join(dir, 'list.json'),
      '--mirror',
      resolve(officialDataDir),
      '--dest',
      dest,
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain(`dmepos/DMEPEN26_JAN.xlsx: checksum mismatch: expected sha256 ${'0'.repeat(64)}`);
    expect(stderr).toContain('got sha256 b8bd71c84c85546c78565ab8a931faf5c844a15061a91023dd14c1fdaa43e1b7');
    expect(stderr).toMatch(/1 fetched, 0 already present, 0 unavailable, 1 failed/);
    expect(existsSync(join(dest, 'dmepos', 'DMEPEN26_JAN.xlsx'))).toBe(false);
    expect(existsSync(join(dest, 'dmepos', 'DMEPEN26_JAN.xlsx.part'))).toBe(false);
    expect((await readFile(join(dest, good.file))).length).toBe(good.bytes);

    const again = await run([
      '--list',
      join(dir, 'list.json'),
      '--mirror',
      resolve(officialDataDir),
      '--dest',
      dest,
      '--only',
      'hcpcs-noc',
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('hcpcs/2019-HCPCS-NOC-Codes.zip: present, checksum verified');
  });

  test('--only with an unknown dataset exits 2 and lists the known names', async () => {
    const { code, stderr } = await run([
      '--only',
      'icd10cm-order,no-such-thing',
      '--dest',
      join(tmpdir(), 'never-written'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown dataset\(s\) no-such-thing; known: icd10cm-order, /);
    expect(existsSync(join(tmpdir(), 'never-written'))).toBe(false);
  });
});
