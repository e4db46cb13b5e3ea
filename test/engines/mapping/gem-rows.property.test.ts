// Property: for every row of the four official GEM files, GemsMap returns that row, with the five flags as printed,
// in file order; no row is lost and none is invented. The files are read from the release itself, the engine answers
// from the reference database, and each file's codes go to the engine in batches as the worker pool would send them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gemsMap } from '../../../src/engines/mapping/index.js';
import type { Reference } from '../../../src/reference/index.js';
import type { GemsMapItem, MapCodeType } from '../../../src/schemas/mapping.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { bySource, icd10Cm, icd9Dx, icd9Proc, readGemFile, type GEM_FILES, type GemFileRow } from './gem-files.js';

const DATE = '2025-10-01';
const BATCH = 5_000;

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

/** How one file is asked for and how its rows must come back. */
interface FileCase {
  readonly name: keyof typeof GEM_FILES;
  readonly type: MapCodeType;
  /** The code as the request spells it. */
  readonly request: (source: string) => string;
  /** `sourceCode` / `code` as the answer must show them. */
  readonly source: (source: string) => string;
  readonly target: (target: string) => string;
  readonly codeType: string;
  /** Rows whose target is a sentinel while the no-map flag says 0 (domain.md section 5: 29 in gem_pcsi9.txt). */
  readonly sentinelQuirks: number;
}

const cases: FileCase[] = [
  // Backward files: the codes as the files print them (undotted), lower-cased for good measure.
  {
    name: 'dxBackward',
    type: 'ICD-10 CM',
    request: (s) => s.toLowerCase(),
    source: icd10Cm,
    target: icd9Dx,
    codeType: 'ICD-9 CM',
    sentinelQuirks: 0,
  },
  {
    name: 'pcsBackward',
    type: 'ICD-10 PCS',
    request: (s) => s,
    source: (s) => s,
    target: (t) => t,
    codeType: 'ICD-9 CM',
    sentinelQuirks: 29,
  },
  // Forward files (ICD-9 CM, ext): dotted, as a coder writes ICD-9; three-digit diagnoses have no dot and may also be
  // procedures (311, 31.1), so only rows of the file's target code set are compared.
  {
    name: 'dxForward',
    type: 'ICD-9 CM',
    request: icd9Dx,
    source: icd9Dx,
    target: icd10Cm,
    codeType: 'ICD-10 CM',
    sentinelQuirks: 0,
  },
  {
    name: 'pcsForward',
    type: 'ICD-9 CM',
    request: icd9Proc,
    source: (s) => s,
    target: (t) => t,
    codeType: 'ICD-10 PCS',
    sentinelQuirks: 0,
  },
];

/** A row reduced to what must match: target as shown, then the five flags (no-map set for a sentinel target). */
const expectedKey = (c: FileCase, row: GemFileRow): string => {
  const noMap = row.target === null ? '1' : (row.flags[1] ?? '');
  return `${row.target === null ? '' : c.target(row.target)}|${row.flags[0] ?? ''}${noMap}${row.flags.slice(2)}`;
};
const actualKey = (item: GemsMapItem): string =>
  `${item.code}|${item.isApproximate}${item.isNotMappable}${item.isCombination}${item.scenario}${item.choiceList}`;

describe('GemsMap returns every GEM row with its flags', () => {
  test.each(cases)('$name: every row, flags as printed, file order, nothing invented', async (c) => {
    const rows = await readGemFile(c.name);
    const expected = bySource(rows);
    const sources = [...expected.keys()];

    const actual = new Map<string, string[]>();
    let returned = 0;
    for (let i = 0; i < sources.length; i += BATCH) {
      const { result } = gemsMap(ref, sources.slice(i, i + BATCH).map(c.request), c.type, DATE);
      for (const item of result) {
        if (item.codeType !== c.codeType) {
          continue;
        }
        returned += 1;
        const keys = actual.get(item.sourceCode);
        if (keys) {
          keys.push(actualKey(item));
        } else {
          actual.set(item.sourceCode, [actualKey(item)]);
        }
      }
    }

    const mismatches: string[] = [];
    for (const [source, group] of expected) {
      const want = group.map((r) => expectedKey(c, r));
      const got = actual.get(c.source(source)) ?? [];
      if (want.join(' ') !== got.join(' ') && mismatches.length < 20) {
        mismatches.push(`${source}: want [${want.join(' ')}] got [${got.join(' ')}]`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(returned).toBe(rows.length);
    expect(actual.size).toBe(expected.size);
    expect(rows.filter((r) => r.target === null && r.flags[1] === '0')).toHaveLength(c.sentinelQuirks);
  });
});
