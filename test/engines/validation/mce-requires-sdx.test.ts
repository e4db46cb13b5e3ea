import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[], fields = {}): ReturnType<typeof runRule> => runRule(ref, 'mce.requires-sdx', dx, [], fields);

// v43.1 edit 9: "Z5189 ... is considered acceptable when a secondary diagnosis is also coded on the record. If no
// secondary diagnosis is present for this code, the message REQUIRES SECONDARY DX will appear".
test('flags Z51.89 as principal without a secondary diagnosis', () => {
  const r = run(['Z51.89']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_REQUIRES_SDX',
      codes: ['Z51.89'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.message).toMatch(/REQUIRES SECONDARY DX/);
});

test('accepts Z51.89 as principal with a secondary diagnosis', () => {
  expect(run(['Z51.89', 'C50.911']).findings).toEqual([]);
});

test('does not flag other unacceptable principal diagnoses (mce.unacceptable-pdx does)', () => {
  expect(run(['B95.0']).findings).toEqual([]);
});

test('reports the derived v37 table as lacking the requires-secondary-dx list', () => {
  const r = run(['Z51.89'], { dateOfServiceFrom: '2020-05-15' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v37 unacceptable-principal-dx-requires-secondary-dx list']);
});
