// data:fetch end to end against a loopback HTTP server serving the official files (officialDataDir): verified
// downloads, a corrupted file, a dropped connection resumed with Range, a server that ignores Range, transient
// errors, redirects, a leftover .part, a local-folder mirror and --only.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  destPath,
  fetchSources,
  type FetchOptions,
  type FetchReporter,
} from '../../../src/refdata/fetch/fetch-sources.js';
import { selectSources } from '../../../src/refdata/fetch/plan.js';
import { readSourcesManifest, type SourceEntry } from '../../../src/refdata/fetch/sources-manifest.js';
import { officialDataDir } from '../../helpers/build.js';
import { alter, startLoopbackServer, type LoopbackServer } from './loopback-server.js';

const listPath = fileURLToPath(new URL('../../../data/sources.json', import.meta.url));
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

let server: LoopbackServer;
let entries: SourceEntry[];
const byFile = (file: string): SourceEntry => {
  const e = entries.find((x) => x.file === file);
  if (!e) {
    throw new Error(`${file} is not in data/sources.json`);
  }
  return e;
};

// Small real files, one with a space in its name (percent-encoded in the URL).
const noc = 'hcpcs/2019-HCPCS-NOC-Codes.zip';
const layout = 'hcpcs/2019-HCPCS-Record-Layout.zip';
const pen = 'dmepos/DMEPEN26_JAN.xlsx';
const addendum = 'icd10cm/tabular-addenda/icd10cm-addendum-April 1 2023.zip';
const neoplasm = 'icd10cm/tables-index-fy2025/icd-10-cm-neoplasm-2025.xml';

async function tempDest(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'data-fetch-'));
}

async function filesUnder(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  return found
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split('\\').join('/'))
    .sort();
}

/** The entries, pointed at the loopback server as if it were the official host. */
function officialAt(base: string, files: string[], prefix = ''): SourceEntry[] {
  return files.map((f) => ({
    ...byFile(f),
    url: `${base}${prefix}/${f.split('/').map(encodeURIComponent).join('/')}`,
  }));
}

function opts(extra: Partial<FetchOptions> & Pick<FetchOptions, 'entries' | 'dest'>): FetchOptions {
  return { retryBaseMs: 1, retryMaxMs: 5, idleTimeoutMs: 10_000, ...extra };
}

beforeAll(async () => {
  entries = (await readSourcesManifest(listPath)).sources;
  server = await startLoopbackServer(officialDataDir);
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.corrupt.clear();
  server.stallFirst.clear();
  server.unavailableFirst.clear();
  server.ignoreRange = false;
});

describe('fetchSources over HTTP', () => {
  test('downloads real files from their URLs, verifies each checksum, and keeps the relative layout', async () => {
    const dest = await tempDest();
    const files = [noc, layout, addendum];
    const outcomes = await fetchSources(opts({ entries: officialAt(server.base, files), dest }));
    expect(outcomes.map((o) => o.status)).toEqual(['fetched', 'fetched', 'fetched']);
    expect(await filesUnder(dest)).toEqual([...files].sort());
    for (const f of files) {
      const bytes = await readFile(join(dest, f));
      expect(sha256(bytes)).toBe(byFile(f).sha256);
      expect(bytes.length).toBe(byFile(f).bytes);
    }
    expect(server.requests.map((r) => r.path).sort()).toEqual([...files].sort());
  });

  test('a file already present with the listed checksum is kept without a request; a different copy is replaced', async () => {
    const dest = await tempDest();
    const [nocEntry, layoutEntry] = officialAt(server.base, [noc, layout]) as [SourceEntry, SourceEntry];
    await mkdir(dirname(destPath(dest, nocEntry)), { recursive: true });
    await writeFile(destPath(dest, nocEntry), await readFile(join(officialDataDir, noc)));
    await writeFile(destPath(dest, layoutEntry), 'an older copy');
    const starts: boolean[] = [];
    const outcomes = await fetchSources(
      opts({
        entries: [nocEntry, layoutEntry],
        dest,
        reporter: { start: (_e, _f, _r, replacing) => starts.push(replacing) },
      }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['present', 'fetched']);
    expect(starts).toEqual([true]);
    expect(server.requests.map((r) => r.path)).toEqual([layout]);
    expect(sha256(await readFile(join(dest, layout)))).toBe(layoutEntry.sha256);
  });

  test('a corrupted file fails with file, expected and actual hash; nothing is kept; the other files still arrive', async () => {
    const dest = await tempDest();
    server.corrupt.add(pen);
    const altered = sha256(alter(await readFile(join(officialDataDir, pen))));
    const outcomes = await fetchSources(opts({ entries: officialAt(server.base, [noc, pen, layout]), dest }));
    expect(outcomes.map((o) => o.status)).toEqual(['fetched', 'failed', 'fetched']);
    const failed = outcomes[1];
    expect(failed?.status).toBe('failed');
    if (failed?.status === 'failed') {
      expect(failed.message).toContain(pen);
      expect(failed.message).toContain(`expected sha256 ${byFile(pen).sha256}`);
      expect(failed.message).toContain(`got sha256 ${altered}`);
      expect(failed.partKept).toBe(false);
    }
    expect(existsSync(join(dest, pen))).toBe(false);
    expect(existsSync(join(dest, `${pen}.part`))).toBe(false);
    expect(await filesUnder(dest)).toEqual([noc, layout]);
  });

  test('a connection dropped half-way is retried with a Range request from the .part size, and the file verifies', async () => {
    const dest = await tempDest();
    server.stallFirst.add(neoplasm);
    const retries: string[] = [];
    const reporter: FetchReporter = {
      // The server has sent half the file and stalls; once bytes are on disk, drop the connection.
      progress: (_e, bytes) => {
        if (bytes > 0) {
          server.dropStalled();
        }
      },
      retry: (_e, _attempt, _delay, reason) => retries.push(reason),
    };
    const [outcome] = await fetchSources(opts({ entries: officialAt(server.base, [neoplasm]), dest, reporter }));
    expect(outcome?.status).toBe('fetched');
    expect(retries).toHaveLength(1);
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(first).toMatchObject({ path: neoplasm, range: undefined, status: 200 });
    expect(second?.status).toBe(206);
    const start = Number(/^bytes=(\d+)-$/.exec(second?.range ?? '')?.[1]);
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(byFile(neoplasm).bytes);
    if (outcome?.status === 'fetched') {
      expect(outcome.resumedFrom).toBe(start);
      expect(outcome.attempts).toBe(2);
    }
    expect(sha256(await readFile(join(dest, neoplasm)))).toBe(byFile(neoplasm).sha256);
    expect(existsSync(join(dest, `${neoplasm}.part`))).toBe(false);
  });

  test('a server that answers a Range request with 200 makes the download start over, and the file verifies', async () => {
    const dest = await tempDest();
    server.stallFirst.add(neoplasm);
    server.ignoreRange = true;
    const reporter: FetchReporter = { progress: (_e, bytes) => (bytes > 0 ? server.dropStalled() : undefined) };
    const [outcome] = await fetchSources(opts({ entries: officialAt(server.base, [neoplasm]), dest, reporter }));
    expect(outcome?.status).toBe('fetched');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.range).toMatch(/^bytes=[1-9]\d*-$/);
    expect(server.requests[1]?.status).toBe(200);
    expect(sha256(await readFile(join(dest, neoplasm)))).toBe(byFile(neoplasm).sha256);
  });

  test('a .part left by an interrupted run is resumed from its size', async () => {
    const dest = await tempDest();
    const whole = await readFile(join(officialDataDir, pen));
    await mkdir(join(dest, 'dmepos'), { recursive: true });
    await writeFile(join(dest, `${pen}.part`), whole.subarray(0, 10_000));
    const starts: number[] = [];
    const [outcome] = await fetchSources(
      opts({ entries: officialAt(server.base, [pen]), dest, reporter: { start: (_e, _f, from) => starts.push(from) } }),
    );
    expect(outcome?.status).toBe('fetched');
    expect(starts).toEqual([10_000]);
    expect(server.requests).toEqual([{ path: pen, range: 'bytes=10000-', status: 206 }]);
    expect(sha256(await readFile(join(dest, pen)))).toBe(byFile(pen).sha256);
  });

  test('transient 503s are retried with backoff, up to the attempt limit', async () => {
    const dest = await tempDest();
    server.unavailableFirst.set(noc, 2);
    server.unavailableFirst.set(layout, 10);
    const delays: number[] = [];
    const outcomes = await fetchSources(
      opts({
        entries: officialAt(server.base, [noc, layout]),
        dest,
        maxAttempts: 3,
        retryBaseMs: 1,
        retryMaxMs: 3,
        reporter: { retry: (_e, _a, ms) => delays.push(ms) },
      }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fetched', 'failed']);
    expect(delays).toEqual([1, 2, 1, 2]);
    expect(server.requests.filter((r) => r.path === layout)).toHaveLength(3);
    expect(outcomes[1]?.status === 'failed' && outcomes[1].message).toMatch(/HTTP 503 \(gave up after 3 attempts\)/);
    expect(existsSync(join(dest, layout))).toBe(false);
  });

  test('a file of another size at the URL (a re-issued release) fails at once, naming both sizes; nothing is kept', async () => {
    const dest = await tempDest();
    const [real] = officialAt(server.base, [pen]) as [SourceEntry];
    const [outcome] = await fetchSources(opts({ entries: [{ ...real, bytes: real.bytes + 1 }], dest }));
    expect(outcome?.status === 'failed' && outcome.message).toBe(
      `${pen}: size mismatch: the server has ${real.bytes} bytes, the list expects ${real.bytes + 1}`,
    );
    expect(server.requests).toHaveLength(1);
    expect(await filesUnder(dest)).toEqual([]);
  });

  test('a 404 fails at once without retrying or leaving a .part', async () => {
    const dest = await tempDest();
    const missing: SourceEntry = {
      ...byFile(noc),
      file: 'hcpcs/not-here.zip',
      url: `${server.base}/hcpcs/not-here.zip`,
    };
    const [outcome] = await fetchSources(opts({ entries: [missing], dest }));
    expect(outcome).toMatchObject({ status: 'failed', partKept: false });
    expect(outcome?.status === 'failed' && outcome.message).toContain('HTTP 404');
    expect(server.requests).toHaveLength(1);
    expect(await filesUnder(dest)).toEqual([]);
  });

  test('an unknown host fails with its name', async () => {
    const dest = await tempDest();
    const entry: SourceEntry = { ...byFile(noc), url: 'http://nonexistent.invalid/hcpcs/x.zip' };
    const [outcome] = await fetchSources(opts({ entries: [entry], dest, maxAttempts: 2 }));
    expect(outcome?.status).toBe('failed');
    expect(outcome?.status === 'failed' && outcome.message).toContain('nonexistent.invalid');
    expect(existsSync(join(dest, noc))).toBe(false);
  });

  test('redirects are followed', async () => {
    const dest = await tempDest();
    const [outcome] = await fetchSources(opts({ entries: officialAt(server.base, [noc], '/moved'), dest }));
    expect(outcome?.status).toBe('fetched');
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      [`/moved/${noc}`, 302],
      [noc, 200],
    ]);
  });

  test('an HTTP mirror serves every file, including those without an official URL; --only selects datasets', async () => {
    const dest = await tempDest();
    const { selected, unknown } = selectSources(entries, [
      'hcpcs-noc',
      'icd10cm-conversion',
      'gems-pcs-i9-i10',
      'no-such-dataset',
    ]);
    expect(unknown).toEqual(['no-such-dataset']);
    expect(selected.find((e) => e.dataset === 'gems-pcs-i9-i10')?.url).toBeNull();
    const outcomes = await fetchSources(
      opts({ entries: selected, dest, mirror: { kind: 'http', base: `${server.base}/` } }),
    );
    expect(outcomes.every((o) => o.status === 'fetched')).toBe(true);
    expect(await filesUnder(dest)).toEqual([
      'gems/gem_i9pcs.txt',
      'hcpcs/2019-HCPCS-NOC-Codes.zip',
      'icd10cm/ICD-10-CM-CONVERSION-TABLE-FY2026.xlsx',
      'icd10cm/icd-10-cm-conversion-table-FY2025.xlsx',
    ]);
  });

  test('without a mirror, a file with no official URL is reported unavailable, not fetched', async () => {
    const dest = await tempDest();
    const [outcome] = await fetchSources(opts({ entries: [byFile('gems/gem_i9pcs.txt')], dest }));
    expect(outcome?.status).toBe('unavailable');
    expect(outcome?.status === 'unavailable' && outcome.reason).toContain('mirror');
    expect(server.requests).toHaveLength(0);
  });
});

describe('fetchSources from a local folder mirror', () => {
  test('copies real files and verifies them', async () => {
    const dest = await tempDest();
    const files = [noc, addendum, 'mce/Definitions of Medicare Code Edits_v_43_1.txt'];
    const outcomes = await fetchSources(
      opts({ entries: files.map(byFile), dest, mirror: { kind: 'dir', dir: officialDataDir } }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fetched', 'fetched', 'fetched']);
    for (const f of files) {
      expect(sha256(await readFile(join(dest, f)))).toBe(byFile(f).sha256);
    }
    expect(server.requests).toHaveLength(0);
  });

  test('a mirror copy with other bytes fails with both hashes and leaves nothing; a missing one fails', async () => {
    const mirror = await tempDest();
    const dest = await tempDest();
    await mkdir(join(mirror, 'hcpcs'), { recursive: true });
    const altered = alter(await readFile(join(officialDataDir, noc)));
    await writeFile(join(mirror, noc), altered);
    const outcomes = await fetchSources(
      opts({ entries: [byFile(noc), byFile(layout)], dest, mirror: { kind: 'dir', dir: mirror } }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['failed', 'failed']);
    expect(outcomes[0]?.status === 'failed' && outcomes[0].message).toContain(`got sha256 ${sha256(altered)}`);
    expect(outcomes[1]?.status === 'failed' && outcomes[1].message).toContain('cannot read');
    expect(await filesUnder(dest)).toEqual([]);
  });
});
