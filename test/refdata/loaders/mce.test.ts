import { describe, expect, test } from 'vitest';
import { mceDate, mceLoader, mceReleaseOf } from '../../../src/refdata/loaders/mce.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const NAME = 'Definitions of Medicare Code Edits_v_43_1.txt';

/** A miniature manual in the layout of the CMS text export (Windows-1252: 0x96 is the en dash, 0x92 the apostrophe). */
function manual(extraBodyLines: string[] = []): Buffer {
  const lines = [
    '',
    'Definitions of Medicare Code Edits',
    'ICD-10 Version',
    'v43.1 April 2026',
    '',
    'Table of Contents',
    'Chapter 1: Edit code lists\t7',
    'Procedure\t171',
    '',
    'Chapter 1: Edit code lists',
    'Below is a list of edits described in this chapter. ',
    '4. Age conflict',
    '5. Sex conflict (deactivated as of 10/01/2024)',
    '9. Unacceptable principal diagnosis',
    '11. Non-covered procedure',
    '16. Invalid discharge status',
    '',
    '',
    '4. Age conflict',
    'The Medicare Code Editor detects inconsistencies between a patient\x92s age and any diagnosis.',
    '* Perinatal/Newborn. Age 0 years only; a subset of diagnoses.',
    '* Pediatric. Age range is 0\x9617 years inclusive (e.g., Reye\x92s syndrome). ',
    'A. Perinatal/Newborn diagnoses',
    'A33\tTetanus neonatorum',
    'P0000\tNewborn affected by maternal hypertensive disorders',
    '',
    'B. Pediatric diagnoses (age 0 through 17)',
    'E7871\tBarth syndrome',
    ...extraBodyLines,
    '',
    '5. Sex conflict (deactivated as of 10/01/2024)',
    'Medicare Code Editor detects inconsistencies between a patient\x92s sex and any diagnosis.',
    '9. Unacceptable principal diagnosis',
    'The following unacceptable principal diagnosis code is considered "acceptable" when a secondary diagnosis is also coded on the record:',
    'Z5189\tEncounter for other specified aftercare',
    'Note: This code is identified with an asterisk.',
    'Unacceptable principal diagnosis codes',
    'B950\tStreptococcus, group A, causing diseases classd elswhr',
    '*Z5189\tEncounter for other specified aftercare',
    '11. Non-covered procedure',
    'There are some procedures for which Medicare does not provide payment.',
    'B. Non-covered procedure codes',
    'ICD-10-PCS procedure codes for pancreas transplants (0FYG0Z0, 0FYG0Z1) alone [without kidney transplant codes (0TY00Z0, 0TY10Z2)] are considered "Non-covered procedures" except for the following condition:',
    'When either 0FYG0Z0 (Transplantation of Pancreas, Allogeneic, Open Approach) or 0FYG0Z1 (Transplantation of Pancreas, Syngeneic, Open Approach) is combined with a diagnosis from the following list:',
    'Diagnoses list ',
    'E1010\tType 1 diabetes mellitus with ketoacidosis without coma  ',
    '',
    'C. Non-covered procedure codes (discontinued as of 04/01/2022)',
    'The procedures shown below are identified as non-covered procedures except when combined with diagnosis code Z006.',
    'F. Non-covered procedure codes',
    'The procedures shown below are identified as "Non-covered procedures" when the beneficiary is over age 60.',
    'Procedure',
    '0SR20JZ\tReplacement of Lum Disc with Synth Sub, Open Approach',
    '16. Invalid discharge status',
    'Discharge status must be coded according to the UB-04 conventions. Valid values are:',
    '01 = Home or self-care',
    '04 = Disch/trans to ICF (valid until 9/30/09)',
    '04 = Cust/supp care (added 10/01/09)',
    '',
    'Chapter 2: Code list changes',
    'Changes to edits',
    '9. Unacceptable principal diagnosis',
    'The following codes were removed',
    'F0781\tPostconcussional syndrome',
    '',
    'Index',
    'E-codes\t8',
    '\tDefinitions of Medicare Code Edits\t1',
  ];
  return Buffer.from(`${lines.join('\n')}\n`, 'latin1');
}

const DERIVED_HEADER =
  'MCE_Version\tICD_Version\tMCE_Section\tMCE_Subsection\tMCE_Edit_Type\tICD_Code_Type\tICD_Code\tICD_Desc';

describe('mce loader', () => {
  test('reads the release and dates from the title page, and MCE dates', () => {
    expect(mceReleaseOf('Definitions of Medicare Code Edits\nICD-10 Version\nv43.1 April 2026\n')).toEqual({
      release: 'v43.1',
      validFrom: '2026-04-01',
      validTo: '2026-09-30',
    });
    expect(mceReleaseOf('Definitions of Medicare Code Edits\nv43.0 October 2025\n')).toEqual({
      release: 'v43.0',
      validFrom: '2025-10-01',
      validTo: undefined,
    });
    expect(mceReleaseOf('Some other manual\nv43.1 April 2026\n')).toBeUndefined();
    expect(mceDate('9/30/09')).toBe('2009-09-30');
    expect(mceDate('ICD-10 implementation')).toBe('2015-10-01');
  });

  test('loads every list of chapter 1 with its edit, code type, ages, status and the chapter 2 changes', async () => {
    const build = await buildFixture({ [`mce/${NAME}`]: manual() }, [mceLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['mce', 'v43.1']]);
    const db = build.open();
    const lists = db
      .prepare(
        'SELECT list, edit, section, title, code_type, age_min, age_max, active, inactive_from, from_text, codes FROM mce_list ORDER BY list',
      )
      .all();
    expect(lists).toEqual([
      {
        list: 'age-newborn',
        edit: 'age-conflict',
        section: '4A',
        title: 'Perinatal/Newborn diagnoses',
        code_type: 'D',
        age_min: 0,
        age_max: 0,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 2,
      },
      {
        list: 'age-pediatric',
        edit: 'age-conflict',
        section: '4B',
        title: 'Pediatric diagnoses (age 0 through 17)',
        code_type: 'D',
        age_min: 0,
        age_max: 17,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 1,
      },
      {
        list: 'non-covered-b-diagnoses',
        edit: 'non-covered-procedure',
        section: '11B',
        title: 'Diagnoses list',
        code_type: 'D',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 1,
      },
      {
        list: 'non-covered-b-kidney-procedures',
        edit: 'non-covered-procedure',
        section: '11B',
        title: 'Kidney transplant procedure codes (named in the edit text)',
        code_type: 'P',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 1,
        codes: 2,
      },
      {
        list: 'non-covered-b-pancreas-procedures',
        edit: 'non-covered-procedure',
        section: '11B',
        title: 'Pancreas transplant procedure codes (named in the edit text)',
        code_type: 'P',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 1,
        codes: 2,
      },
      {
        list: 'non-covered-c',
        edit: 'non-covered-procedure',
        section: '11C',
        title: 'Non-covered procedure codes',
        code_type: null,
        age_min: null,
        age_max: null,
        active: 0,
        inactive_from: '2022-04-01',
        from_text: 0,
        codes: 0,
      },
      {
        list: 'non-covered-f',
        edit: 'non-covered-procedure',
        section: '11F',
        title: 'Procedure',
        code_type: 'P',
        age_min: 61,
        age_max: 124,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 1,
      },
      {
        list: 'unacceptable-principal-dx',
        edit: 'unacceptable-principal-dx',
        section: '9',
        title: 'Unacceptable principal diagnosis codes',
        code_type: 'D',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 2,
      },
      {
        list: 'unacceptable-principal-dx-requires-secondary-dx',
        edit: 'unacceptable-principal-dx',
        section: '9',
        title: 'Requires secondary diagnosis',
        code_type: 'D',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 1,
      },
      {
        list: 'valid-discharge-status',
        edit: 'invalid-discharge-status',
        section: '16',
        title: 'Valid discharge status codes',
        code_type: 'S',
        age_min: null,
        age_max: null,
        active: 1,
        inactive_from: null,
        from_text: 0,
        codes: 3,
      },
    ]);
    expect(db.prepare("SELECT edit, active, inactive_from FROM mce_edit WHERE edit = 'sex-conflict'").get()).toEqual({
      edit: 'sex-conflict',
      active: 0,
      inactive_from: '2024-10-01',
    });
    expect(
      db
        .prepare(
          "SELECT code, description, marked, valid_from, valid_to, line FROM mce_code WHERE list = 'unacceptable-principal-dx' ORDER BY code",
        )
        .all(),
    ).toEqual([
      {
        code: 'B950',
        description: 'Streptococcus, group A, causing diseases classd elswhr',
        marked: 0,
        valid_from: '2026-04-01',
        valid_to: '2026-09-30',
        line: 37,
      },
      {
        code: 'Z5189',
        description: 'Encounter for other specified aftercare',
        marked: 1,
        valid_from: '2026-04-01',
        valid_to: '2026-09-30',
        line: 38,
      },
    ]);
    expect(
      db
        .prepare(
          "SELECT code, description FROM mce_code WHERE list = 'non-covered-b-pancreas-procedures' ORDER BY code",
        )
        .all(),
    ).toEqual([
      { code: '0FYG0Z0', description: 'Transplantation of Pancreas, Allogeneic, Open Approach' },
      { code: '0FYG0Z1', description: 'Transplantation of Pancreas, Syngeneic, Open Approach' },
    ]);
    expect(
      db
        .prepare("SELECT code, active, description FROM mce_code WHERE list = 'valid-discharge-status' ORDER BY line")
        .all(),
    ).toEqual([
      { code: '01', active: 1, description: 'Home or self-care' },
      { code: '04', active: 0, description: 'Disch/trans to ICF (valid until 9/30/09)' },
      { code: '04', active: 1, description: 'Cust/supp care (added 10/01/09)' },
    ]);
    expect(db.prepare("SELECT description FROM mce_code WHERE code = 'E1010'").get()).toEqual({
      description: 'Type 1 diabetes mellitus with ketoacidosis without coma',
    });
    expect(db.prepare('SELECT section, edit, list, change, code, code_type FROM mce_change').all()).toEqual([
      {
        section: '9',
        edit: 'unacceptable-principal-dx',
        list: 'unacceptable-principal-dx',
        change: 'removed',
        code: 'F0781',
        code_type: 'D',
      },
    ]);
    expect(
      (
        db
          .prepare("SELECT count(*) AS n FROM mce_code WHERE source_id = (SELECT id FROM source WHERE dataset = 'mce')")
          .get() as { n: number }
      ).n,
    ).toBe(15);
    db.close();
  });

  test('reads the manual inside a ZIP too', async () => {
    const build = await buildFixture({ 'mce/mce-definitions.zip': makeZip({ [`v43/${NAME}`]: manual() }) }, [
      mceLoader,
    ]);
    expect(build.result.units.map((u) => [u.dataset, u.member])).toEqual([['mce', `v43/${NAME}`]]);
  });

  test('fails the build with file and line number on a malformed code line', async () => {
    await expect(buildFixture({ [`mce/${NAME}`]: manual(['E78.1\tA dotted code']) }, [mceLoader])).rejects.toThrow(
      `mce/${NAME}:29: not an MCE code line`,
    );
    await expect(
      buildFixture({ [`mce/${NAME}`]: manual(['0SR20JZ\tA procedure in a diagnosis list']) }, [mceLoader]),
    ).rejects.toThrow(`mce/${NAME}:29: 0SR20JZ is not a diagnosis code (list age-pediatric)`);
    await expect(buildFixture({ [`mce/${NAME}`]: manual(['E7871\tBarth syndrome']) }, [mceLoader])).rejects.toThrow(
      `mce/${NAME}:29: E7871 is listed twice in list age-pediatric`,
    );
  });

  test('loads the derived v37 table as its own dataset with its FY2020 dates, and rejects a bad row', async () => {
    const rows = [
      DERIVED_HEADER,
      '37\t10\t4\tC\tMaternity_Only\tD\tO0900\tSupervision of preg w history of infertility, unsp trimester',
      '37\t10\t5\tB\tFemale_Only\tP\t0UT90ZZ\tResection of Uterus, Open Approach',
      '37\t10\t19\t_\tNoncovered_LOS_96hr\tP\t5A1955Z\tespiratory Ventilation, greater than 96 consecutive hours',
    ];
    const build = await buildFixture({ 'mce-derived/MCE_Simple_Code_Edits_v37.txt': rows.join('\n') }, [mceLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['mce-v37-derived', 'v37']]);
    const db = build.open();
    expect(
      db.prepare('SELECT list, edit, code_type, sex, derived, valid_from, valid_to FROM mce_code ORDER BY list').all(),
    ).toEqual([
      {
        list: 'age-maternity',
        edit: 'age-conflict',
        code_type: 'D',
        sex: null,
        derived: 1,
        valid_from: '2019-10-01',
        valid_to: '2020-09-30',
      },
      {
        list: 'procedure-inconsistent-with-los',
        edit: 'procedure-inconsistent-with-los',
        code_type: 'P',
        sex: null,
        derived: 1,
        valid_from: '2019-10-01',
        valid_to: '2020-09-30',
      },
      {
        list: 'sex-female-procedures',
        edit: 'sex-conflict',
        code_type: 'P',
        sex: 'F',
        derived: 1,
        valid_from: '2019-10-01',
        valid_to: '2020-09-30',
      },
    ]);
    db.close();
    const bad = [...rows, '37\t10\t4\tC\tMaternity_Only\tX\tO0900\tbad code type'];
    await expect(
      buildFixture({ 'mce-derived/MCE_Simple_Code_Edits_v37.txt': bad.join('\n') }, [mceLoader]),
    ).rejects.toThrow('mce-derived/MCE_Simple_Code_Edits_v37.txt:5: not a derived MCE row');
  });
});
