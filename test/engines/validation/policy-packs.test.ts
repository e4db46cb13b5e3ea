// Rules 10 and 11 on a small reference database built from the shipped packs (samples/policies): G0439's frequency
// limit is a warning on a single claim; screening mammography (77067, women 35 and over) is an error for a man when
// the claim says his sex, and a warning when it does not; the example payer's pack applies only to claims carrying
// its payer code; and CodeValidate shows a pack's Frequency limit as an exception under the pack's id.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimOfCodeValidate, codeValidate, validateClaim } from '../../../src/engines/validation/index.js';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { allLoaders } from '../../../src/refdata/loaders/index.js';
import { openReference, type Reference } from '../../../src/reference/index.js';
import type { Claim } from '../../../src/schemas/claim.js';
import type { CodeValidate } from '../../../src/schemas/code-validate.js';
import { claimOf, type LineSpec } from '../../helpers/claims.js';

let ref: Reference;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'policy-packs-'));
  await mkdir(join(dir, 'sources'));
  const dbPath = join(dir, 'reference.sqlite');
  await buildReference({
    sourcesDir: join(dir, 'sources'),
    policiesDir: 'samples/policies',
    dbPath,
    loaders: allLoaders,
  });
  ref = openReference(dbPath);
});
afterAll(() => ref.close());

const run = (fields: Partial<Claim>, dx: string[], lines: LineSpec[]): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf({ dateOfServiceFrom: '2026-05-15', ...fields }, dx, lines), { checks: ['policy.pack'] });

test('the packs are loaded and answer by code, date and scope', () => {
  expect(ref.policyPacks.packs().map((p) => [p.id, p.type, p.file])).toEqual([
    ['CMS-PREVENTIVE', 'C', 'policies/medicare-preventive.policy.json'],
    ['EXAMPLE-PAYER-PREVENTIVE', 'P', 'policies/example-commercial.policy.json'],
  ]);
  expect(ref.policyPacks.rulesFor('81528', '2020-06-01', {}).map((e) => e.rule.id)).toEqual(['crc-mt-sdna-2014']);
  expect(ref.policyPacks.rulesFor('81528', '2024-06-01', {}).map((e) => e.rule.id)).toEqual(['crc-mt-sdna']);
  expect(ref.policyPacks.rulesFor('99396', '2026-05-15', {})).toEqual([]);
  expect(ref.policyPacks.rulesFor('99396', '2026-05-15', { payerCode: 'EXAMPLE01' }).map((e) => e.rule.id)).toEqual([
    'preventive-visit-adult',
  ]);
});

test("G0439's once-per-12-months limit is a warning asking for the patient's history", () => {
  const r = run({ patient: { age: 70, sex: 'F' } }, ['Z00.00'], ['G0439']);
  expect(r.findings).toMatchObject([
    {
      rule: 'policy.pack',
      code: 'POLICY_FREQUENCY',
      severity: 'warning',
      lines: [1],
      codes: ['G0439'],
      source: { dataset: 'policy-pack', release: '2', policyId: 'CMS-PREVENTIVE', policyType: 'C', policyVersion: '2' },
    },
  ]);
  expect(r.findings[0]?.message).toMatch(/^G0439 once per 12 months: check the patient's history/);
});

test('screening mammography for a man is an error when the claim gives his sex, a warning when it does not', () => {
  const male = run({ patient: { age: 50, sex: 'M' } }, ['Z12.31'], ['77067']);
  expect(male.findings.map((f) => [f.code, f.severity])).toEqual([
    ['POLICY_AGE', 'info'],
    ['POLICY_SEX', 'error'],
    ['POLICY_FREQUENCY', 'warning'],
  ]);
  const unknown = run({}, ['Z12.31'], ['77067']);
  expect(unknown.findings.map((f) => [f.code, f.severity])).toEqual([
    ['POLICY_AGE', 'warning'],
    ['POLICY_SEX', 'warning'],
    ['POLICY_FREQUENCY', 'warning'],
  ]);
  expect(unknown.findings[1]?.message).toMatch(/female patients .*the patient's sex is not given/);
});

test('a woman under 35 breaks the age limit; at 37 only the baseline limit is named', () => {
  const young = run({ patient: { age: 30, sex: 'F' } }, ['Z12.31'], ['77067']);
  expect(young.findings.find((f) => f.code === 'POLICY_AGE')).toMatchObject({ severity: 'error' });
  const baseline = run({ patient: { birthDate: '1989-01-01', sex: 'F' } }, ['Z12.31'], ['77067']);
  expect(baseline.findings.find((f) => f.code === 'POLICY_FREQUENCY')?.message).toMatch(
    /^77067 once per lifetime at ages 35 to 39: /,
  );
});

test("the example payer's pack applies only to claims carrying its payer code", () => {
  const without = run({ patient: { age: 50, sex: 'F' } }, ['Z12.31'], ['77067']);
  expect(without.findings.every((f) => f.source?.policyId === 'CMS-PREVENTIVE')).toBe(true);
  const withPayer = run({ payerCode: 'EXAMPLE01', patient: { age: 50, sex: 'F' } }, ['J06.9'], ['77067']);
  expect(
    withPayer.findings
      .filter((f) => f.source?.policyId === 'EXAMPLE-PAYER-PREVENTIVE')
      .map((f) => [f.code, f.severity]),
  ).toEqual([
    ['POLICY_AGE', 'info'],
    ['POLICY_SEX', 'info'],
    ['POLICY_FREQUENCY', 'warning'],
    ['POLICY_DX_NOT_LISTED', 'error'],
  ]);
  const sick = run({ payerCode: 'EXAMPLE01', patient: { age: 50 } }, ['J06.9', 'Z00.00'], ['99396']);
  expect(sick.findings.map((f) => [f.code, f.severity, f.codes])).toEqual([
    ['POLICY_AGE', 'info', ['99396']],
    ['POLICY_FREQUENCY', 'warning', ['99396']],
    ['POLICY_DX_NOT_COVERED', 'error', ['99396', 'J06.9']],
    ['POLICY_DX_COVERED', 'info', ['99396', 'Z00.00']],
  ]);
});

test("CodeValidate shows the pack's Frequency limit as an exception of the pair, under the pack's id", () => {
  const request: CodeValidate = {
    effectiveDate: '2026-05-15',
    cptCodes: ['G0439'],
    icdCodes: ['Z00.00'],
    codeCheckTypes: ['CMS'],
    patient: { age: 70 },
  };
  const result = codeValidate(ref, request, claimOfCodeValidate(request, 'Physician', 'F'));
  const item = result.items[0];
  expect(item?.subItems[0]?.exceptions).toEqual([
    {
      policy: 'CMS-PREVENTIVE',
      exception: 'Frequency',
      status: 'Warning',
      message: expect.stringMatching(/^G0439 once per 12 months: check the patient's history/) as string,
    },
  ]);
  // The packs' database holds no ICD-10-CM release: Z00.00's validity is not checked (a warning), never an error.
  expect(item?.subItems[0]?.issues).toEqual([
    {
      policy: 'CMS',
      ruleId: 'code.validity',
      status: 'Warning',
      message: 'Not checked: No ICD-10-CM release is loaded for 2026-05-15 (the reference database holds no release of it): the validity of Z00.00 on that date is unknown.',
    },
  ]);
  expect(item?.policies).toContain('CMS-PREVENTIVE');
  expect(result.policies['CMS-PREVENTIVE']).toMatchObject({ policyType: 'C', version: 2 });
  expect(item?.messages.some((m) => /No requested policy lists/.test(m.message))).toBe(false);
});
