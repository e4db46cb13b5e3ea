// ncci.ptp on PTP tables in the official layout (test/fixtures/ncci: made-up pairs, release 2026Q2 from 2026-04-01;
// no official PTP file is in ../shared/data). Code lookups come from the shared full reference; the edit lookups
// from a small database built from the fixtures. Edits used (column 1, column 2, modifier indicator):
//   practitioner  93000 93005 0 · 10021 10004 1 · 11042 97597 0 from 2024 (1 before) · 29881 29880 1
//                 36415 36416 9 (deleted in 2002)
//   hospital      29881 29880 0 · 93000 93005 0 deleted after 2025-12-31
// and two rows this file appends to the practitioner table: 20610 99213 1 (an E&M as column 2) and 99214 36415 9
// in force (not applicable).
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateClaim, type ValidationReference } from '../../../src/engines/validation/index.js';
import { ncciPtpLoader } from '../../../src/refdata/loaders/ncci-ptp.js';
import type { Reference } from '../../../src/reference/index.js';
import { createEditQueries } from '../../../src/reference/queries/edits.js';
import type { Claim } from '../../../src/schemas/claim.js';
import { buildFixture } from '../../helpers/build.js';
import { claimOf, type LineSpec } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/ncci/${name}`, import.meta.url), 'latin1');
const APPENDED = [
  '20610\t99213\t\t20200101\t*\t1\tMisuse of column two code with column one code',
  '99214\t36415\t\t20200101\t*\t9\tCPT Manual or CMS manual coding instruction',
];

let full: Reference;
let db: Database.Database;
let ref: ValidationReference;
beforeAll(async () => {
  full = await openSharedReference();
  const pra = fixture('ccipra-v321r0-f1.txt').replace(/\r\n$/, '');
  const build = await buildFixture(
    {
      'ncci/ccipra-v321r0-f1.txt': `${pra}\r\n${APPENDED.join('\r\n')}\r\n`,
      'ncci/ccioph-v321r0-f1.txt': fixture('ccioph-v321r0-f1.txt'),
    },
    [ncciPtpLoader],
  );
  db = build.open();
  ref = { ...full, edits: createEditQueries(db) };
});
afterAll(() => {
  db.close();
  full.close();
});

const run = (
  lines: LineSpec[],
  fields: Partial<Claim> = {},
  on: ValidationReference = ref,
): ReturnType<typeof validateClaim> => validateClaim(on, claimOf(fields, ['M17.11'], lines), { checks: ['ncci.ptp'] });
const line = (procedureCode: string, modifiers: string[] = [], dateOfService?: string): LineSpec =>
  dateOfService === undefined ? { procedureCode, modifiers } : { procedureCode, modifiers, dateOfService };

describe('modifier indicator 0', () => {
  test('flags the column 2 line as an error whatever its modifiers', () => {
    const r = run(['93000', line('93005', ['59'])]);
    expect(r.findings).toMatchObject([
      {
        rule: 'ncci.ptp',
        code: 'PTP_CONFLICT',
        severity: 'error',
        lines: [2],
        codes: ['93005', '93000'],
        source: { dataset: 'ncci-ptp-practitioner', release: '2026Q2' },
      },
    ]);
    expect(r.findings[0]?.message).toMatch(/93005 is a column 2 code of 93000 \(line 1\).*modifier indicator 0/);
    expect(r.notChecked).toEqual([]);
  });

  test('reads the edit in force on the date: 11042/97597 has indicator 0 since 2024', () => {
    const r = run(['11042', line('97597', ['XS'])]);
    expect(r.findings).toMatchObject([{ code: 'PTP_CONFLICT', lines: [2] }]);
  });
});

describe('modifier indicator 1', () => {
  test('flags the column 2 line without a bypass modifier and suggests 59 or XU', () => {
    const r = run(['10021', '10004']);
    expect(r.findings).toMatchObject([{ code: 'PTP_CONFLICT', severity: 'error', lines: [2] }]);
    expect(r.findings[0]?.fix).toMatch(/Add modifier 59 or XU .* to 10004 if the services were distinct/);
  });

  test('reports a bypass modifier on either line as resolved (info)', () => {
    for (const lines of [
      ['10021', line('10004', ['XU'])],
      [line('10021', ['59']), '10004'],
    ]) {
      const r = run(lines);
      expect(r.findings).toMatchObject([{ code: 'PTP_BYPASSED', severity: 'info', lines: [2] }]);
      expect(r.findings[0]?.message).toMatch(/resolved by modifier (XU|59)/);
    }
  });

  test('takes anatomic modifiers naming different sites as a bypass, the same site on both lines not', () => {
    expect(run([line('29881', ['RT']), line('29880', ['LT'])]).findings).toMatchObject([{ code: 'PTP_BYPASSED' }]);
    expect(run([line('29881', ['RT']), line('29880', ['RT'])]).findings).toMatchObject([{ code: 'PTP_CONFLICT' }]);
  });

  test('takes modifier 25 on an E&M line as a bypass, but not 59 (never on an E&M service)', () => {
    expect(run(['20610', line('99213', ['25'])]).findings).toMatchObject([{ code: 'PTP_BYPASSED' }]);
    const r = run(['20610', line('99213', ['59'])]);
    expect(r.findings).toMatchObject([{ code: 'PTP_CONFLICT', lines: [2] }]);
    expect(r.findings[0]?.fix).toMatch(/Add modifier 25 to 99213/);
  });
});

describe('pairs that are not edited', () => {
  test('reports nothing for indicator 9, in force or deleted', () => {
    expect(run(['99214', '36415']).findings).toEqual([]);
    expect(run(['36415', '36416']).findings).toEqual([]);
  });

  test('reports nothing for the two codes on different dates of service', () => {
    const r = run(['93000', line('93005', [], '2026-05-16')]);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('reports nothing for a claim of one line', () => {
    expect(run(['93000'])).toMatchObject({ findings: [], notChecked: [] });
  });

  test('pairs no ICD-10-PCS procedure line: the PTP tables hold HCPCS/CPT codes only', () => {
    // Alone with one HCPCS line on a date no table covers, the PCS line leaves no pair to list as not checked.
    expect(run(['93000', '0BH17EZ'], { claimType: 'institutional', dateOfServiceFrom: '2025-01-02' })).toMatchObject({
      findings: [],
      notChecked: [],
    });
  });
});

describe('setting tables', () => {
  test('reads the outpatient hospital table for an institutional claim', () => {
    const r = run([line('29881', ['RT']), line('29880', ['LT'])], { claimType: 'institutional' });
    expect(r.findings).toMatchObject([
      { code: 'PTP_CONFLICT', source: { dataset: 'ncci-ptp-hospital', release: '2026Q2' } },
    ]);
    expect(run(['93000', '93005'], { claimType: 'institutional' }).findings).toEqual([]);
  });

  test('does not edit an inpatient type of bill: NCCI edits are for outpatient hospital claims', () => {
    const pair = [line('29881', ['RT']), line('29880', ['LT'])];
    expect(run(pair, { claimType: 'institutional', billType: '131' }).findings).toHaveLength(1);
    const r = run(pair, { claimType: 'institutional', billType: '111' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('does not edit a DME supplier claim: PTP tables are for practitioners and outpatient hospitals', () => {
    // 93000/93005 is a practitioner pair (the test above); a DME claim is neither edited nor listed as not checked.
    const r = run(['93000', '93005'], { claimType: 'dme' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
    expect(run(['93000', '93005'], { claimType: 'dme', dateOfServiceFrom: '2026-03-15' }).notChecked).toEqual([]);
  });
});

describe('no data', () => {
  test('lists the lines of a date no PTP table covers as not checked, naming the table and the date', () => {
    const r = run(['93000', '93005', line('10021', [], '2026-05-16')], { dateOfServiceFrom: '2026-03-15' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([
      expect.objectContaining({ rule: 'ncci.ptp', lines: [1, 2], missing: 'ncci-ptp-practitioner for 2026-03-15' }),
    ]);
  });

  test('lists a claim as not checked on the full reference, which holds no PTP table', () => {
    const r = run(['93000', '93005'], { claimType: 'institutional' }, full);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([{ missing: 'ncci-ptp-hospital for 2026-05-15' }]);
  });
});
