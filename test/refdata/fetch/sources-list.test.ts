// data/sources.json against the official files in officialDataDir, so the list and the data cannot drift apart:
// every file there is listed with its real sha256 and size; and the schema rejects malformed lists.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  parseSourcesManifest,
  readSourcesManifest,
  type SourcesManifest,
} from '../../../src/refdata/fetch/sources-manifest.js';
import { officialDataDir } from '../../helpers/build.js';

const listPath = fileURLToPath(new URL('../../../data/sources.json', import.meta.url));

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
  }
  return hash.digest('hex');
}

let list: SourcesManifest;
let dataFiles: string[];

beforeAll(async () => {
  list = await readSourcesManifest(listPath);
  const found = await readdir(officialDataDir, { recursive: true, withFileTypes: true });
  dataFiles = found
    .filter((d) => d.isFile())
    .map((d) => relative(officialDataDir, join(d.parentPath, d.name)).split('\\').join('/'))
    .filter((f) => f !== 'MANIFEST.md')
    .sort((a, b) => a.localeCompare(b));
});

describe('data/sources.json', () => {
  test('lists every file of the official data folder except MANIFEST.md', () => {
    expect(dataFiles.length).toBeGreaterThanOrEqual(50);
    const listed = new Set(list.sources.map((e) => e.file));
    expect(dataFiles.filter((f) => !listed.has(f))).toEqual([]);
  });

  test('each listed file present in the official data folder has the listed sha256 and size', async () => {
    const present = new Set(dataFiles);
    const wrong: string[] = [];
    let checked = 0;
    for (const e of list.sources.filter((x) => present.has(x.file))) {
      const path = join(officialDataDir, e.file);
      const actual = await sha256Of(path);
      const { size } = await stat(path);
      checked++;
      if (actual !== e.sha256 || size !== e.bytes) {
        wrong.push(`${e.file}: listed ${e.sha256}/${e.bytes}, actual ${actual}/${size}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(dataFiles.length);
  });

  test('uses the stable dataset names, and official URLs only on CMS/CDC hosts', () => {
    expect([...new Set(list.sources.map((e) => e.dataset))]).toEqual(
      expect.arrayContaining([
        'icd10cm-order',
        'icd10pcs-order',
        'icd10cm-tabular',
        'icd10cm-index',
        'icd10cm-eindex',
        'icd10cm-drug',
        'icd10cm-neoplasm',
        'icd10cm-drug-csv',
        'icd10pcs-index',
        'icd10cm-poa-exempt',
        'icd10cm-conversion',
        'icd10cm-addenda',
        'icd9cm',
        'gems-dx',
        'gems-pcs-i10-i9',
        'gems-pcs-i9-i10',
        'hcpcs',
        'hcpcs-noc',
        'hcpcs-corrections',
        'hcpcs-record-layout',
        'opps-addendum-b',
        'opps-addendum-b-derived',
        'dmepos-fee',
        'dmepen-fee',
        'mue-practitioner',
        'mue-outpatient-hospital',
        'mue-dme',
        'ncci-aoc',
        'mce',
        'mce-v37-derived',
        'mcd-documents-derived',
        'ncd-lab',
        'zip5-locality',
        'icd10cm-fallback-fy2017',
      ]),
    );
    for (const e of list.sources) {
      if (e.url !== null) {
        expect(['www.cms.gov', 'ftp.cdc.gov', 'www.cdc.gov']).toContain(new URL(e.url).hostname);
        expect(e.official).toBe(true);
      }
    }
    const notOfficial = ['mcd-documents-derived', 'mce-v37-derived', 'opps-addendum-b-derived', 'zip5-locality'];
    for (const e of list.sources.filter((x) => notOfficial.includes(x.dataset))) {
      expect([e.file, e.official, e.url]).toEqual([e.file, false, null]);
    }
    expect(list.sources.find((e) => e.file === 'icd10cm/2026-code-descriptions-tabular-order.zip')?.url).toBe(
      'https://www.cms.gov/files/zip/2026-code-descriptions-tabular-order.zip',
    );
  });
});

describe('the sources list schema', () => {
  const good = {
    dataset: 'hcpcs-noc',
    release: 'CY2019',
    file: 'hcpcs/2019-HCPCS-NOC-Codes.zip',
    sha256: 'c2717e6b631dad0565d67f2aa7aeea13a9bad7b6e719320ac0fa29a028f4ba72',
    bytes: 23351,
    url: 'https://www.cms.gov/x.zip',
    official: true,
  };
  const parse = (sources: unknown[]): unknown => parseSourcesManifest({ schemaVersion: 1, sources }, 'test.json');

  test('accepts a valid entry', () => {
    expect(() => parse([good])).not.toThrow();
  });

  test.each([
    ['a url of null without a note', { ...good, url: null }, /sources\.0\.note: an entry without a url needs a note/],
    ['a path that climbs out of the sources folder', { ...good, file: '../etc/passwd' }, /sources\.0\.file/],
    ['an absolute path', { ...good, file: '/hcpcs/x.zip' }, /sources\.0\.file/],
    ['an upper-case or short sha256', { ...good, sha256: 'ABC' }, /sources\.0\.sha256/],
    ['an ftp URL', { ...good, url: 'ftp://ftp.cdc.gov/x.zip' }, /sources\.0\.url/],
    ['an unknown field', { ...good, sha: 'x' }, /sha/],
    ['a dataset name that is not kebab-case', { ...good, dataset: 'HCPCS_noc' }, /sources\.0\.dataset/],
  ])('rejects %s', (_what, entry, message) => {
    expect(() => parse([entry])).toThrow(message);
  });

  test('rejects a file listed twice', () => {
    expect(() => parse([good, { ...good, release: 'CY2020' }])).toThrow(
      /sources\.1\.file: file hcpcs\/2019-HCPCS-NOC-Codes\.zip is listed twice/,
    );
  });
});
