import { describe, expect, test } from 'vitest';
import {
  drugCsvRelease,
  icd10cmDrugCsvLoader,
  parseDrugCsvSubstance,
} from '../../../src/refdata/loaders/icd10cm-drug-csv.js';
import { buildFixture } from '../../helpers/build.js';

const HEADER =
  'Substance,Poisoning Accidental (unintentional),Poisoning Intentional self-harm,Poisoning Assault,Poisoning Undetermined,Adverse effect,Underdosing,';

/** The CDC CSV layout: Windows-1252 (sub-terms indented with 0x96 en dashes), CRLF, a title line then the header. */
const csv = (rows: string[]): Buffer =>
  Buffer.from(
    ['ICD-10-CM TABLE of DRUGS and CHEMICALS,,,,,,,', HEADER, ...rows].map((r) => `${r}\r\n`).join(''),
    'latin1',
  );
const dash = '\u0096';

const rows = [
  'Absinthe,T51.0X1,T51.0X2,T51.0X3,T51.0X4,--,--,',
  `${dash} beverage,T51.0X1,T51.0X2,T51.0X3,T51.0X4,--,--,`,
  'Adrenalin -see Adrenaline,,,,,,,',
  'Carbon,,,,,,,',
  `${dash} monoxide (from incomplete combustion),T58.91,T58.92,T58.93,T58.94,--,--,`,
  `${dash} ${dash} butane (distributed in mobile container),T58.11,T58.12,T58.13,T58.14,--,--,`,
  `${dash} ${dash} ${dash} distributed through pipes,T58.11,T58.12,T58.13,T58.14,--,--,`,
  HEADER,
  `${dash} ${dash} coal,T58.2X1,T58.2X2,T58.2X3,T58.2X4,--,--,`,
  '"Coal (carbon monoxide from) -see also Carbon, monoxide, coal",T58.2X1,T58.2X2,T58.2X3,T58.2X4,--,--,',
];

describe('icd10cm-drug-csv loader', () => {
  test('reads the release from the file name: an April file is the April update of its fiscal year', () => {
    expect(drugCsvRelease('icd10cm-drug-April-2025.csv')).toEqual({ release: 'FY2025-April', validFrom: '2025-04-01' });
    expect(drugCsvRelease('icd10cm_drug_2026.csv')).toEqual({ release: 'FY2026', validFrom: '2025-10-01' });
    expect(drugCsvRelease('icd10cm-drug-October-2025.csv')).toEqual({ release: 'FY2026', validFrom: '2025-10-01' });
    expect(drugCsvRelease('icd10cm-neoplasm-2025.csv')).toBeUndefined();
  });

  test('splits a substance cell into level, title and reference', () => {
    expect(parseDrugCsvSubstance('\u2013 \u2013 coal')).toEqual({ level: 2, title: 'coal', see: null, seeAlso: null });
    expect(parseDrugCsvSubstance('Adrenalin -see Adrenaline')).toEqual({
      level: 0,
      title: 'Adrenalin',
      see: 'Adrenaline',
      seeAlso: null,
    });
    expect(parseDrugCsvSubstance('Activated charcoal -see also Charcoal, medicinal')).toEqual({
      level: 0,
      title: 'Activated charcoal',
      see: null,
      seeAlso: 'Charcoal, medicinal',
    });
    expect(parseDrugCsvSubstance('Demephion -O and -S')).toEqual({
      level: 0,
      title: 'Demephion -O and -S',
      see: null,
      seeAlso: null,
    });
  });

  test('rebuilds the sub-term tree from the en-dash indents, skips the repeated header, keeps "--" as no code', async () => {
    const build = await buildFixture({ 'cm/icd10cm-drug-April-2025.csv': csv(rows) }, [icd10cmDrugCsvLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['icd10cm-drug-csv', 'FY2025-April']]);
    const db = build.open();
    expect(
      db.prepare('SELECT level, path, see, see_also, line, kind, valid_from FROM index_term ORDER BY id').all(),
    ).toEqual([
      { level: 0, path: 'Absinthe', see: null, see_also: null, line: 3, kind: 'drug', valid_from: '2025-04-01' },
      {
        level: 1,
        path: 'Absinthe > beverage',
        see: null,
        see_also: null,
        line: 4,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      {
        level: 0,
        path: 'Adrenalin',
        see: 'Adrenaline',
        see_also: null,
        line: 5,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      { level: 0, path: 'Carbon', see: null, see_also: null, line: 6, kind: 'drug', valid_from: '2025-04-01' },
      {
        level: 1,
        path: 'Carbon > monoxide (from incomplete combustion)',
        see: null,
        see_also: null,
        line: 7,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      {
        level: 2,
        path: 'Carbon > monoxide (from incomplete combustion) > butane (distributed in mobile container)',
        see: null,
        see_also: null,
        line: 8,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      {
        level: 3,
        path: 'Carbon > monoxide (from incomplete combustion) > butane (distributed in mobile container) > distributed through pipes',
        see: null,
        see_also: null,
        line: 9,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      {
        level: 2,
        path: 'Carbon > monoxide (from incomplete combustion) > coal',
        see: null,
        see_also: null,
        line: 11,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
      {
        level: 0,
        path: 'Coal (carbon monoxide from)',
        see: null,
        see_also: 'Carbon, monoxide, coal',
        line: 12,
        kind: 'drug',
        valid_from: '2025-04-01',
      },
    ]);
    const carbon = db.prepare("SELECT id, end_id FROM index_term WHERE path = 'Carbon'").get() as {
      id: number;
      end_id: number;
    };
    expect(carbon.end_id - carbon.id).toBe(4);
    expect(
      db
        .prepare(
          "SELECT c.col, c.code, c.code_as_written FROM index_cell c JOIN index_term t ON t.id = c.term_id WHERE t.path = 'Absinthe' ORDER BY c.col",
        )
        .all(),
    ).toEqual([
      { col: 2, code: 'T510X1', code_as_written: 'T51.0X1' },
      { col: 3, code: 'T510X2', code_as_written: 'T51.0X2' },
      { col: 4, code: 'T510X3', code_as_written: 'T51.0X3' },
      { col: 5, code: 'T510X4', code_as_written: 'T51.0X4' },
      { col: 6, code: null, code_as_written: '--' },
      { col: 7, code: null, code_as_written: '--' },
    ]);
    expect(
      db
        .prepare(
          "SELECT count(*) AS n FROM index_cell c JOIN index_term t ON t.id = c.term_id WHERE t.path IN ('Adrenalin', 'Carbon')",
        )
        .get(),
    ).toEqual({ n: 0 });
    expect(db.prepare('SELECT col, heading FROM index_heading ORDER BY col').all()).toEqual([
      { col: 1, heading: 'Substance' },
      { col: 2, heading: 'Poisoning Accidental (unintentional)' },
      { col: 3, heading: 'Poisoning Intentional self-harm' },
      { col: 4, heading: 'Poisoning Assault' },
      { col: 5, heading: 'Poisoning Undetermined' },
      { col: 6, heading: 'Adverse effect' },
      { col: 7, heading: 'Underdosing' },
    ]);
    db.close();
  });

  test('is not taken without the title line and header', async () => {
    const build = await buildFixture(
      { 'cm/icd10cm-drug-April-2025.csv': Buffer.from(`${HEADER}\r\n${rows[0] ?? ''}\r\n`) },
      [icd10cmDrugCsvLoader],
    );
    expect(build.result.units).toEqual([]);
    expect(build.result.skipped.map((s) => s.file)).toEqual(['cm/icd10cm-drug-April-2025.csv']);
  });

  test('fails the build with file and line on a cell that is not a code', async () => {
    const bad = csv([...rows.slice(0, 4), `${dash} monoxide,T58.91,T58.92,T5893,T58.94,--,--,`]);
    await expect(buildFixture({ 'cm/icd10cm-drug-April-2025.csv': bad }, [icd10cmDrugCsvLoader])).rejects.toThrow(
      /cm\/icd10cm-drug-April-2025\.csv:7: column 4 is not a code: "T5893"/,
    );
  });

  test('fails the build with file and line on a sub-term two levels below its parent', async () => {
    const bad = csv([rows[0] ?? '', `${dash} ${dash} ${dash} vapor,T51.0X1,T51.0X2,T51.0X3,T51.0X4,--,--,`]);
    await expect(buildFixture({ 'cm/icd10cm-drug-April-2025.csv': bad }, [icd10cmDrugCsvLoader])).rejects.toThrow(
      /cm\/icd10cm-drug-April-2025\.csv:4: sub-term at level 3 under a term of level 0/,
    );
  });
});
