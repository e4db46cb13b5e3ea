// The PTP loader on hand-made tables in the official layout (test/fixtures/ncci/README.md): the official files are
// not in ../shared/data.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ncciPtpLoader, parsePtpFileName, parsePtpLine } from '../../../src/refdata/loaders/ncci-ptp.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/ncci/${name}`, import.meta.url), 'latin1');
const PRA = fixture('ccipra-v321r0-f1.txt');
const OPH = fixture('ccioph-v321r0-f1.txt');

describe('ncci-ptp loader', () => {
  test('reads version, revision and part from the file name: v32.1 is 2026Q2, v31.3 2025Q4', () => {
    expect(parsePtpFileName('ccipra-v321r0-f1.txt')).toEqual({
      setting: 'practitioner',
      release: '2026Q2',
      validFrom: '2026-04-01',
      version: '32.1',
      revision: 0,
      part: 1,
    });
    expect(parsePtpFileName('CCIOPH-V313R1-F4.TXT')).toMatchObject({ setting: 'hospital', release: '2025Q4', validFrom: '2025-10-01', revision: 1, part: 4 });
    expect(parsePtpFileName('ccipra-v320r0-f2.xlsx')).toBeUndefined();
    expect(parsePtpFileName('ccipra-v324r0-f1.txt')).toBeUndefined();
  });

  test('parses the seven tab-separated fields of an edit line', () => {
    expect(parsePtpLine('93000\t93005\t*\t19960101\t*\t0\tMisuse of column two code with column one code')).toEqual({
      column1: '93000',
      column2: '93005',
      pre1996: true,
      effective: '1996-01-01',
      deleted: null,
      modifierIndicator: 0,
      rationale: 'Misuse of column two code with column one code',
    });
    expect(parsePtpLine('11042\t97597\t\t20090101\t20231231\t1\tMutually exclusive procedures')).toMatchObject({ pre1996: false, deleted: '2023-12-31', modifierIndicator: 1 });
    expect(parsePtpLine('11042\t97597\t\t20090101\t20231231\t2\tx')).toMatch(/modifier indicator "2" is not 0, 1 or 9/);
    expect(parsePtpLine('11042\t97597\t\t20090231\t*\t1\tx')).toMatch(/effective date "20090231"/);
    expect(parsePtpLine('11042\t97597\tY\t20090101\t*\t1\tx')).toMatch(/prior-to-1996 field/);
    expect(parsePtpLine('11042 97597 20090101 * 1')).toMatch(/expected 7 tab-separated fields/);
  });

  test('loads both tables after their preamble, loose or inside a ZIP, with every field', async () => {
    const build = await buildFixture(
      {
        'ncci/ccipra-v321r0-f1.txt': PRA,
        // The CMS download ZIP holds the text table (and a workbook, not read).
        'ncci/ccioph-v321r0-f1.zip': makeZip({ 'ccioph-v321r0-f1.TXT': OPH, 'ccioph-v321r0-f1.xlsx': 'PK' }),
      },
      [ncciPtpLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release, u.member ?? null, u.rows])).toEqual([
      ['ncci-ptp-hospital', '2026Q2', 'ccioph-v321r0-f1.TXT', 3],
      ['ncci-ptp-practitioner', '2026Q2', null, 8],
    ]);
    const db = build.open();
    expect(
      db
        .prepare(
          `SELECT setting, column1, column2, pre_1996, valid_from, valid_to, modifier_indicator, rationale FROM ncci_ptp
           WHERE column1 IN ('11042', '36415') ORDER BY setting, column1, valid_from`,
        )
        .all(),
    ).toEqual([
      { setting: 'practitioner', column1: '11042', column2: '97597', pre_1996: 0, valid_from: '2009-01-01', valid_to: '2023-12-31', modifier_indicator: 1, rationale: 'Mutually exclusive procedures' },
      { setting: 'practitioner', column1: '11042', column2: '97597', pre_1996: 0, valid_from: '2024-01-01', valid_to: null, modifier_indicator: 0, rationale: 'Mutually exclusive procedures' },
      { setting: 'practitioner', column1: '36415', column2: '36416', pre_1996: 0, valid_from: '2002-01-01', valid_to: '2002-01-01', modifier_indicator: 9, rationale: 'CPT Manual or CMS manual coding instruction' },
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM ncci_ptp WHERE pre_1996 = 1 GROUP BY setting ORDER BY setting").all()).toEqual([{ n: 2 }, { n: 3 }]);
    db.close();
  });

  test('a later revision of the same version replaces the earlier one', async () => {
    const r1 = PRA.replace('93000\t93010\t*\t19960101\t*\t0', '93000\t93010\t*\t19960101\t20260331\t0');
    const build = await buildFixture({ 'ccipra-v321r0-f1.txt': PRA, 'ccipra-v321r1-f1.txt': r1 }, [ncciPtpLoader]);
    const db = build.open();
    expect(db.prepare("SELECT s.file, count(*) AS n FROM ncci_ptp p JOIN source s ON s.id = p.source_id GROUP BY s.file").all()).toEqual([
      { file: 'ccipra-v321r1-f1.txt', n: 8 },
    ]);
    expect(db.prepare("SELECT valid_to FROM ncci_ptp WHERE column2 = '93010'").get()).toEqual({ valid_to: '2026-03-31' });
    db.close();
  });

  test('a file without the Column 1 / Column 2 header is not taken', async () => {
    const build = await buildFixture({ 'ccipra-v321r0-f2.txt': PRA.split('\r\n').slice(6).join('\r\n') }, [ncciPtpLoader]);
    expect(build.result.units).toEqual([]);
    expect(build.result.skipped).toEqual([{ file: 'ccipra-v321r0-f2.txt', reason: 'not recognised by any loader' }]);
  });

  test('fails the build with file, member and line number on a malformed edit line', async () => {
    const lines = OPH.split('\r\n');
    lines[7] = '93000\t93005\t*\t19960101\t2025-12-31\t0\tMisuse of column two code with column one code';
    await expect(buildFixture({ 'ncci/ccioph-v321r0-f1.zip': makeZip({ 'ccioph-v321r0-f1.TXT': lines.join('\r\n') }) }, [ncciPtpLoader])).rejects.toThrow(
      /ncci\/ccioph-v321r0-f1\.zip\[ccioph-v321r0-f1\.TXT\]:8: 93000\/93005: deletion date "2025-12-31" is not a date YYYYMMDD or \*/,
    );
  });
});
