import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('sevenChrDefinitions lists every sevenChrDef of a release as sevenChrDef answers it for a code under it', () => {
  const all = ref.tabular.sevenChrDefinitions();
  expect(all?.release).toBe(ref.tabular.releases()[0]?.release);
  const s72 = all?.definitions.find((d) => d.level === 'diag' && d.owner === 'S72');
  expect(s72?.at).toBe('S72');
  expect(s72?.values).toEqual(ref.tabular.sevenChrDef('S72001')?.values);
  expect(all?.definitions.find((d) => d.owner === 'W21')?.values.map((v) => v.char)).toEqual(['A', 'D', 'S']);
});
