// How `refdata status` dates each source: its own end date, else the day before the next release of the same dataset,
// else the last day of its rows when every row ends (a loader may close rows where another dataset takes over).
import { describe, expect, test } from 'vitest';
import { readStatus } from '../../../src/refdata/builder/status.js';
import type { Loader } from '../../../src/refdata/builder/types.js';
import { buildFixture } from '../../helpers/build.js';

/**
 * A tiny loader: `<dataset>_<validFrom>.txt` is one release; each line `code[,validTo]` is a row (no `validTo`: still in
 * force).
 */
const datedRows: Loader = {
  name: 'dated-rows',
  version: 1,
  ddl: 'CREATE TABLE dated_row (code TEXT NOT NULL, valid_from TEXT NOT NULL, valid_to TEXT, source_id INTEGER NOT NULL)',
  recognise: (file) => {
    const m = /^([a-z-]+)_(\d{4}-\d{2}-\d{2})\.txt$/.exec(file.name);
    return Promise.resolve(m?.[1] && m[2] ? [{ dataset: m[1], release: m[2], validFrom: m[2] }] : []);
  },
  load: async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.open()) {
      chunks.push(chunk as Buffer);
    }
    const insert = ctx.db.prepare('INSERT INTO dated_row (code, valid_from, valid_to, source_id) VALUES (?, ?, ?, ?)');
    for (const line of Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean)) {
      const [code, validTo] = line.split(',');
      insert.run(code, ctx.unit.validFrom, validTo || null, ctx.sourceId);
    }
  },
};

const validity = (files: Record<string, string>): Promise<[string, string, string | null][]> =>
  buildFixture(files, [datedRows]).then((build) =>
    readStatus(build.dbPath).sources.map((s) => [s.dataset, s.release, s.validTo]),
  );

describe('source validity in refdata status', () => {
  test('ends a release whose rows all end on the last day of its rows, not open-ended', async () => {
    expect(await validity({ 'opps_2025-01-01.txt': 'G0463,2026-03-31\nJ1429,2025-06-30\n' })).toEqual([
      ['opps', '2025-01-01', '2026-03-31'],
    ]);
  });

  test('leaves a release open-ended while any of its rows is still in force', async () => {
    expect(await validity({ 'opps_2025-01-01.txt': 'G0463,2026-03-31\nJ1429\n' })).toEqual([
      ['opps', '2025-01-01', null],
    ]);
  });

  test('ends a release the day before the next release of the same dataset, even when its rows run on', async () => {
    expect(
      await validity({
        'opps_2023-01-01.txt': 'G0463\n',
        'opps_2025-01-01.txt': 'G0463\n',
        'other_2024-01-01.txt': 'G0463\n',
      }),
    ).toEqual([
      ['opps', '2023-01-01', '2024-12-31'],
      ['opps', '2025-01-01', null],
      ['other', '2024-01-01', null],
    ]);
  });

  test('ends the newest release of a quarterly NCCI dataset with its quarter (a later quarter is no data)', async () => {
    expect(
      await validity({
        'ncci-aoc_2026-01-01.txt': '11045\n',
        'ncci-aoc_2026-04-01.txt': '11045\n',
        'mue-dme_2025-10-01.txt': 'E0114\n',
        'mue-practitioner-xlsx_2026-04-01.txt': '97110\n',
        'opps_2025-01-01.txt': 'G0463\n',
      }),
    ).toEqual([
      ['mue-dme', '2025-10-01', '2025-12-31'],
      ['mue-practitioner-xlsx', '2026-04-01', '2026-06-30'],
      ['ncci-aoc', '2026-01-01', '2026-03-31'],
      ['ncci-aoc', '2026-04-01', '2026-06-30'],
      ['opps', '2025-01-01', null],
    ]);
  });
});
