// The four official GEM files read straight from the release (not from the reference database), so the property
// tests compare the engine with the files themselves: source, target and the five flag digits of every row.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { openZipBufferEntry, zipBufferEntries } from '../../../src/readers/zip-buffer.js';
import { officialDataDir } from '../../helpers/build.js';

/** One GEM row as printed; `target` null for a NoDx / NoPCS / NoI9 sentinel. */
export interface GemFileRow {
  readonly source: string;
  readonly target: string | null;
  readonly flags: string;
}

/** The four files, each with the code-set name a request names its sources by. */
export const GEM_FILES = {
  dxBackward: { file: '2018_I10gem.txt', zip: 'gems/Dxgem_2018.zip' },
  dxForward: { file: '2018_I9gem.txt', zip: 'gems/Dxgem_2018.zip' },
  pcsBackward: { file: 'gems/gem_pcsi9.txt', zip: undefined },
  pcsForward: { file: 'gems/gem_i9pcs.txt', zip: undefined },
} as const;

async function fileText(name: keyof typeof GEM_FILES): Promise<string> {
  const { file, zip } = GEM_FILES[name];
  if (zip === undefined) {
    return readFile(join(officialDataDir, file), 'latin1');
  }
  const archive = await readFile(join(officialDataDir, zip));
  const entry = zipBufferEntries(archive).find((e) => e.name === file);
  if (!entry) {
    throw new Error(`${file} is not in ${zip}`);
  }
  return (await buffer(openZipBufferEntry(archive, entry))).toString('latin1');
}

/** Every row of one GEM file, in file order. */
export async function readGemFile(name: keyof typeof GEM_FILES): Promise<GemFileRow[]> {
  const rows: GemFileRow[] = [];
  for (const line of (await fileText(name)).split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 3) {
      continue;
    }
    const [source = '', target = '', flags = ''] = fields;
    rows.push({
      source: source.toUpperCase(),
      target: /^No(Dx|PCS|I9)$/i.test(target) ? null : target.toUpperCase(),
      flags,
    });
  }
  return rows;
}

/** Rows grouped by source code, sources in order of first appearance, rows in file order. */
export function bySource(rows: readonly GemFileRow[]): Map<string, GemFileRow[]> {
  const groups = new Map<string, GemFileRow[]>();
  for (const row of rows) {
    const group = groups.get(row.source);
    if (group) {
      group.push(row);
    } else {
      groups.set(row.source, [row]);
    }
  }
  return groups;
}

/** Inserts a dot after `at` characters when the code is longer (test-side spelling, independent of the engine's). */
export const dotAfter = (code: string, at: number): string =>
  code.length > at ? `${code.slice(0, at)}.${code.slice(at)}` : code;
/** ICD-9-CM diagnosis, dotted: after 4 for E codes, else after 3. */
export const icd9Dx = (code: string): string => dotAfter(code, code.startsWith('E') ? 4 : 3);
/** ICD-9-CM procedure, dotted after 2. */
export const icd9Proc = (code: string): string => dotAfter(code, 2);
/** ICD-10-CM, dotted after 3. */
export const icd10Cm = (code: string): string => dotAfter(code, 3);
