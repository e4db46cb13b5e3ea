import { describe, expect, test } from 'vitest';
import { correctionKind, hcpcsLoader, parseHcpcsRecord } from '../../../src/refdata/loaders/hcpcs.js';
import { buildFixture } from '../../helpers/build.js';
import { hcpcsFile, hcpcsRecord } from '../../helpers/hcpcs-record.js';
import { makeXlsx, makeZip } from '../../helpers/zip.js';

const rec = hcpcsRecord;

/** A modifier with a continuation line, then procedure codes (one terminated, one with a 3-line description). */
const RECORDS = [
  rec({
    4: 'CP',
    6: '00100',
    11: '7',
    12: 'Adjunctive service related to a procedure assigned to a comprehensive',
    92: 'C-apc adjunctive service',
    230: 'C',
    269: '20160101',
    277: '20180101',
    285: '20171231',
    293: 'N',
  }),
  rec({ 4: 'CP', 6: '00200', 11: '8', 12: 'ambulatory payment classification (c-apc) procedure' }),
  rec({
    4: 'GA',
    6: '00100',
    11: '7',
    12: 'Waiver of liability statement issued as required by payer policy',
    92: 'Waiver of liability stmt',
    147: '2130 A',
    230: 'C',
    253: '0088',
    269: '19950101',
    277: '20110101',
    293: 'N',
  }),
  rec({
    1: 'E0210',
    6: '00100',
    11: '3',
    12: 'Electric heat pad, standard',
    92: 'Electric heat pad standard',
    120: '32',
    122: '46',
    128: 'A',
    129: '60-9',
    147: '2130 A',
    155: '2049',
    171: '1862A7',
    181: '140',
    184: '220',
    205: 'E0215',
    210: 'E0217',
    230: 'D',
    231: 'YY',
    233: '20080101',
    253: '0088',
    257: 'D1E',
    261: 'ALP',
    266: '  0',
    269: '19860101',
    277: '20030101',
    293: 'N',
  }),
  rec({
    1: 'G8891',
    6: '00100',
    11: '3',
    12: 'Documentation of medical reason(s) for most recent ldl-c not under control',
    92: 'Doc med reas no ldl-c contrl',
    120: '00',
    128: '9',
    230: 'C',
    257: 'M5B',
    261: '1',
    266: '  0',
    269: '20120101',
    277: '20150101',
    285: '20141231',
    293: 'N',
  }),
  rec({
    1: 'G8891',
    6: '00200',
    11: '4',
    12: '(e.g., patients with palliative goals for whom treatment of hypertension',
  }),
  rec({ 1: 'G8891', 6: '00300', 11: '4', 12: 'with standard treatment goals is not clinically appropriate)' }),
  rec({
    1: 'C9034',
    6: '00100',
    11: '3',
    12: 'Injection, dexamethasone 9%, intraocular, 1 mcg',
    92: 'Injection, dexamethasone 9%',
    120: '53',
    128: 'A',
    230: 'D',
    231: 'YY',
    233: '20181001',
    257: 'O1E',
    261: '9F',
    266: '  0',
    269: '20181001',
    277: '20181001',
    293: 'A',
  }),
];

const anweb = hcpcsFile;

const PROC_NOTES = [
  '                                        PROCESSING NOTES',
  ' ______________________________________________________________________',
  '',
  '          0088--"S" CODES ARE UNIQUE TEMPORARY CODES ESTABLISHED BY BCBSA AND HIAA FOR     *',
  '                PRIVATE PAYOR USE. THEY ARE NOT VALID NOR PAYABLE BY MEDICARE.             *',
  '                                                                                           *',
  '\t  0133--SEE ONLINE MANUAL 100-02.9.\t\t\t\t\t\t   *',
  '\t\t\t\t\t\t\t\t\t\t\t   *\t',
].join('\r\n');

const release2019 = (records: string[] = RECORDS): Buffer =>
  makeZip({
    'HCPC2019_CONTR_ANWEB.txt': anweb(records),
    'proc_notes_2019.txt': PROC_NOTES,
    'HCPC2019_README.txt': 'CENTERS FOR MEDICARE & MEDICAID SERVICES (CMS)',
  });

const NOC_SHEET = {
  NOC_Codes_2019: [
    [null, 'NOC CODES - HCPCS 2019'],
    [],
    [],
    ['HCPCS', 'LONG DESCRIPTION', 'ADD DATE', 'TERM DATE'],
    [],
    ['A0999', 'Unlisted ambulance service', '19870101'],
    ['L8608', 'Miscellaneous external component, supply or accessory for use with the argus ii', '20190101'],
    ['L8608', 'retinal prosthesis system'],
    ['J0833', 'Injection, cosyntropin, not otherwise specified, 0.25 mg', '20100101', '20181231'],
    ['_x001A_'],
  ],
};

const CORRECTION_HEADER = [
  'CODE',
  'ACTION',
  'EFF DATE',
  'SHORT DESC',
  'LONG DESC',
  'TOS ',
  'BETOS',
  'COV',
  'PRICE',
  'XREF CODE',
  'ASC IND',
  'ASC DATE',
  'COMMENTS',
];
const corrections = (rows: (string | number | null)[][]): Buffer =>
  makeXlsx({
    '2019 HCPS Corrections': [
      [null, null, null, '2019 ALPHA-NUMERIC HCPCS CORRECTIONS'],
      [],
      [],
      CORRECTION_HEADER,
      ...rows,
    ],
  });

describe('hcpcs loader', () => {
  test('reads every field of a procedure record at the positions of the 2019 record layout', () => {
    expect(parseHcpcsRecord(RECORDS[3]!)).toEqual({
      recordId: '3',
      code: 'E0210',
      sequence: 100,
      longDescription: 'Electric heat pad, standard',
      shortDescription: 'Electric heat pad standard',
      pricingIndicators: ['32', '46'],
      multiplePricingIndicator: 'A',
      cimReferences: ['60-9'],
      mcmReferences: ['2130 A', '2049'],
      statute: '1862A7',
      labCertifications: ['140', '220'],
      crossReferences: ['E0215', 'E0217'],
      coverage: 'D',
      ascGroup: 'YY',
      ascEffectiveDate: '2008-01-01',
      mogGroup: null,
      mogPolicyIndicator: null,
      mogEffectiveDate: null,
      processingNote: '0088',
      betos: 'D1E',
      typesOfService: ['A', 'L', 'P'],
      anesthesiaBaseUnits: 0,
      addedDate: '1986-01-01',
      actionEffectiveDate: '2003-01-01',
      terminationDate: null,
      actionCode: 'N',
    });
    expect(parseHcpcsRecord(RECORDS[0]!)).toMatchObject({ recordId: '7', code: 'CP', terminationDate: '2017-12-31' });
    expect(() => parseHcpcsRecord(rec({ 1: 'E0210', 6: '00100', 11: '3', 269: '19861301' }))).toThrow(
      /code added date .* "19861301" is not a date/,
    );
    expect(() => parseHcpcsRecord(rec({ 1: 'E021', 6: '00100', 11: '3' }))).toThrow(/not a HCPCS Level II code/);
    expect(() => parseHcpcsRecord(`${RECORDS[3]!.padEnd(320)}X`)).toThrow(/321 characters/);
  });

  test('classifies the free-text ACTION of a correction', () => {
    expect(correctionKind('ADD CODE')).toBe('add');
    expect(correctionKind('Discontinue ')).toBe('discontinue');
    expect(correctionKind('Removed in error - add back to file')).toBe('restore');
    expect(correctionKind('Change Cov to C and Price to 39')).toBe('change');
  });

  test('loads codes and modifiers with their joined long descriptions and dates them by added and termination date', async () => {
    const build = await buildFixture({ 'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip': release2019() }, [hcpcsLoader]);
    const db = build.open();
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([
      ['hcpcs', '2019Q1', 5],
      ['hcpcs-proc-notes', '2019Q1', 2],
    ]);
    expect(db.prepare("SELECT code, long_desc, desc_lines, line FROM hcpcs_code WHERE code = 'G8891'").get()).toEqual({
      code: 'G8891',
      long_desc:
        'Documentation of medical reason(s) for most recent ldl-c not under control (e.g., patients with palliative goals for whom treatment of hypertension with standard treatment goals is not clinically appropriate)',
      desc_lines: 3,
      line: 11,
    });
    expect(
      db.prepare("SELECT pricing_indicators, mcm_refs, type_of_service FROM hcpcs_code WHERE code = 'E0210'").get(),
    ).toEqual({
      pricing_indicators: '["32","46"]',
      mcm_refs: '["2130 A","2049"]',
      type_of_service: '["A","L","P"]',
    });
    expect(
      db.prepare('SELECT modifier, long_desc, valid_from, valid_to FROM hcpcs_modifier ORDER BY modifier').all(),
    ).toEqual([
      {
        modifier: 'CP',
        long_desc:
          'Adjunctive service related to a procedure assigned to a comprehensive ambulatory payment classification (c-apc) procedure',
        valid_from: '2016-01-01',
        valid_to: '2017-12-31',
      },
      {
        modifier: 'GA',
        long_desc: 'Waiver of liability statement issued as required by payer policy',
        valid_from: '1995-01-01',
        valid_to: null,
      },
    ]);
    expect(
      db
        .prepare(
          "SELECT code, valid_from, valid_to, billable, short_title, first_source_id = last_source_id AS same FROM code WHERE system = 'HCPCS' ORDER BY code",
        )
        .all(),
    ).toEqual([
      {
        code: 'C9034',
        valid_from: '2018-10-01',
        valid_to: null,
        billable: 1,
        short_title: 'Injection, dexamethasone 9%',
        same: 1,
      },
      {
        code: 'E0210',
        valid_from: '1986-01-01',
        valid_to: null,
        billable: 1,
        short_title: 'Electric heat pad standard',
        same: 1,
      },
      {
        code: 'G8891',
        valid_from: '2012-01-01',
        valid_to: '2014-12-31',
        billable: 1,
        short_title: 'Doc med reas no ldl-c contrl',
        same: 1,
      },
    ]);
    expect(db.prepare('SELECT note, text FROM hcpcs_processing_note ORDER BY note').all()).toEqual([
      {
        note: '0088',
        text: '"S" CODES ARE UNIQUE TEMPORARY CODES ESTABLISHED BY BCBSA AND HIAA FOR PRIVATE PAYOR USE. THEY ARE NOT VALID NOR PAYABLE BY MEDICARE.',
      },
      { note: '0133', text: 'SEE ONLINE MANUAL 100-02.9.' },
    ]);
    db.close();
  });

  test('loads the NOC list, joining wrapped description rows, and leaves the record-layout ZIP to the skipped list', async () => {
    const build = await buildFixture(
      {
        'hcpcs/2019-HCPCS-NOC-Codes.zip': makeZip({
          'NOC_Codes_2019.prn': '  HCPCS  LONG DESCRIPTION',
          'NOC_Codes_2019.xlsx': makeXlsx(NOC_SHEET),
        }),
        'hcpcs/2019-HCPCS-Record-Layout.zip': makeZip({ 'HCPCS2019_recordlayout.txt': '  CMS RIF REPORT\r\n' }),
      },
      [hcpcsLoader],
    );
    const db = build.open();
    expect(db.prepare('SELECT code, long_desc, valid_from, valid_to, line FROM hcpcs_noc ORDER BY code').all()).toEqual(
      [
        { code: 'A0999', long_desc: 'Unlisted ambulance service', valid_from: '1987-01-01', valid_to: null, line: 6 },
        {
          code: 'J0833',
          long_desc: 'Injection, cosyntropin, not otherwise specified, 0.25 mg',
          valid_from: '2010-01-01',
          valid_to: '2018-12-31',
          line: 9,
        },
        {
          code: 'L8608',
          long_desc:
            'Miscellaneous external component, supply or accessory for use with the argus ii retinal prosthesis system',
          valid_from: '2019-01-01',
          valid_to: null,
          line: 7,
        },
      ],
    );
    expect(build.result.skipped).toEqual([
      { file: 'hcpcs/2019-HCPCS-Record-Layout.zip', reason: 'not recognised by any loader' },
    ]);
    db.close();
  });

  test('applies published corrections: an added code, a discontinued code and a restored modifier', async () => {
    const build = await buildFixture(
      {
        'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip': release2019(),
        'hcpcs/2019-HCPCS-Alpha-Numeric-Corrections.zip': makeZip({
          'HCPC2019_Corrections_ALPHA.prn': 'truncated print of the sheet',
          'HCPC2019_Corrections_ALPHA.xlsx': corrections([
            ['C9034', 'Discontinue ', 43466, null, null, null, null, null, null, 'J1095'],
            [
              'J1095',
              'ADD CODE',
              43466,
              'Injection, dexamethasone 9%',
              'Injection, dexamethasone 9 percent, intraocular, 1 microgram',
              '9,F',
              'O1E',
              'D',
              '53',
              null,
              'YY',
              43466,
            ],
            [
              'Q5111',
              'ADD CODE',
              '01/0/12019',
              'Injection, udenyca 0.5 mg',
              'Injection, pegfilgrastim-cbqv, biosimilar, (udenyca), 0.5 mg',
              '1,P',
              'O1E',
              'C',
              '53',
            ],
            ['E0210', 'Change Cov to C and Price to 39', 43466, null, null, null, null, 'C', '39'],
          ]),
          'HCPC2019_Corrections_ALPHA_v2.xlsx': corrections([['DA', 'Removed in error - add back to file', 40544]]),
        }),
      },
      [hcpcsLoader],
    );
    const db = build.open();
    const codes = db
      .prepare(
        "SELECT code, valid_from, valid_to, long_title FROM code WHERE system = 'HCPCS' AND code IN ('C9034', 'J1095', 'Q5111') ORDER BY code",
      )
      .all();
    expect(codes).toEqual([
      {
        code: 'C9034',
        valid_from: '2018-10-01',
        valid_to: '2018-12-31',
        long_title: 'Injection, dexamethasone 9%, intraocular, 1 mcg',
      },
      {
        code: 'J1095',
        valid_from: '2019-01-01',
        valid_to: null,
        long_title: 'Injection, dexamethasone 9 percent, intraocular, 1 microgram',
      },
      {
        code: 'Q5111',
        valid_from: '2019-01-01',
        valid_to: null,
        long_title: 'Injection, pegfilgrastim-cbqv, biosimilar, (udenyca), 0.5 mg',
      },
    ]);
    expect(
      db
        .prepare("SELECT type_of_service, pricing_indicators, asc_effective_date FROM hcpcs_code WHERE code = 'J1095'")
        .get(),
    ).toEqual({
      type_of_service: '["9","F"]',
      pricing_indicators: '["53"]',
      asc_effective_date: '2019-01-01',
    });
    expect(
      db
        .prepare(
          "SELECT kind, effective_date, effective_date_text, valid_from FROM hcpcs_correction WHERE code = 'Q5111'",
        )
        .get(),
    ).toEqual({
      kind: 'add',
      effective_date: null,
      effective_date_text: '01/0/12019',
      valid_from: '2019-01-01',
    });
    // A change correction is kept beside the record, which stays as the file has it.
    expect(db.prepare("SELECT coverage_code FROM hcpcs_code WHERE code = 'E0210'").get()).toEqual({
      coverage_code: 'D',
    });
    expect(
      db.prepare("SELECT modifier, valid_from, long_desc FROM hcpcs_modifier WHERE modifier = 'DA'").get(),
    ).toEqual({ modifier: 'DA', valid_from: '2011-01-01', long_desc: null });
    expect(build.result.units.map((u) => `${u.dataset} ${u.release} ${u.member ?? ''}`)).toContain(
      'hcpcs-corrections 2019Q1-v2 HCPC2019_Corrections_ALPHA_v2.xlsx',
    );
    db.close();
  });

  test('with two releases, keeps both titles by date and ends a code the next release drops', async () => {
    const e0210 = RECORDS[3]!.replace('Electric heat pad standard ', 'Electric heat pad, std     ');
    const added = rec({
      1: 'E0215',
      6: '00100',
      11: '3',
      12: 'Electric heat pad, moist',
      92: 'Electric heat pad, moist',
      120: '32',
      230: 'D',
      269: '20200101',
      277: '20200101',
      293: 'A',
    });
    const build = await buildFixture(
      {
        'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip': release2019(),
        'hcpcs/january-2020-alpha-numeric-hcpcs-file.zip': makeZip({
          'HCPC2020_JAN_ANWEB.txt': anweb([RECORDS[2]!, e0210, added, RECORDS[4]!]),
        }),
      },
      [hcpcsLoader],
    );
    const db = build.open();
    expect(
      db
        .prepare(
          `SELECT c.code, c.valid_from, c.valid_to, c.short_title, f.release AS first, l.release AS last FROM code c
           JOIN source f ON f.id = c.first_source_id JOIN source l ON l.id = c.last_source_id WHERE c.system = 'HCPCS' ORDER BY c.code, c.valid_from`,
        )
        .all(),
    ).toEqual([
      {
        code: 'C9034',
        valid_from: '2018-10-01',
        valid_to: '2019-12-31',
        short_title: 'Injection, dexamethasone 9%',
        first: '2019Q1',
        last: '2019Q1',
      },
      {
        code: 'E0210',
        valid_from: '1986-01-01',
        valid_to: '2019-12-31',
        short_title: 'Electric heat pad standard',
        first: '2019Q1',
        last: '2019Q1',
      },
      {
        code: 'E0210',
        valid_from: '2020-01-01',
        valid_to: null,
        short_title: 'Electric heat pad, std',
        first: '2020Q1',
        last: '2020Q1',
      },
      {
        code: 'E0215',
        valid_from: '2020-01-01',
        valid_to: null,
        short_title: 'Electric heat pad, moist',
        first: '2020Q1',
        last: '2020Q1',
      },
      // Terminated in 2014: the 2020 file's shorter description does not start an interval after its end.
      {
        code: 'G8891',
        valid_from: '2012-01-01',
        valid_to: '2014-12-31',
        short_title: 'Doc med reas no ldl-c contrl',
        first: '2019Q1',
        last: '2020Q1',
      },
    ]);
    db.close();
  });

  test('fails the build with file, member and line number on a malformed record', async () => {
    const bad = release2019([
      RECORDS[2]!,
      RECORDS[3]!,
      rec({ 1: 'E0215', 6: '00100', 11: '5', 12: 'Electric heat pad, moist' }),
    ]);
    await expect(buildFixture({ 'hcpcs/bad.zip': bad }, [hcpcsLoader])).rejects.toThrow(
      /hcpcs\/bad\.zip\[HCPC2019_CONTR_ANWEB\.txt\]:9: not a HCPCS record: record identification code "5"/,
    );
  });

  test('fails the build on a continuation line that does not follow its code', async () => {
    const bad = release2019([
      RECORDS[3]!,
      rec({ 1: 'G8891', 6: '00200', 11: '4', 12: '(e.g., patients with palliative goals' }),
    ]);
    await expect(buildFixture({ 'hcpcs/bad.zip': bad }, [hcpcsLoader])).rejects.toThrow(
      /:8: continuation record \(RIC 4\) for G8891 does not follow/,
    );
  });

  test('fails the build on a NOC row without an added date, naming the sheet row', async () => {
    const sheet = {
      NOC_Codes_2019: [...NOC_SHEET.NOC_Codes_2019.slice(0, 6), ['A4335', 'Incontinence supply; miscellaneous']],
    };
    await expect(
      buildFixture({ 'noc.zip': makeZip({ 'NOC_Codes_2019.xlsx': makeXlsx(sheet) }) }, [hcpcsLoader]),
    ).rejects.toThrow(/noc\.zip\[NOC_Codes_2019\.xlsx\]:7: NOC code A4335 has no ADD DATE/);
  });
});
