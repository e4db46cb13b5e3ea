// Integration: the whole reference database built from ../shared/data with every loader, as `refdata build` makes
// it, read through the Reference port. Per-loader tests check each dataset's counts; this one checks that they all
// live in one database together, that status and verify agree with the sources, and that every query module answers.
import { beforeAll, describe, expect, test } from 'vitest';
import { readStatus, verifyDatabase } from '../../src/refdata/builder/status.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import { officialDataDir } from '../helpers/build.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';

const bundledDir = 'data/reference';
let dbPath = '';
let ref: Reference;

beforeAll(async () => {
  dbPath = await sharedReferenceDbPath();
  ref = openReference(dbPath);
  return () => ref.close();
});

describe('the full reference database (real data)', () => {
  test('every dataset of issue 2 is loaded, and only documentation is skipped', () => {
    const datasets = new Set(readStatus(dbPath).sources.map((s) => s.dataset));
    for (const d of [
      'icd10cm-order', 'icd10pcs-order', 'icd10cm-tabular', 'icd10cm-index', 'icd10cm-eindex', 'icd10cm-drug',
      'icd10cm-neoplasm', 'icd10pcs-index', 'icd10cm-conversion', 'icd10cm-poa-exempt', 'icd9cm-dx', 'icd9cm-proc',
      'gems-dx-i10-i9', 'gems-dx-i9-i10', 'gems-pcs-i10-i9', 'gems-pcs-i9-i10', 'hcpcs', 'hcpcs-noc', 'opps-addendum-b',
      'dmepos-fee', 'mue-practitioner', 'mue-outpatient-hospital', 'mue-dme', 'ncci-aoc', 'mce', 'ncd-lab',
      'zip5-locality', 'mcd-documents-derived', 'medicare-contractors',
    ]) {
      expect(datasets, d).toContain(d);
    }
    const skipped = readStatus(dbPath).skipped;
    expect(skipped.filter((s) => s.reason === 'not recognised by any loader')).toEqual([]);
    expect(skipped.map((s) => s.file)).toContain('MANIFEST.md');
  });

  test('status reports three ICD-10-CM order releases with their dates, and verify finds nothing wrong', async () => {
    const order = readStatus(dbPath).sources.filter((s) => s.dataset === 'icd10cm-order');
    expect(order.map((s) => [s.release, s.validFrom, s.validTo, s.rows])).toEqual([
      ['FY2024', '2023-10-01', '2024-09-30', 97_296],
      ['FY2025', '2024-10-01', '2025-09-30', 97_584],
      // The newest release ends with its fiscal year: FY2027 dates are not checked against it.
      ['FY2026', '2025-10-01', '2026-09-30', 98_186],
    ]);
    expect(await verifyDatabase(dbPath, officialDataDir, bundledDir, 'samples/policies')).toEqual([]);
  });

  test('every query module answers from the one database', () => {
    const date = '2026-02-01';
    expect(ref.codes.onDate('ICD10CM', 'E119', date)?.billable).toBe(true);
    expect(ref.codes.onDate('ICD10PCS', '0016070', date)?.billable).toBe(true);
    expect(ref.codes.onDate('ICD9CM_DX', '25000', '2015-01-01')?.billable).toBe(true);
    // Notes for a FY2026 code come from the FY2023 tabular, and say so.
    const notes = ref.tabular.notes('E119');
    expect(notes?.notes.some((n) => n.type === 'useAdditionalCode' && n.release === 'FY2023')).toBe(true);
    expect(ref.mapping.gemsBySource('dx', 'backward', 'A021')).toHaveLength(2);
    expect(ref.index.termsForCode('ICD10CM', 'E1165', { date }).length).toBeGreaterThan(0);
    expect(ref.edits.zipLocality('94103', date)).toMatchObject({ state: 'CA', carrier: '01112' });
    expect(ref.edits.releaseOn('mue-practitioner', '2026-05-01')).toBeDefined();
    expect(ref.procedures.opps('G0008', '2025-02-01')).toBeDefined();
    expect(ref.policies.mceEdits('2026-05-01').length).toBeGreaterThan(0);
  });
});
