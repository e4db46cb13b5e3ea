// lcd.coverage on the MCD export fixtures in the official layout (test/fixtures/mcd; no official export is in
// ../shared/data), exported 2025-08-10. Code lookups come from the shared full reference; the policy lookups from a
// small database built from the fixtures, with rows this file appends to Article A90001 version 3 (in force from
// 2025-07-01, contractors 01112 and 01182):
//   HCPCS   group 1: 82306 · group 2: G0499, whose paragraph pairs it with "a Group 2 diagnosis"
//   covered group 1: E55.9, N18.30* (asterisk: secondary only) · group 2: E83.52, "must be billed with a code from
//           Group 3" · group 3: K90.0 · group 4: M81.0, "covered only when ... documented failure" (no rule we can
//           read) · group 5: D51.0, for HCPCS code G0499 only
//   non-covered: Z13.21
// and a row naming the DME contractor 19003 on LCD L80001 (which lists no code), so 19003 has an export document in
// force without A90001. With the full reference alone (only the derived MCD index) LCD checks are not checked.
import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  claimOfCodeValidate,
  codeValidate,
  validateClaim,
  type ValidationReference,
} from '../../../src/engines/validation/index.js';
import { mcdExportLoader } from '../../../src/refdata/loaders/mcd-export.js';
import { mcdIndexLoader } from '../../../src/refdata/loaders/mcd.js';
import { CONTRACTORS_FILE, medicareContractorsLoader } from '../../../src/refdata/loaders/medicare-contractors.js';
import type { Reference } from '../../../src/reference/index.js';
import { createPolicyQueries } from '../../../src/reference/queries/policies.js';
import type { Claim, ClaimProvider } from '../../../src/schemas/claim.js';
import type { CodeValidate } from '../../../src/schemas/code-validate.js';
import { buildFixture } from '../../helpers/build.js';
import { claimOf, type LineSpec } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { makeZip } from '../../helpers/zip.js';

const APPENDED: Record<string, string[]> = {
  'article_x_icd10_covered.csv': [
    '90001,3,E83.52,1,2,N,,3,Hypercalcemia,',
    '90001,3,K90.0,1,3,N,,4,Celiac disease,',
    '90001,3,M81.0,1,4,N,,5,Age-related osteoporosis without current pathological fracture,',
    '90001,3,D51.0,1,5,N,,6,Vitamin B12 deficiency anemia due to intrinsic factor deficiency,',
  ],
  'article_x_icd10_covered_group.csv': [
    '90001,3,2,<p>Group 2 Codes: a code from Group 2 must be billed with a code from Group 3.</p>,,',
    '90001,3,3,<p>Group 3 Codes: malabsorption states.</p>,,',
    '90001,3,4,<p>Group 4 Codes: covered only when the patient has documented failure of prior therapy.</p>,,',
    '90001,3,5,<p>Group 5 Codes: these ICD-10-CM codes provide coverage for HCPCS code G0499.</p>,,',
  ],
  'lcd_x_contractor.csv': ['80001,5,380,11,2,'],
};

const INDEX = [
  'contractor_name_type,document_display_id,document_id,document_type,document_version,effective_date,note,retirement_date,title,updated_on,updated_on_sort,url',
  '"Example MAC West, LLC\n(MAC - Part A, MAC - Part B)",L80001,80001,LCD,5,07/01/2025,,N/A,Example Assay Testing,06/20/2025,20250620101112,',
].join('\n');

function exportZip(name: 'current_article' | 'current_lcd'): Buffer {
  const dir = join(import.meta.dirname, `../../fixtures/mcd/${name}_csv`);
  const files = Object.fromEntries(
    readdirSync(dir).map((f) => {
      const extra = APPENDED[f];
      const text = readFileSync(join(dir, f));
      return [f, extra ? Buffer.concat([text, Buffer.from(`${extra.join('\r\n')}\r\n`)]) : text];
    }),
  );
  const inner = Buffer.from(makeZip(files));
  inner.writeUInt16LE(((2025 - 1980) << 9) | (8 << 5) | 10, 12);
  return makeZip({ [`${name}_csv.zip`]: inner });
}

const DATE = '2025-08-15';
let full: Reference;
let db: Database.Database;
let ref: ValidationReference;
beforeAll(async () => {
  full = await openSharedReference();
  const build = await buildFixture(
    {
      'mcd/current_article.zip': exportZip('current_article'),
      'mcd/current_lcd.zip': exportZip('current_lcd'),
      'mcd-derived/documents_latest.csv': INDEX,
      'reference/medicare-contractors.json': readFileSync(CONTRACTORS_FILE),
    },
    [mcdIndexLoader, mcdExportLoader, medicareContractorsLoader],
  );
  db = build.open();
  ref = { ...full, policies: createPolicyQueries(db) };
});
afterAll(() => {
  db.close();
  full.close();
});

const B_01112: ClaimProvider = { type: 'Physician', contractorNumber: '01112' };
const run = (
  dx: string[],
  line: LineSpec,
  fields: Partial<Claim> = {},
  on: ValidationReference = ref,
): ReturnType<typeof validateClaim> =>
  validateClaim(on, claimOf({ dateOfServiceFrom: DATE, provider: B_01112, ...fields }, dx, [line]), {
    checks: ['lcd.coverage'],
  });
const codesOf = (r: ReturnType<typeof validateClaim>): [string, string, string[]][] =>
  r.findings.map((f) => [f.code, f.severity, f.codes]);

describe('covered, non-covered and not listed', () => {
  test('a covered diagnosis supports the line and names the Article, its version and the export release', () => {
    const r = run(['E55.9'], '82306');
    expect(r.notChecked).toEqual([]);
    expect(r.findings).toMatchObject([
      {
        rule: 'lcd.coverage',
        code: 'LCD_COVERED',
        severity: 'info',
        lines: [1],
        codes: ['82306', 'E55.9'],
        source: {
          dataset: 'mcd-article',
          release: 'current_article 2025-08-10',
          policyId: 'Article A90001',
          policyType: 'A',
          policyVersion: '3',
        },
      },
    ]);
    expect(r.findings[0]?.source?.policyTitle).toMatch(/^Billing and Coding: Example Assay Testing/);
    expect(r.findings[0]?.source?.derived).toBeUndefined();
  });

  test('a diagnosis on the non-covered list is an error', () => {
    const r = run(['Z13.21'], '82306');
    expect(codesOf(r)).toEqual([['LCD_NON_COVERED', 'error', ['82306', 'Z13.21']]]);
    expect(r.findings[0]?.fix).toMatch(/ABN/);
  });

  test('a diagnosis in neither list is "not listed as covered"', () => {
    const r = run(['J06.9'], '82306');
    expect(codesOf(r)).toEqual([['LCD_NOT_LISTED', 'error', ['82306', 'J06.9']]]);
    expect(r.findings[0]?.message).toMatch(/not listed as covered/);
  });

  test('one supporting diagnosis makes the line necessary: the others are info naming it', () => {
    const r = run(['Z13.21', 'J06.9', 'E55.9'], '82306');
    expect(codesOf(r)).toEqual([
      ['LCD_NON_COVERED', 'info', ['82306', 'Z13.21']],
      ['LCD_NOT_LISTED', 'info', ['82306', 'J06.9']],
      ['LCD_COVERED', 'info', ['82306', 'E55.9']],
    ]);
    expect(r.findings[0]?.message).toMatch(/supported by E55\.9/);
  });

  test('only the diagnoses the line points to count', () => {
    const r = run(['E55.9', 'Z13.21'], { procedureCode: '82306', diagnosisPointers: [2] });
    expect(codesOf(r)).toEqual([['LCD_NON_COVERED', 'error', ['82306', 'Z13.21']]]);
  });

  test('a code no document of the contractor lists gets no finding', () => {
    const r = run(['E55.9'], '99213');
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });
});

describe('groups and their paragraphs', () => {
  test('"a code from Group 2 must be billed with a code from Group 3" is checked', () => {
    const alone = run(['E83.52'], '82306');
    expect(codesOf(alone)).toEqual([['LCD_PAIRING_UNMET', 'error', ['82306', 'E83.52']]]);
    expect(alone.findings[0]?.message).toMatch(/Group 3/);
    const paired = run(['E83.52', 'K90.0'], '82306');
    expect(codesOf(paired)).toEqual([
      ['LCD_COVERED', 'info', ['82306', 'E83.52']],
      ['LCD_COVERED', 'info', ['82306', 'K90.0']],
    ]);
  });

  test("a HCPCS group's paragraph pairs it with the diagnosis groups it names", () => {
    const r = run(['E55.9'], 'G0499');
    expect(codesOf(r)).toEqual([['LCD_NOT_LISTED', 'error', ['G0499', 'E55.9']]]);
    expect(r.findings[0]?.message).toMatch(/for other codes/);
    expect(codesOf(run(['E83.52', 'K90.0'], 'G0499'))[0]).toEqual(['LCD_COVERED', 'info', ['G0499', 'E83.52']]);
  });

  test('a covered group limited to other procedure codes does not cover this one', () => {
    expect(codesOf(run(['D51.0'], '82306'))).toEqual([['LCD_NOT_LISTED', 'error', ['82306', 'D51.0']]]);
  });

  test('a paragraph stating a condition we cannot read is a warning quoting it', () => {
    const r = run(['M81.0'], '82306');
    expect(codesOf(r)).toEqual([
      ['LCD_COVERED', 'info', ['82306', 'M81.0']],
      ['LCD_CONDITION', 'warning', ['82306', 'M81.0']],
    ]);
    expect(r.findings[1]?.message).toContain('"Group 4 Codes: covered only when the patient has documented failure');
    // Both findings name the diagnosis position they concern (CodeValidate places them by it).
    expect(r.findings.map((f) => f.diagnoses)).toEqual([[1], [1]]);
  });

  test('an asterisked secondary-only code as the primary diagnosis is a warning', () => {
    expect(codesOf(run(['N18.30'], '82306'))).toEqual([
      ['LCD_COVERED', 'info', ['82306', 'N18.30']],
      ['LCD_SECONDARY_ONLY', 'warning', ['82306', 'N18.30']],
    ]);
    expect(codesOf(run(['E55.9', 'N18.30'], '82306')).map(([c]) => c)).toEqual(['LCD_COVERED', 'LCD_COVERED']);
  });
});

describe('contractor', () => {
  test("a document the claim's contractor is not on does not apply", () => {
    const r = run(['Z13.21'], '82306', { provider: { type: 'DME', contractorNumber: '19003' } });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('when only the jurisdiction is resolved, any of its contractor numbers matches', () => {
    const r = run(['E55.9'], '82306', { provider: { type: 'Physician', state: 'CA' } });
    expect(codesOf(r)).toEqual([['LCD_COVERED', 'info', ['82306', 'E55.9']]]);
  });

  test('no resolved contractor is not checked', () => {
    const r = validateClaim(ref, claimOf({ dateOfServiceFrom: DATE }, ['E55.9'], ['82306']), {
      checks: ['lcd.coverage'],
    });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([{ rule: 'lcd.coverage', lines: [], missing: 'contractor' }]);
  });
});

describe('without code lists', () => {
  test('the derived MCD index alone: not checked, naming up to five LCDs of the MAC in force', () => {
    const r = run(['E55.9'], '82306', {}, full);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toHaveLength(1);
    const reason = r.notChecked[0]?.reason ?? '';
    expect(r.notChecked[0]).toMatchObject({ rule: 'lcd.coverage', lines: [] });
    expect(reason).toMatch(/^No LCD or Article code lists are loaded for contractor 01112/);
    expect(reason).toMatch(/derived MCD document index \(not the official export/);
    expect(reason).toMatch(/Noridian Healthcare Solutions, LLC/);
    expect(reason.match(/\bL\d{5} /g)).toHaveLength(5);
    expect(reason).toMatch(/and \d+ more\.$/);
  });

  test('no export in force for the date and no index entry: no MCD data covers the contractor', () => {
    const r = run(['E55.9'], '82306', { dateOfServiceFrom: '2024-01-15' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([
      { rule: 'lcd.coverage', missing: 'mcd-lcd / mcd-article export (code lists) for 2024-01-15' },
    ]);
    expect(r.notChecked[0]?.reason).toMatch(/^No MCD data covers contractor 01112/);
  });
});

test('CodeValidate lays the Article out as a policy: label, policies entry with type A, statuses', () => {
  const request: CodeValidate = {
    codeCheckTypes: ['LCD'],
    effectiveDate: DATE,
    cptCodes: ['82306'],
    icdCodes: ['E55.9', 'J06.9'],
    contractorNumber: '01112',
    providerType: 'P',
    patient: { age: 50 },
  };
  const result = codeValidate(ref, request, claimOfCodeValidate(request, 'Physician', undefined));
  expect(result.policies['Article A90001']).toMatchObject({ policyType: 'A', version: 3 });
  expect(result.policies['Article A90001']?.title).toMatch(/^Billing and Coding: Example Assay Testing/);
  const item = result.items[0];
  expect(item?.policies).toContain('Article A90001');
  expect(item?.subItems.map((s) => [s.code, s.status, s.issues.map((i) => [i.policy, i.code])])).toEqual([
    // CodeValidate judges each pairing on its own (operations.md step 4): J06.9 is not listed, so its pairing is an
    // Error even though E55.9 supports the test, and the item is the worst of its sub-items.
    ['E55.9', 'OK', [['Article A90001', 'LCD_COVERED']]],
    ['J06.9', 'Error', [['Article A90001', 'LCD_NOT_LISTED']]],
  ]);
  expect(item?.status).toBe('Error');
  expect(result.messages.filter((m) => m.policy === 'LCD')).toEqual([]);
  // Without code lists, the LCD check that could not run is a Warning issue on the item (never PolicyNotFound).
  const bare = codeValidate(full, request, claimOfCodeValidate(request, 'Physician', undefined));
  expect(bare.items[0]?.status).toBe('Warning');
  expect(bare.items[0]?.issues.filter((i) => i.policy === 'LCD').map((i) => i.message)).toEqual([
    expect.stringMatching(/^Not checked: No LCD or Article code lists are loaded for contractor 01112/),
  ]);
  expect(bare.policies['LCD']).toMatchObject({ policyType: 'L' });
});
