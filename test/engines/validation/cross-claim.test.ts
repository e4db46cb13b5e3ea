// The batch checks across claims (issue 12 §5): crossClaimFacts on the real reference database, and the temporary
// SQLite store that answers them. Rows used, as the April 2026 practitioner MUE table (2026Q2) gives them:
//   83036   1  2 Date of Service Edit: Policy
//   36415   2  3 Date of Service Edit: Clinical
//   G0439   1  2 Date of Service Edit: Policy
//   99213   2  3 Date of Service Edit: Clinical   (the duplicate tests run batch.duplicate alone)
// and the CMS-PREVENTIVE sample pack (samples/policies/medicare-preventive.policy.json): G0439 once per 12 months.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  crossClaimFacts,
  monthsBefore,
  viewClaim,
  type CrossClaimFacts,
  type CrossClaimLineFact,
} from '../../../src/engines/validation/index.js';
import { ScrubberError } from '../../../src/errors.js';
import type { RuleId } from '../../../src/findings/codes.js';
import { checkHistoryHeader, CrossClaimStore, type CrossClaimFinding } from '../../../src/pipeline/cross-claim-store.js';
import { FactsBatchWriter, parseFactsBatch } from '../../../src/workers/facts-batch.js';
import type { Reference } from '../../../src/reference/index.js';
import type { Claim } from '../../../src/schemas/claim.js';
import { claimOf, type LineSpec } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

let dir: string;
let store: CrossClaimStore | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cross-claim-test-'));
});
afterEach(() => {
  store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

interface ClaimSpec {
  readonly id: string;
  readonly patient?: string | undefined;
  readonly date: string;
  readonly lines: readonly LineSpec[];
  readonly fields?: Partial<Claim>;
}

const claim = (s: ClaimSpec): Claim =>
  claimOf(
    {
      claimId: s.id,
      dateOfServiceFrom: s.date,
      patient: s.patient === undefined ? { birthDate: '1950-03-01' } : { id: s.patient, birthDate: '1950-03-01' },
      ...s.fields,
    },
    ['Z00.00'],
    s.lines,
  );

/** Adds the claims in order (claimOrder = position), then answers. */
function scrub(
  claims: readonly ClaimSpec[],
  options: { checks?: readonly RuleId[]; history?: string } = {},
): Promise<CrossClaimFinding[]> {
  const s = new CrossClaimStore({ dir, checks: options.checks });
  store = s;
  claims.forEach((c, i) => s.add(crossClaimFacts(viewClaim(ref, claim(c), { checks: options.checks }), i)));
  const load = options.history === undefined ? Promise.resolve() : s.loadHistory(options.history).then(() => undefined);
  return load.then(() => [...s.findings()]);
}

const codesOf = (found: readonly CrossClaimFinding[]): string[] => found.map((f) => f.finding.code);

describe('crossClaimFacts', () => {
  test('reads the MUE of a date-of-service edit and the frequency limits of the pack rules in force', () => {
    const facts = crossClaimFacts(
      viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', { procedureCode: 'g0439' }, '36415'] }), {}),
      7,
    );
    expect(facts).toMatchObject({ claimOrder: 7, claimId: 'A', patientKey: 'P1', setting: 'practitioner' });
    const [hba1c, awv, venipuncture] = facts.lines as CrossClaimLineFact[];
    expect(hba1c?.mue).toMatchObject({ value: 1, mai: 2, dataset: 'mue-practitioner', release: '2026Q2' });
    expect(hba1c?.limits).toEqual([]);
    expect(awv).toMatchObject({ code: 'G0439', submittedCode: 'g0439' });
    expect(awv?.limits).toMatchObject([
      // Payable when 11 whole months have passed after the month of the last one: services from 2025-05-01 on count.
      { ruleKey: 'CMS-PREVENTIVE|awv-subsequent', count: 1, text: 'once per 12 months', after: '2025-04-30' },
    ]);
    expect(venipuncture?.mue).toMatchObject({ value: 2, mai: 3, maiText: 'Date of Service Edit: Clinical' });
    expect(awv?.mue).toMatchObject({ value: 1, mai: 2 });
    // Plain data: what a worker posts is what the main thread reads.
    expect(structuredClone(facts)).toEqual(facts);
  });

  test('sorts modifiers and normalises codes', () => {
    const facts = crossClaimFacts(
      viewClaim(
        ref,
        claim({
          id: 'A',
          patient: 'P1',
          date: '2026-04-02',
          lines: [{ procedureCode: '99213', modifiers: ['95', '25'] }],
        }),
        {},
      ),
      0,
    );
    expect(facts.lines[0]).toMatchObject({ code: '99213', modifiers: '25 95' });
  });

  test('an ICD-10-PCS procedure line contributes no fact: no batch check reads it', () => {
    const facts = crossClaimFacts(viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['0BH17EZ', '99213'] }), {}), 0);
    expect(facts.lines.map((l) => [l.lineNumber, l.code])).toEqual([[2, '99213']]);
  });

  test('a line of an inpatient type of bill carries no MUE: NCCI edits are for outpatient hospital claims', () => {
    const of = (billType: string): CrossClaimFacts =>
      crossClaimFacts(
        viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['36415'], fields: { claimType: 'institutional', billType } }), {}),
        0,
      );
    expect(of('131').lines[0]?.mue).toMatchObject({ mai: 3, dataset: 'mue-outpatient-hospital' });
    expect(of('111').lines[0]).toMatchObject({ code: '36415' });
    expect(of('111').lines[0]?.mue).toBeUndefined();
  });

  test('a claim without a patient id adds no lines and is not checked, per batch check it would have taken part in', () => {
    const facts = crossClaimFacts(viewClaim(ref, claim({ id: 'A', date: '2026-04-02', lines: ['99213', '83036', 'G0439'] }), {}), 0);
    expect(facts.lines).toEqual([]);
    expect(facts.patientKey).toBeUndefined();
    expect(facts.notChecked).toMatchObject([
      { rule: 'batch.duplicate', claimId: 'A', lines: [1, 2, 3], missing: 'patient id' },
      { rule: 'batch.mue', claimId: 'A', lines: [1, 2, 3], missing: 'patient id' },
      { rule: 'batch.frequency', claimId: 'A', lines: [3], missing: 'patient id' },
    ]);
  });

  test('monthsBefore clamps the day to the end of the month', () => {
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2026-01-15', 12)).toBe('2025-01-15');
    expect(monthsBefore('2024-02-29', 12)).toBe('2023-02-28');
    expect(monthsBefore('2026-05-10', 17)).toBe('2024-12-10');
  });
});

describe('batch.duplicate', () => {
  const duplicates = { checks: ['batch.duplicate'] } as const;

  test('flags the same patient, date, code and modifiers on a later claim, naming the earlier claim and line', async () => {
    const found = await scrub(
      [
        { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['36415', '99213'] },
        { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['99213'] },
      ],
      duplicates,
    );
    expect(found).toMatchObject([
      {
        claimOrder: 1,
        finding: {
          rule: 'batch.duplicate',
          code: 'BATCH_DUPLICATE_LINE',
          severity: 'warning',
          claimId: 'B',
          lines: [1],
          codes: ['99213'],
        },
      },
    ]);
    expect(found[0]?.finding.message).toMatch(/possible duplicate of claim A line 2/);
  });

  test('flags every later claim, and only later ones', async () => {
    const found = await scrub(
      [
        { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['99213'] },
        { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['99213'] },
        { id: 'C', patient: 'P1', date: '2026-04-02', lines: ['99213'] },
      ],
      duplicates,
    );
    expect(found.map((f) => f.finding.claimId)).toEqual(['B', 'C']);
    expect(found[1]?.finding.message).toMatch(/claim A line 1 \(and 1 other earlier claim\)/);
  });

  test('passes another patient, another date, other modifiers and a repeat within one claim', async () => {
    const found = await scrub(
      [
        { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['99213', '99213'] },
        { id: 'B', patient: 'P2', date: '2026-04-02', lines: ['99213'] },
        { id: 'C', patient: 'P1', date: '2026-04-03', lines: ['99213'] },
        { id: 'D', patient: 'P1', date: '2026-04-02', lines: [{ procedureCode: '99213', modifiers: ['25'] }] },
      ],
      duplicates,
    );
    expect(found).toEqual([]);
  });
});

describe('batch.mue', () => {
  test('MAI 2: units summed over claims of one patient and date over the MUE are an error on the claim that adds them', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036'] },
      // Modifier 91 (repeat lab test): not a duplicate line, but the same MUE.
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['99213', { procedureCode: '83036', modifiers: ['91'] }] },
    ]);
    expect(found).toMatchObject([
      {
        claimOrder: 1,
        finding: {
          rule: 'batch.mue',
          code: 'BATCH_MUE_EXCEEDED',
          severity: 'error',
          claimId: 'B',
          lines: [2],
          codes: ['83036'],
          source: { dataset: 'mue-practitioner', release: '2026Q2' },
        },
      },
    ]);
    expect(found[0]?.finding.message).toMatch(/to 2 with claims A \(1 unit\), over the MUE of 1 per date of service/);
    expect(found[0]?.finding.message).toMatch(/MAI 2/);
  });

  test('sums decimal units as written: 0.1 + 2.7 on one claim and 0.2 on the next are 3, within an MUE of 3', async () => {
    // 71046: outpatient hospital MUE 3, MAI 3 (2026Q2).
    const institutional = { claimType: 'institutional' } as const;
    const units = (n: number, modifiers: string[] = []): LineSpec => ({ procedureCode: '71046', units: n, modifiers });
    const within = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: [units(0.1), units(2.7, ['76'])], fields: institutional },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: [units(0.2, ['77'])], fields: institutional },
    ]);
    expect(within).toEqual([]);
    const over = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: [units(0.1), units(2.7, ['76'])], fields: institutional },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: [units(0.3, ['77'])], fields: institutional },
    ]);
    expect(codesOf(over)).toEqual(['BATCH_MUE_EXCEEDED_CLINICAL']);
    expect(over[0]?.finding.message).toMatch(/to 3\.1 with claims A \(2\.8 units\)/);
  });

  test('MAI 3: a clinical MUE is a warning, also on claims after the one that reached it', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: [{ procedureCode: '36415', units: 2 }] },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: [{ procedureCode: '36415', modifiers: ['91'] }] },
      { id: 'C', patient: 'P1', date: '2026-04-02', lines: [{ procedureCode: '36415', modifiers: ['XU'] }] },
    ]);
    expect(codesOf(found)).toEqual(['BATCH_MUE_EXCEEDED_CLINICAL', 'BATCH_MUE_EXCEEDED_CLINICAL']);
    expect(found.map((f) => [f.claimOrder, f.finding.severity])).toEqual([
      [1, 'warning'],
      [2, 'warning'],
    ]);
    expect(found[1]?.finding.message).toMatch(/to 4 with claims A \(2 units\), B \(1 unit\)/);
  });

  test('passes units within the MUE, other dates and other patients; a claim over it alone is the ncci.mue rule', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['36415'] },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: [{ procedureCode: '36415', modifiers: ['91'] }] },
      { id: 'C', patient: 'P1', date: '2026-04-03', lines: ['83036'] },
      { id: 'D', patient: 'P2', date: '2026-04-03', lines: ['83036'] },
      { id: 'E', patient: 'P3', date: '2026-04-03', lines: ['83036'] },
      { id: 'F', patient: 'P3', date: '2026-04-03', lines: [{ procedureCode: '83036', units: 2, modifiers: ['91'] }] },
    ]);
    expect(found).toEqual([]);
  });
});

describe('batch.frequency', () => {
  test('warns on the later of two G0439 six months apart, naming the policy, the limit and the earlier date', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-10-05', lines: ['G0439'] },
      { id: 'B', patient: 'P1', date: '2026-04-05', lines: ['G0439'] },
    ]);
    expect(found).toMatchObject([
      {
        claimOrder: 0,
        finding: {
          rule: 'batch.frequency',
          code: 'BATCH_FREQUENCY_EXCEEDED',
          severity: 'warning',
          claimId: 'A',
          lines: [1],
          codes: ['G0439'],
          source: { dataset: 'policy-pack', policyId: 'CMS-PREVENTIVE' },
        },
      },
    ]);
    expect(found[0]?.finding.message).toMatch(/exceeds once per 12 months \(CMS-PREVENTIVE/);
    expect(found[0]?.finding.message).toMatch(/on 2026-04-05 \(claim B line 1\)/);
  });

  test("counts 11 whole months after the month of the last AWV, as CMS does: the 12th month's visit is payable", async () => {
    // 2025-05-12 then 2026-05-11: less than 12 months apart by date, but June 2025 to April 2026 are 11 whole months.
    expect(
      await scrub([
        { id: 'A', patient: 'P1', date: '2025-05-12', lines: ['G0439'] },
        { id: 'B', patient: 'P1', date: '2026-05-11', lines: ['G0439'] },
      ]),
    ).toEqual([]);
    // 2025-06-01 then 2026-05-31: the month of May 2026 is only the 11th after June 2025.
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2025-06-01', lines: ['G0439'] },
      { id: 'B', patient: 'P1', date: '2026-05-31', lines: ['G0439'] },
    ]);
    expect(found.map((f) => [f.finding.claimId, f.finding.code])).toEqual([['B', 'BATCH_FREQUENCY_EXCEEDED']]);
  });

  test('passes two G0439 thirteen months apart, and another patient', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2025-04-05', lines: ['G0439'] },
      { id: 'B', patient: 'P1', date: '2026-05-05', lines: ['G0439'] },
      { id: 'C', patient: 'P2', date: '2026-06-05', lines: ['G0439'] },
    ]);
    expect(found).toEqual([]);
  });

  test("counts an earlier claim's service by its code, as a history row is, whatever rule applied to that claim", async () => {
    // EXAMPLE-PAYER-PREVENTIVE (payer EXAMPLE01): one adult preventive visit (99385-99387, 99395-99397) a calendar
    // year. The earlier visit was billed to another payer, so the pack did not apply to it; it still counts, as the same
    // visit in a history file (which names no payer) does.
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-01-10', lines: ['99396'], fields: { payerCode: 'OTHER' } },
      { id: 'B', patient: 'P1', date: '2026-11-10', lines: ['99396'], fields: { payerCode: 'EXAMPLE01' } },
    ]);
    expect(found).toMatchObject([
      { claimOrder: 1, finding: { code: 'BATCH_FREQUENCY_EXCEEDED', claimId: 'B', source: { policyId: 'EXAMPLE-PAYER-PREVENTIVE' } } },
    ]);
    expect(found[0]?.finding.message).toMatch(/on 2026-01-10 \(claim A line 1\)/);
  });

  test('counts the services of a history file, and reports its rejected rows', async () => {
    const history = join(dir, 'history.csv');
    writeFileSync(
      history,
      [
        'patientId,dateOfService,procedureCode,note',
        'P1,2026-01-10,G0439,earlier run',
        'P2,2024-01-10,G0439,',
        'P1,2026-01-10,99213,not a pack code',
        ',2026-01-10,G0439,',
        'P1,01/10/2026,G0439,',
        '',
      ].join('\n'),
    );
    const found = await scrub(
      [
        { id: 'A', patient: 'P1', date: '2026-06-05', lines: ['G0439'] },
        { id: 'B', patient: 'P2', date: '2026-06-05', lines: ['G0439'] },
      ],
      { history },
    );
    expect(found.map((f) => f.finding.claimId)).toEqual(['A']);
    expect(found[0]?.finding.message).toMatch(/on 2026-01-10 \(history\)/);

    const again = new CrossClaimStore({ dir });
    try {
      const load = await again.loadHistory(history);
      expect(load).toEqual({
        loaded: 3,
        rejectedCount: 2,
        rejected: [
          { line: 5, reason: 'no patientId' },
          { line: 6, reason: 'dateOfService is not a YYYY-MM-DD date' },
        ],
      });
    } finally {
      again.close();
    }
  });

  test('a history file without a required column is an input-format error', async () => {
    const history = join(dir, 'history.csv');
    writeFileSync(history, 'patient,dateOfService,procedureCode\nP1,2026-01-10,G0439\n');
    const s = new CrossClaimStore({ dir });
    store = s;
    await expect(s.loadHistory(history)).rejects.toThrow(ScrubberError);
    const other = new CrossClaimStore({ dir });
    try {
      await expect(other.loadHistory(join(dir, 'missing.csv'))).rejects.toMatchObject({ code: 'INPUT_FORMAT' });
    } finally {
      other.close();
    }
  });

  test('a history header is checked rows or none: other columns, no header, an empty file', async () => {
    const cases: [string, RegExp][] = [
      ['patient,date,code\n', /header lacks the column\(s\) patientId, dateOfService, procedureCode/],
      ['P1,2026-01-10,G0439\n', /header lacks the column\(s\) patientId, dateOfService, procedureCode/],
      ['', /the history file is empty/],
      // A column named twice (the last, blank, would have rejected every row and checked no frequency limit).
      ['patientId,dateOfService,procedureCode,PatientId\nP1,2026-01-10,G0439,\n', /header names column patientId twice/],
    ];
    for (const [text, message] of cases) {
      const history = join(dir, 'history-header.csv');
      writeFileSync(history, text);
      await expect(checkHistoryHeader(history)).rejects.toThrow(message);
      const s = new CrossClaimStore({ dir });
      try {
        await expect(s.loadHistory(history)).rejects.toThrow(message);
      } finally {
        s.close();
      }
    }
    const good = join(dir, 'history-good.csv');
    writeFileSync(good, 'procedureCode,patientId,dateOfService,note\n');
    await expect(checkHistoryHeader(good)).resolves.toBeUndefined();
    // Blank lines before the header are skipped, as the load skips them.
    const blank = join(dir, 'history-blank.csv');
    writeFileSync(blank, '\n\npatientId,dateOfService,procedureCode\nP1,2026-05-01,99213\n');
    await expect(checkHistoryHeader(blank)).resolves.toBeUndefined();
    // Names match case-insensitively, as a claim CSV's do.
    const upper = join(dir, 'history-upper.csv');
    writeFileSync(upper, 'PatientID,DateOfService,PROCEDURECODE\nP1,2026-01-10,G0439\n');
    await expect(checkHistoryHeader(upper)).resolves.toBeUndefined();
    const s = new CrossClaimStore({ dir });
    try {
      expect(await s.loadHistory(upper)).toMatchObject({ loaded: 1, rejectedCount: 0 });
    } finally {
      s.close();
    }
  });

  test('a history file that is not valid CSV is refused whole, and the message never quotes a cell', async () => {
    const history = join(dir, 'history-quote.csv');
    writeFileSync(history, 'patientId,dateOfService,procedureCode\nP1,2026-01-10,G0439\n"DOE-JANE " x,2026-01-10,G0439\n');
    const s = new CrossClaimStore({ dir });
    try {
      const err = (await s.loadHistory(history).catch((e: unknown) => e)) as ScrubberError;
      expect(err).toBeInstanceOf(ScrubberError);
      expect(err.code).toBe('INPUT_FORMAT');
      expect(err.message).toBe(
        `${history}: the history file could not be read: it is not valid CSV (line 3: CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE)`,
      );
      expect(err.message).not.toContain('DOE');
    } finally {
      s.close();
    }
  });
});

describe('CrossClaimStore', () => {
  test('answers the same from the batches workers post as from claims added one by one', async () => {
    const specs: ClaimSpec[] = [
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', '36415', 'G0439'] },
      // The second batch meets the MUE edits in the other order: its own indexes name other edits than the first's.
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['36415', '83036'] },
      { id: 'C', patient: 'P1', date: '2026-04-02', lines: ['36415', { procedureCode: 'G0439', modifiers: ['33'] }] },
      { id: 'D', patient: undefined, date: '2026-04-02', lines: ['83036'] },
    ];
    const expected = await scrub(specs);
    store?.close();
    // Batch.duplicate would pass even with swapped edits; the MUE and frequency findings name the edit and the rule.
    expect(expected.map((f) => [f.claimOrder, f.finding.lines[0], f.finding.code])).toEqual([
      [1, 1, 'BATCH_DUPLICATE_LINE'],
      [1, 2, 'BATCH_DUPLICATE_LINE'],
      [1, 2, 'BATCH_MUE_EXCEEDED'],
      [2, 1, 'BATCH_DUPLICATE_LINE'],
      [2, 1, 'BATCH_MUE_EXCEEDED_CLINICAL'],
      [2, 2, 'BATCH_MUE_EXCEEDED'],
      [2, 2, 'BATCH_FREQUENCY_EXCEEDED'],
    ]);
    const facts = specs.map((c, i) => crossClaimFacts(viewClaim(ref, claim(c), {}), i));
    const s = new CrossClaimStore({ dir });
    store = s;
    for (const part of [facts.slice(0, 1), facts.slice(1)]) {
      const writer = new FactsBatchWriter();
      for (const f of part) {
        writer.add(f);
      }
      s.addBatch(parseFactsBatch(writer.text()));
    }
    expect([...s.findings()]).toEqual(expected);
  });

  test("a patient's first claim becomes rows when a later insert brings the second; a resumed store answers the same", async () => {
    const specs: ClaimSpec[] = [
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', '99213'] },
      // One claim of its patient, with a frequency limit: its own lines count toward it (the second G0439 is over).
      { id: 'S', patient: 'P2', date: '2026-04-02', lines: ['G0439', 'G0439'] },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['99213', '83036'] },
      { id: 'C', patient: 'P1', date: '2026-04-02', lines: ['83036'] },
      { id: 'T', patient: 'P3', date: '2026-04-02', lines: ['83036'] },
      { id: 'U', patient: 'P3', date: '2026-04-02', lines: ['83036'] },
    ];
    const expected = await scrub(specs);
    store?.close();
    expect(expected.map((f) => [f.claimOrder, f.finding.lines[0], f.finding.code])).toEqual([
      [1, 2, 'BATCH_FREQUENCY_EXCEEDED'],
      [2, 1, 'BATCH_DUPLICATE_LINE'],
      [2, 2, 'BATCH_DUPLICATE_LINE'],
      [2, 2, 'BATCH_MUE_EXCEEDED'],
      [3, 1, 'BATCH_DUPLICATE_LINE'],
      [3, 1, 'BATCH_MUE_EXCEEDED'],
      [5, 1, 'BATCH_DUPLICATE_LINE'],
      [5, 1, 'BATCH_MUE_EXCEEDED'],
    ]);
    const facts = specs.map((c, i) => crossClaimFacts(viewClaim(ref, claim(c), {}), i));
    // One insert per claim: a patient's first claim is in the file, not in the buffer, when the second comes. A run
    // killed after claim `killed - 1` resumes from its checkpoint's claim `at`: the patients' counts and lines are
    // those of the claims kept (P1 of one claim or two; P3's first claim dropped: counted again, made rows once).
    for (const [at, killed] of [[2, 5], [3, 6], [4, 5]] as const) {
      const path = join(dir, `resumed-${String(at)}.sqlite`);
      const first = new CrossClaimStore({ path, batchSize: 1 });
      facts.slice(0, killed).forEach((f) => first.add(f));
      first.close();
      const resumed = new CrossClaimStore({ path, batchSize: 1 });
      store = resumed;
      resumed.truncateFrom(at);
      facts.slice(at).forEach((f) => resumed.add(f));
      expect([...resumed.findings()], `resumed at ${String(at)}`).toEqual(expected);
      resumed.close();
    }
  });

  test('a resume refuses a store whose claims lost their batch row, which maps their MUE edits', () => {
    const path = join(dir, 'damaged.sqlite');
    const s = new CrossClaimStore({ path, batchSize: 1 });
    s.add(crossClaimFacts(viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036'] }), {}), 0));
    s.close();
    const db = new Database(path);
    db.exec('DELETE FROM fact_batch');
    db.close();
    const damaged = new CrossClaimStore({ path });
    store = damaged;
    expect(() => damaged.truncateFrom(1)).toThrow(/1 claims of the cross-claim store have lost their batch row/);
  });

  test("commits a batch's new MUE edits and pack-rule spans with its claims, not one by one", () => {
    const path = join(dir, 'one-commit.sqlite');
    const s = new CrossClaimStore({ path, batchSize: 10 });
    store = s;
    const other = new Database(path, { readonly: true });
    const counts = (): number[] =>
      ['mue_def', 'rule_span', 'claim_fact'].map((t) => other.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number);
    s.add(crossClaimFacts(viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', 'G0439'] }), {}), 0));
    // Seen from another connection: nothing of the claim is committed before the buffer is written.
    expect(counts()).toEqual([0, 0, 0]);
    s.flush();
    const [mues, spans, claims] = counts();
    expect(mues).toBeGreaterThan(0);
    expect(spans).toBeGreaterThan(0);
    expect(claims).toBe(1);
    other.close();
  });

  test('answers in claim order, then line, then check', async () => {
    const found = await scrub([
      { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', '99213'] },
      { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['99213', { procedureCode: '83036', modifiers: ['91'] }] },
      { id: 'C', patient: 'P1', date: '2026-04-02', lines: ['G0439', '83036'] },
      { id: 'D', patient: 'P1', date: '2026-05-02', lines: ['G0439'] },
    ]);
    expect(found.map((f) => [f.claimOrder, f.finding.lines[0], f.finding.code])).toEqual([
      [1, 1, 'BATCH_DUPLICATE_LINE'],
      [1, 2, 'BATCH_MUE_EXCEEDED'],
      [2, 2, 'BATCH_DUPLICATE_LINE'],
      [2, 2, 'BATCH_MUE_EXCEEDED'],
      [3, 1, 'BATCH_FREQUENCY_EXCEEDED'],
    ]);
  });

  test('runs only the batch checks asked for', async () => {
    const found = await scrub(
      [
        { id: 'A', patient: 'P1', date: '2026-04-02', lines: ['83036', 'G0439'] },
        { id: 'B', patient: 'P1', date: '2026-04-02', lines: ['83036', 'G0439'] },
      ],
      { checks: ['batch.duplicate'] },
    );
    expect(codesOf(found)).toEqual(['BATCH_DUPLICATE_LINE', 'BATCH_DUPLICATE_LINE']);
  });

  test('keeps 200,000 facts in its file and answers them all (one insert batch in memory at a time)', () => {
    const s = new CrossClaimStore({ dir, batchSize: 5_000 });
    store = s;
    // 100,000 patients with two one-line claims each: every second claim repeats the first.
    const line: CrossClaimLineFact = {
      lineNumber: 1,
      date: '2026-04-02',
      code: '99213',
      submittedCode: '99213',
      modifiers: '',
      units: 1,
      limits: [],
    };
    const facts = (order: number): CrossClaimFacts => ({
      claimOrder: order,
      claimId: `C${String(order)}`,
      patientKey: `P${String(order >> 1)}`,
      setting: 'practitioner',
      lines: [line],
      notChecked: [],
    });
    for (let order = 0; order < 200_000; order++) {
      s.add(facts(order));
    }
    let count = 0;
    let last = -1;
    let ordered = true;
    for (const f of s.findings()) {
      count++;
      ordered &&= f.claimOrder > last && f.claimOrder % 2 === 1;
      last = f.claimOrder;
    }
    expect(count).toBe(100_000);
    expect(ordered).toBe(true);
  });

  test('refuses a bad batch size and use after findings() or close()', () => {
    expect(() => new CrossClaimStore({ dir, batchSize: 0 })).toThrow(RangeError);
    const s = new CrossClaimStore({ dir });
    store = s;
    const facts = crossClaimFacts(viewClaim(ref, claim({ id: 'A', patient: 'P1', date: '2026-04-02', lines: ['99213'] }), {}), 0);
    s.add(facts);
    expect([...s.findings()]).toEqual([]);
    expect(() => s.add(facts)).toThrow(TypeError);
    expect(() => s.findings()).toThrow(TypeError);
    s.close();
    expect(() => s.add(facts)).toThrow(/after close\(\)/);
  });
});
