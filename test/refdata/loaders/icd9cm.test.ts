import { describe, expect, test } from 'vitest';
import { icd9cmLoader, parseIcd9Line } from '../../../src/refdata/loaders/icd9cm.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

// Lines in the CMS layout: code padded to 5 (DX) or 4 (SG), a space, the title; LF endings; latin1 bytes.
const dxLong = [
  '0010  Cholera due to vibrio cholerae',
  "0413  Friedländer's bacillus infection in conditions classified elsewhere and of unspecified site",
  '25000 Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled',
  'E0000 Civilian activity done for income or pay',
  'V010  Contact with or exposure to cholera',
];
const dxShort = [
  '0010  Cholera d/t vib cholerae',
  '0413  Klebsiella pneumoniae',
  '25000 DMII wo cmp nt st uncntr',
  'E0000 Civilian activity-income',
  'V010  Cholera contact',
];
const sgLong = ['0001 Therapeutic ultrasound of vessels of head and neck', '8154 Total knee replacement'];
const sgShort = ['0001 Ther ult head & neck ves', '8154 Total knee replacement'];

const zip = (members: Record<string, string[]>): Buffer => {
  const texts: Record<string, string> = { 'CMS32_DESC_LONG_SHORT_DX.xlsx': 'PK' };
  for (const [name, lines] of Object.entries(members)) {
    texts[name] = `${lines.join('\n')}\n`;
  }
  return makeZip(texts);
};

const v32 = (
  over: Partial<
    Record<
      'CMS32_DESC_LONG_DX.txt' | 'CMS32_DESC_SHORT_DX.txt' | 'CMS32_DESC_LONG_SG.txt' | 'CMS32_DESC_SHORT_SG.txt',
      string[]
    >
  > = {},
): Buffer =>
  zip({
    'CMS32_DESC_LONG_DX.txt': dxLong,
    'CMS32_DESC_SHORT_DX.txt': dxShort,
    'CMS32_DESC_LONG_SG.txt': sgLong,
    'CMS32_DESC_SHORT_SG.txt': sgShort,
    ...over,
  });

describe('icd9cm loader', () => {
  test('reads the code column by its fixed width and rejects other shapes', () => {
    expect(parseIcd9Line('0010  Cholera due to vibrio cholerae', 'DX')).toEqual({
      code: '0010',
      title: 'Cholera due to vibrio cholerae',
    });
    expect(parseIcd9Line('V9192 Mult gest 2+ monoamn NEC', 'DX')).toEqual({
      code: 'V9192',
      title: 'Mult gest 2+ monoamn NEC',
    });
    expect(parseIcd9Line('001 Ther ult head', 'SG')).toBeUndefined();
    expect(parseIcd9Line('010  Spinal tap', 'SG')).toEqual({ code: '010', title: 'Spinal tap' });
    expect(parseIcd9Line('250.00 Diabetes', 'DX')).toBeUndefined();
    expect(parseIcd9Line('25000 ', 'DX')).toBeUndefined();
  });

  test('merges long and short titles into one v32 row per code, decoding ISO-8859-1', async () => {
    const build = await buildFixture({ 'icd9cm/ICD-9-CM-v32-master-descriptions.zip': v32() }, [icd9cmLoader]);
    const db = build.open();
    expect(
      db.prepare('SELECT dataset, release, valid_from, valid_to, rows FROM source ORDER BY dataset').all(),
    ).toEqual([
      { dataset: 'icd9cm-dx', release: 'v32', valid_from: '2014-10-01', valid_to: '2015-09-30', rows: 5 },
      { dataset: 'icd9cm-proc', release: 'v32', valid_from: '2014-10-01', valid_to: '2015-09-30', rows: 2 },
    ]);
    expect(
      db
        .prepare(
          "SELECT system, code, valid_from, valid_to, billable, short_title, long_title FROM code WHERE code IN ('0413', '8154') ORDER BY system",
        )
        .all(),
    ).toEqual([
      {
        system: 'ICD9CM_DX',
        code: '0413',
        valid_from: '2014-10-01',
        valid_to: '2015-09-30',
        billable: 1,
        short_title: 'Klebsiella pneumoniae',
        long_title: "Friedländer's bacillus infection in conditions classified elsewhere and of unspecified site",
      },
      {
        system: 'ICD9CM_PROC',
        code: '8154',
        valid_from: '2014-10-01',
        valid_to: '2015-09-30',
        billable: 1,
        short_title: 'Total knee replacement',
        long_title: 'Total knee replacement',
      },
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM code WHERE system = 'ICD9CM_DX'").get()).toEqual({ n: 5 });
    db.close();
  });

  test('fails the build with file, member and line number on a malformed line', async () => {
    const bad = v32({ 'CMS32_DESC_LONG_DX.txt': [dxLong[0]!, '250.00 Diabetes mellitus', ...dxLong.slice(2)] });
    await expect(buildFixture({ 'icd9/v32.zip': bad }, [icd9cmLoader])).rejects.toThrow(
      /icd9\/v32\.zip\[CMS32_DESC_LONG_DX\.txt\]:2: not an ICD-9-CM DX description line/,
    );
  });

  test('fails when a code has a long title but no short one, or the reverse', async () => {
    const noShort = v32({ 'CMS32_DESC_SHORT_SG.txt': [sgShort[0]!] });
    await expect(buildFixture({ 'v32.zip': noShort }, [icd9cmLoader])).rejects.toThrow(
      /v32\.zip\[CMS32_DESC_LONG_SG\.txt\]:2: code 8154 has no short title/,
    );
    const noLong = v32({ 'CMS32_DESC_LONG_SG.txt': [sgLong[1]!] });
    await expect(buildFixture({ 'v32.zip': noLong }, [icd9cmLoader])).rejects.toThrow(
      /v32\.zip\[CMS32_DESC_SHORT_SG\.txt\]:1: code 0001 has no long title/,
    );
  });

  test('skips a ZIP whose long member has no short twin or is not in the layout', async () => {
    const build = await buildFixture(
      {
        'lone.zip': zip({ 'CMS32_DESC_LONG_DX.txt': dxLong }),
        'other.zip': zip({
          'CMS32_DESC_LONG_SG.txt': ['code,title', '8154,Total knee replacement'],
          'CMS32_DESC_SHORT_SG.txt': sgShort,
        }),
      },
      [icd9cmLoader],
    );
    expect(build.result.skipped.map((s) => s.file)).toEqual(['lone.zip', 'other.zip']);
  });
});
