import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetails, parseCode } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { CodeDetail } from '../../../src/schemas/codes.js';
import { openSharedReference, sharedReferenceDbPath } from '../../helpers/reference-db.js';

const DATE = '2026-06-15';
type Kind = 'valid' | 'header' | 'deleted' | 'malformed';

let ref: Reference;
const batch: { input: string; kind: Kind }[] = [];

beforeAll(async () => {
  ref = await openSharedReference();
  // Real codes straight from the database: each exists in one code system only, so no answer is ambiguous.
  const db = new Database(await sharedReferenceDbPath(), { readonly: true });
  // (Level II and CPT codes in the OPPS addenda count as existing, as the engine reads them.)
  const only = `NOT EXISTS (SELECT 1 FROM code o WHERE o.code = c.code AND o.system <> c.system)
    AND (c.system IN ('HCPCS', 'CPT') OR NOT EXISTS (SELECT 1 FROM opps_addendum_b a WHERE a.hcpcs = c.code))`;
  const inForce = `c.valid_from <= @date AND (c.valid_to IS NULL OR c.valid_to >= @date)`;
  const take = (sql: string, n: number): { system: string; code: string }[] =>
    db.prepare(`${sql} ORDER BY c.system, c.code LIMIT ${n}`).all({ date: DATE }) as { system: string; code: string }[];
  const every = <T>(rows: T[], step: number): T[] => rows.filter((_, i) => i % step === 0);
  // After the HCPCS file's quarter (2019Q1) an HCPCS code is valid where the OPPS addendum on the date lists it.
  const listed = `(c.system <> 'HCPCS' OR EXISTS (SELECT 1 FROM opps_addendum_b o WHERE o.hcpcs = c.code
    AND o.valid_from <= @date AND (o.valid_to IS NULL OR o.valid_to >= @date)))`;
  const valid = every(
    take(
      `SELECT c.system, c.code FROM code c WHERE c.billable = 1 AND ${inForce} AND ${only} AND ${listed} AND c.system IN ('ICD10CM', 'ICD10PCS', 'HCPCS')`,
      1_000_000,
    ),
    24,
  );
  const headers = every(
    take(`SELECT c.system, c.code FROM code c WHERE c.billable = 0 AND ${inForce} AND ${only}`, 1_000_000),
    16,
  );
  const deleted = take(
    `SELECT c.system, c.code FROM code c WHERE c.system IN ('ICD10CM', 'ICD10PCS') AND c.valid_to < @date AND ${only}
       AND NOT EXISTS (SELECT 1 FROM code d WHERE d.system = c.system AND d.code = c.code AND d.valid_from > c.valid_from)`,
    1000,
  );
  db.close();
  const lists: [Kind, { code: string }[]][] = [
    ['valid', valid],
    ['header', headers],
    ['deleted', deleted],
    ['malformed', valid],
  ];
  // Interleave the four kinds until 10,000 strings: 7 valid, 1 header, 1 deleted, 1 malformed in every 10.
  const pattern: Kind[] = [
    'valid',
    'valid',
    'header',
    'valid',
    'deleted',
    'valid',
    'valid',
    'malformed',
    'valid',
    'valid',
  ];
  const next = new Map<Kind, number>();
  for (let i = 0; batch.length < 10_000; i++) {
    const kind = pattern[i % pattern.length] as Kind;
    const list = lists.find(([k]) => k === kind)?.[1] ?? [];
    const at = next.get(kind) ?? 0;
    next.set(kind, at + 1);
    const code = list[at % list.length]?.code ?? '';
    batch.push({ input: kind === 'malformed' ? `${code}!` : i % 3 === 0 ? code.toLowerCase() : code, kind });
  }
});
afterAll(() => ref.close());

test('answers a 10,000-code batch of valid, header, deleted and malformed codes with one detail per input, in order', () => {
  const details = codeDetails(
    ref,
    batch.map((b) => b.input),
    DATE,
  );
  expect(details).toHaveLength(batch.length);
  details.forEach((d, i) => {
    const { input, kind } = batch[i] as { input: string; kind: Kind };
    expect(CodeDetail.safeParse(d).success).toBe(true);
    if (kind === 'malformed') {
      expect(d).toMatchObject({ isValid: false, invalidReason: 'Invalid', reasonCode: 'CODE_MALFORMED' });
      return;
    }
    expect(
      parseCode(d.codeAlt).code === parseCode(input).code || parseCode(d.code).code === parseCode(input).code,
    ).toBe(true);
    switch (kind) {
      case 'valid':
        expect(d.isValid, `${input}: ${JSON.stringify(d)}`).toBe(true);
        break;
      case 'header':
        expect(d.invalidReason).toBe('Invalid');
        expect(['CODE_HEADER', 'CODE_NEEDS_7TH']).toContain(d.reasonCode);
        break;
      case 'deleted':
        expect(d).toMatchObject({ isValid: false, invalidReason: 'Deleted', reasonCode: 'CODE_DELETED' });
        break;
    }
  });
  // Asked again, the batch gets the same answers.
  expect(
    codeDetails(
      ref,
      batch.slice(0, 500).map((b) => b.input),
      DATE,
    ),
  ).toEqual(details.slice(0, 500));
});
