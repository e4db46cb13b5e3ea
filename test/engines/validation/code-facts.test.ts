// The per-code facts the claim view reads: one shared object per code string, date and code set, whose detail is
// the code engine's answer, and whose memo slots keep each rule lookup's answer apart.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetails } from '../../../src/engines/codes/index.js';
import { dxFacts, FactMemo, lineFacts } from '../../../src/engines/validation/code-facts.js';
import { validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const DATE = '2025-06-15';

test('diagnosis facts carry the code engine answer and the normal form, one object per code, date and set', () => {
  const codes = ['e11.9', 'I10', 'E119', 'I10', 'NOTACODE'];
  const facts = dxFacts(ref, codes, DATE, 'ICD-10 CM');
  expect(facts.map((f) => f.detail)).toEqual(codeDetails(ref, codes, DATE, 'ICD-10 CM'));
  expect(facts.map((f) => f.norm)).toEqual(['E119', 'I10', 'E119', 'I10', 'NOTACODE']);
  // A code twice in one call, and again in a later call, is one object; another spelling is another input.
  expect(facts[1]).toBe(facts[3]);
  expect(dxFacts(ref, ['I10'], DATE, 'ICD-10 CM')[0]).toBe(facts[1]);
  expect(facts[0]).not.toBe(facts[2]);
  // Another date, or another code set named, is read anew.
  expect(dxFacts(ref, ['I10'], '2024-06-15', 'ICD-10 CM')[0]).not.toBe(facts[1]);
  expect(dxFacts(ref, ['I10'], DATE, undefined)[0]).not.toBe(facts[1]);
});

test('dates of one epoch share the facts; a detail that names its date serves that date only', () => {
  /** The first later day (within 60) in the same epoch as `day`. */
  const sameEpoch = (day: string): string => {
    const d = new Date(`${day}T00:00:00Z`);
    for (let i = 0; i < 60; i++) {
      d.setUTCDate(d.getUTCDate() + 1);
      const other = d.toISOString().slice(0, 10);
      if (ref.codes.epochOf(other) === ref.codes.epochOf(day)) {
        return other;
      }
    }
    throw new Error(`no day after ${day} in its epoch`);
  };
  const later = sameEpoch(DATE);
  expect(ref.codes.epochOf('2024-06-15')).not.toBe(ref.codes.epochOf(DATE));
  const [i10] = dxFacts(ref, ['I10'], DATE, 'ICD-10 CM');
  expect(i10?.dated).toBeUndefined();
  expect(dxFacts(ref, ['I10'], later, 'ICD-10 CM')[0]).toBe(i10);
  expect(dxFacts(ref, ['I10'], '2024-06-15', 'ICD-10 CM')[0]).not.toBe(i10);
  // 99213 in 2026, answered from the derived OPPS table, whose note says "the date" rather than writing it.
  const lines = claimOf({}, ['I10'], ['99213']).lines;
  const [line] = lineFacts(ref, lines, '2026-05-15');
  expect(line?.detail.notes?.join(' ')).toMatch(/derived .* OPPS table/);
  expect(line?.dated).toBeUndefined();
  expect(lineFacts(ref, lines, sameEpoch('2026-05-15'))[0]).toBe(line);
  // U07.1 (COVID-19) begins on 2020-04-01: before that its message says it is not in the code set on that date, so
  // each date gets its own, with its own date.
  const early = ['2020-03-10', sameEpoch('2020-03-10')];
  const [a, b] = early.map((d) => dxFacts(ref, ['U07.1'], d, 'ICD-10 CM')[0]);
  expect(a?.dated).toBe(early[0]);
  expect(a?.detail.message).toContain(early[0]);
  expect(b?.detail.message).toContain(early[1]);
  expect(b?.detail).toEqual(codeDetails(ref, ['U07.1'], early[1] as string, 'ICD-10 CM')[0]);
  expect(dxFacts(ref, ['U07.1'], early[0] as string, 'ICD-10 CM')[0]?.detail.message).toContain(early[0]);
});

test('line facts read each procedure code in the set its shape names, on the line date', () => {
  const { lines } = claimOf({}, ['I10'], ['G0439', { procedureCode: '99213', dateOfService: '2024-06-15' }, 'E119']);
  const facts = lineFacts(ref, lines, DATE);
  expect(facts[0]?.detail).toEqual(codeDetails(ref, ['G0439'], DATE, 'HCPCS')[0]);
  expect(facts[1]?.detail).toEqual(codeDetails(ref, ['99213'], '2024-06-15', 'CPT')[0]);
  // A diagnosis code on a line matches no procedure shape alone: the engine detects it.
  expect(facts[2]?.detail.codeType).toBe('ICD-10 CM');
  expect(lineFacts(ref, lines.slice(1, 2), DATE)[0]).toBe(facts[1]);
});

test('each memo keeps its own answer on a code, kept for the next claim carrying it', () => {
  const a = new FactMemo<string>();
  const b = new FactMemo<number | null>();
  const [facts] = dxFacts(ref, ['J45909'], DATE, 'ICD-10 CM');
  if (facts === undefined) {
    throw new Error('no facts');
  }
  expect(a.of(facts)).toBeUndefined();
  expect(a.keep(facts, 'asthma')).toBe('asthma');
  expect(b.of(facts)).toBeUndefined();
  b.keep(facts, null);
  expect(b.of(facts)).toBeNull();
  expect(a.of(dxFacts(ref, ['J45909'], DATE, 'ICD-10 CM')[0] as typeof facts)).toBe('asthma');
});

test('a lookup memoised on a code is answered the same on the next claim carrying it', () => {
  // G63's code-first notes and E85.1's Excludes1 notes are read on the first claim and reused on the second.
  const claim = claimOf({}, ['G63', 'E85.1', 'E85.3'], ['99213']);
  const first = validateClaim(ref, claim, { checks: ['dx.code-first', 'dx.excludes1'] });
  const second = validateClaim(ref, claim, { checks: ['dx.code-first', 'dx.excludes1'] });
  expect(second).toEqual(first);
  expect(first.findings.map((f) => f.rule)).toContain('dx.code-first');
});
