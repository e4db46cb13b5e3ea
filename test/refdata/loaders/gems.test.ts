import { describe, expect, test } from 'vitest';
import { gemsLoader, parseGemLine } from '../../../src/refdata/loaders/gems.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const crlf = (lines: string[]): string => `${lines.join('\r\n')}\r\n`;

// Rows in the GEM layout (space-separated, CRLF), including a combination, a no-map row and a lower-case target.
const i10gem = [
  'A000    0010  00000',
  'A021    0031  10111',
  'A021    99591 10112',
  'O3680X0 NoDx  11000',
  'T8853XD v5889 10000',
];
const i9gem = ['0010  A000    00000', '0031  A021    10000', 'V8901 NoDx    11000'];
const pcsi9 = ['0016070 0231  10000', '02H40NZ NoI9  10000', '0SRC0J9 8154  10000'];
const i9pcs = ['0016  NoPCS   11000', '8154  0SRC06Z 10000', '8154  0SRC07Z 10000'];

const official = (): Record<string, Buffer | string> => ({
  'gems/Dxgem_2018.zip': makeZip({
    '2018_I10gem.txt': crlf(i10gem),
    '2018_I9gem.txt': crlf(i9gem),
    'Dxgem_guide_2018.pdf': '%PDF-1.4',
  }),
  'gems/gem_pcsi9.txt': crlf(pcsi9),
  'gems/gem_i9pcs.txt': crlf(i9pcs),
});

describe('gems loader', () => {
  test('parses the three fields and recognises no-map sentinels', () => {
    expect(parseGemLine('A021    99591 10112')).toEqual({ source: 'A021', target: '99591', flags: '10112' });
    expect(parseGemLine('0016  NoPCS   11000')).toEqual({ source: '0016', target: null, flags: '11000' });
    expect(parseGemLine('T8853XD v5889 10000')).toEqual({ source: 'T8853XD', target: 'V5889', flags: '10000' });
    expect(parseGemLine('A021\t0031\t10111')).toEqual({ source: 'A021', target: '0031', flags: '10111' });
    expect(parseGemLine('A021    0031  1011')).toBeUndefined();
    expect(parseGemLine('A021 0031')).toBeUndefined();
  });

  test('loads all four files in file order with every flag as printed', async () => {
    const build = await buildFixture(official(), [gemsLoader]);
    const db = build.open();
    expect(db.prepare('SELECT dataset, member, release, valid_from, rows FROM source ORDER BY dataset').all()).toEqual([
      { dataset: 'gems-dx-i10-i9', member: '2018_I10gem.txt', release: 'FY2018', valid_from: '2017-10-01', rows: 5 },
      { dataset: 'gems-dx-i9-i10', member: '2018_I9gem.txt', release: 'FY2018', valid_from: '2017-10-01', rows: 3 },
      { dataset: 'gems-pcs-i10-i9', member: null, release: 'FY2018', valid_from: '2017-10-01', rows: 3 },
      { dataset: 'gems-pcs-i9-i10', member: null, release: 'FY2018', valid_from: '2017-10-01', rows: 3 },
    ]);
    const rows = db
      .prepare(
        "SELECT row_no, source, target, flags, approximate, no_map, combination, scenario, choice_list FROM gem WHERE dataset = 'gems-dx-i10-i9' ORDER BY row_no",
      )
      .all();
    expect(rows).toEqual([
      {
        row_no: 1,
        source: 'A000',
        target: '0010',
        flags: '00000',
        approximate: 0,
        no_map: 0,
        combination: 0,
        scenario: 0,
        choice_list: 0,
      },
      {
        row_no: 2,
        source: 'A021',
        target: '0031',
        flags: '10111',
        approximate: 1,
        no_map: 0,
        combination: 1,
        scenario: 1,
        choice_list: 1,
      },
      {
        row_no: 3,
        source: 'A021',
        target: '99591',
        flags: '10112',
        approximate: 1,
        no_map: 0,
        combination: 1,
        scenario: 1,
        choice_list: 2,
      },
      {
        row_no: 4,
        source: 'O3680X0',
        target: null,
        flags: '11000',
        approximate: 1,
        no_map: 1,
        combination: 0,
        scenario: 0,
        choice_list: 0,
      },
      {
        row_no: 5,
        source: 'T8853XD',
        target: 'V5889',
        flags: '10000',
        approximate: 1,
        no_map: 0,
        combination: 0,
        scenario: 0,
        choice_list: 0,
      },
    ]);
    // The NoI9 quirk keeps its flags as printed (10000): the sentinel target is what says "no map".
    expect(
      db
        .prepare("SELECT target, flags, no_map FROM gem WHERE dataset = 'gems-pcs-i10-i9' AND source = '02H40NZ'")
        .get(),
    ).toEqual({ target: null, flags: '10000', no_map: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM gem WHERE source_id IS NULL OR valid_to IS NOT NULL').get()).toEqual({
      n: 0,
    });
    db.close();
  });

  test('fails the build with file, member and line number on a malformed line', async () => {
    const bad = makeZip({ '2018_I10gem.txt': crlf([i10gem[0]!, i10gem[1]!, 'A021    99591 1011X']) });
    await expect(buildFixture({ 'Dxgem_2018.zip': bad }, [gemsLoader])).rejects.toThrow(
      /Dxgem_2018\.zip\[2018_I10gem\.txt\]:3: not a GEM line/,
    );
    await expect(buildFixture({ 'gem_i9pcs.txt': crlf([i9pcs[0]!, '8154  0SRC06Z']) }, [gemsLoader])).rejects.toThrow(
      /gem_i9pcs\.txt:2: not a GEM line/,
    );
  });

  test('takes the year from the file name, and skips a GEM-named file with other content', async () => {
    const build = await buildFixture(
      { 'gems/2017_I9gem.txt': crlf(i9gem), 'gems/gem_pcsi9.txt': 'source,target,flags\r\n0016070,0231,10000\r\n' },
      [gemsLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['gems-dx-i9-i10', 'FY2017']]);
    expect(build.result.skipped.map((s) => s.file)).toEqual(['gems/gem_pcsi9.txt']);
  });

  test('an older GEM release ends the day before the next one starts', async () => {
    const build = await buildFixture({ 'a/2017_I9gem.txt': crlf(i9gem), 'b/2018_I9gem.txt': crlf(i9gem) }, [
      gemsLoader,
    ]);
    const db = build.open();
    expect(db.prepare('SELECT DISTINCT valid_from, valid_to FROM gem ORDER BY valid_from').all()).toEqual([
      { valid_from: '2016-10-01', valid_to: '2017-09-30' },
      { valid_from: '2017-10-01', valid_to: null },
    ]);
    db.close();
  });
});
