import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { dotIcd10cm, expandSevenChr, icd10cmTabularLoader } from '../../../src/refdata/loaders/icd10cm-tabular.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';
import { miniTabular } from './icd10cm-tabular.fixture.js';

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
/** 1-based line of the first line containing `needle`. */
const lineOf = (text: string, needle: string): number => text.split('\r\n').findIndex((l) => l.includes(needle)) + 1;

describe('expandSevenChr', () => {
  test('pads the leaf with placeholder X to six characters, then adds each 7th character', () => {
    expect(expandSevenChr('T81.40', ['A', 'D', 'S'])).toEqual(['T8140XA', 'T8140XD', 'T8140XS']);
    expect(expandSevenChr('S72.001', ['A'])).toEqual(['S72001A']);
    expect(expandSevenChr('W21.89', ['A'])).toEqual(['W2189XA']);
    expect(expandSevenChr('T07', ['A'])).toEqual(['T07XXXA']);
    expect(expandSevenChr('e11.37', ['1', '9'])).toEqual(['E1137X1', 'E1137X9']);
  });

  test('refuses a leaf that already has seven characters and a 7th character that is not one letter or digit', () => {
    expect(() => expandSevenChr('S72001A', ['A'])).toThrow(RangeError);
    expect(() => expandSevenChr('S72.001', ['AB'])).toThrow(/one letter or digit/);
  });

  test('dots a code after its third character', () => {
    expect(dotIcd10cm('T8140XA')).toBe('T81.40XA');
    expect(dotIcd10cm('E11')).toBe('E11');
  });
});

describe('icd10cm-tabular loader', () => {
  const fy2023 = miniTabular({ version: 2023 });
  const fy2017 = miniTabular({ version: 2017 });
  const build = (): ReturnType<typeof buildFixture> =>
    buildFixture(
      {
        'icd10cm/icd10cm_tabular_2023.xml.gz': gzipSync(utf8(fy2023)),
        'icd10cm/ICD10CM_FY2017_Full_XML.zip': makeZip({
          'icd10cm_tabular_2017.xml': utf8(fy2017),
          'icd10cm_index_2017.xml':
            '<?xml version="1.0" encoding="utf-8"?>\r\n<ICD10CM.index>\r\n  <version>2017</version>\r\n</ICD10CM.index>\r\n',
          'icd10cm_tabular.xsd': '<?xml version="1.0" encoding="utf-8"?>\r\n<xsd:schema/>\r\n',
        }),
        'icd10cm/icd10cm_tabular_addenda_2024.xml':
          '<?xml version="1.0"?>\r\n<ICD10CM.tabular isAddenda="true">\r\n<version>2024</version>\r\n</ICD10CM.tabular>\r\n',
        'icd10cm/icd10cm_tabular_index_2023.xml':
          '<?xml version="1.0"?>\r\n<ICD10CM.index>\r\n<version>2023</version>\r\n</ICD10CM.index>\r\n',
      },
      [icd10cmTabularLoader],
    );

  test('recognises the tabular by name and root element, only the tabular member of a ZIP, never an addenda file', async () => {
    const { result } = await build();
    expect(result.units.map((u) => [u.dataset, u.release, u.file, u.member])).toEqual([
      ['icd10cm-tabular', 'FY2017', 'icd10cm/ICD10CM_FY2017_Full_XML.zip', 'icd10cm_tabular_2017.xml'],
      ['icd10cm-tabular', 'FY2023', 'icd10cm/icd10cm_tabular_2023.xml.gz', undefined],
    ]);
    expect(result.skipped.map((s) => s.file).sort()).toEqual([
      'icd10cm/icd10cm_tabular_addenda_2024.xml',
      'icd10cm/icd10cm_tabular_index_2023.xml',
    ]);
  });

  test('loads chapters, sections and every diag with its place in the hierarchy', async () => {
    const db = (await build()).open();
    const fy23 = (db.prepare("SELECT id FROM source WHERE release = 'FY2023'").get() as { id: number }).id;
    expect(
      db
        .prepare(
          'SELECT chapter, description, first_code, last_code FROM tabular_chapter WHERE source_id = ? ORDER BY ord',
        )
        .all(fy23),
    ).toEqual([
      {
        chapter: '1',
        description: 'Certain infectious and parasitic diseases (A00-B99)',
        first_code: 'A00',
        last_code: 'B99',
      },
      {
        chapter: '4',
        description: 'Endocrine, nutritional and metabolic diseases (E00-E89)',
        first_code: 'E00',
        last_code: 'E89',
      },
      {
        chapter: '19',
        description: 'Injury, poisoning and certain other consequences of external causes (S00-T88)',
        first_code: 'S00',
        last_code: 'T88',
      },
    ]);
    expect(
      db
        .prepare(
          'SELECT section, chapter, description, first_code, last_code FROM tabular_section WHERE source_id = ? ORDER BY ord',
        )
        .all(fy23),
    ).toEqual([
      {
        section: 'A00-A09',
        chapter: '1',
        description: 'Intestinal infectious diseases (A00-A09)',
        first_code: 'A00',
        last_code: 'A09',
      },
      {
        section: 'E08-E13',
        chapter: '4',
        description: 'Diabetes mellitus (E08-E13)',
        first_code: 'E08',
        last_code: 'E13',
      },
      {
        section: 'S70-S79',
        chapter: '19',
        description: 'Injuries to the hip and thigh (S70-S79)',
        first_code: 'S70',
        last_code: 'S79',
      },
      {
        section: 'T80-T88',
        chapter: '19',
        description: 'Complications of surgical and medical care, not elsewhere classified (T80-T88)',
        first_code: 'T80',
        last_code: 'T88',
      },
    ]);
    const diag = db.prepare(
      'SELECT code, dotted, description, parent, depth, chapter, section, leaf, placeholder FROM tabular_diag WHERE source_id = ? AND code = ?',
    );
    expect(diag.get(fy23, 'A00')).toEqual({
      code: 'A00',
      dotted: 'A00',
      description: 'Cholera',
      parent: null,
      depth: 1,
      chapter: '1',
      section: 'A00-A09',
      leaf: 0,
      placeholder: 0,
    });
    expect(diag.get(fy23, 'T8140')).toEqual({
      code: 'T8140',
      dotted: 'T81.40',
      description: 'Infection following a procedure, unspecified',
      parent: 'T814',
      depth: 3,
      chapter: '19',
      section: 'T80-T88',
      leaf: 1,
      placeholder: 1,
    });
    expect(db.prepare('SELECT count(*) AS n FROM tabular_diag WHERE source_id = ?').get(fy23)).toEqual({ n: 16 });
    db.close();
  });

  test('keeps every note at the level where it stands, in order, empty notes included, with the code ranges it names', async () => {
    const db = (await build()).open();
    const fy23 = (db.prepare("SELECT id FROM source WHERE release = 'FY2023'").get() as { id: number }).id;
    const notes = db.prepare(
      'SELECT level, owner, type, block, seq, text FROM tabular_note WHERE source_id = ? AND owner IN (?, ?, ?, ?) ORDER BY id',
    );
    expect(notes.all(fy23, '1', 'A00-A09', 'A000', 'T887')).toEqual([
      {
        level: 'chapter',
        owner: '1',
        type: 'includes',
        block: 0,
        seq: 0,
        text: 'diseases generally recognized as communicable or transmissible',
      },
      {
        level: 'chapter',
        owner: '1',
        type: 'excludes2',
        block: 1,
        seq: 0,
        text: 'carrier or suspected carrier of infectious disease (Z22.-)',
      },
      {
        level: 'chapter',
        owner: '1',
        type: 'excludes2',
        block: 1,
        seq: 1,
        text: 'influenza and other acute respiratory infections (J00-J22)',
      },
      { level: 'section', owner: 'A00-A09', type: 'excludes1', block: 0, seq: 0, text: 'helminthiases (B65-B83)' },
      { level: 'diag', owner: 'A000', type: 'inclusionTerm', block: 0, seq: 0, text: 'Classical cholera' },
      { level: 'diag', owner: 'A000', type: 'inclusionTerm', block: 0, seq: 1, text: '' },
      { level: 'diag', owner: 'T887', type: 'excludes1', block: 0, seq: 0, text: '' },
      {
        level: 'diag',
        owner: 'T887',
        type: 'excludes1',
        block: 0,
        seq: 1,
        text: 'specified adverse effects of drugs and medicaments (A00-R94 and T80-T88.6, T88.8)',
      },
    ]);
    // The introduction's instructions are not notes of any chapter, section or diag.
    expect(db.prepare("SELECT count(*) AS n FROM tabular_note WHERE text LIKE 'The word%'").get()).toEqual({ n: 0 });
    const ranges = db.prepare(
      `SELECT r.first_code, r.last_code, r.text, r.incomplete, r.qualifier FROM tabular_note_range r JOIN tabular_note n ON n.id = r.note_id
       WHERE n.source_id = ? AND n.text = ? ORDER BY r.seq`,
    );
    expect(
      ranges.all(fy23, 'specified adverse effects of drugs and medicaments (A00-R94 and T80-T88.6, T88.8)'),
    ).toEqual([
      { first_code: 'A00', last_code: 'R94', text: 'A00-R94', incomplete: 0, qualifier: null },
      { first_code: 'T80', last_code: 'T886', text: 'T80-T88.6', incomplete: 0, qualifier: null },
      { first_code: 'T888', last_code: 'T888', text: 'T88.8', incomplete: 0, qualifier: null },
    ]);
    expect(
      ranges.all(
        fy23,
        'code for adverse effect, if applicable, to identify drug (T36-T50 with fifth or sixth character 5)',
      ),
    ).toEqual([
      {
        first_code: 'T36',
        last_code: 'T50',
        text: 'T36-T50',
        incomplete: 0,
        qualifier: 'with fifth or sixth character 5',
      },
    ]);
    expect(ranges.all(fy23, 'carrier or suspected carrier of infectious disease (Z22.-)')).toEqual([
      { first_code: 'Z22', last_code: 'Z22', text: 'Z22.-', incomplete: 1, qualifier: null },
    ]);
    db.close();
  });

  test('stores sevenChrDef values where they stand and expands every leaf under one with placeholder X', async () => {
    const db = (await build()).open();
    const fy23 = (db.prepare("SELECT id FROM source WHERE release = 'FY2023'").get() as { id: number }).id;
    expect(
      db
        .prepare(
          "SELECT level, owner, char, description, ord FROM tabular_seven_chr WHERE source_id = ? AND owner = 'S72' ORDER BY ord",
        )
        .all(fy23),
    ).toEqual([
      { level: 'diag', owner: 'S72', char: 'A', description: 'initial encounter for closed fracture', ord: 0 },
      {
        level: 'diag',
        owner: 'S72',
        char: 'B',
        description: 'initial encounter for open fracture type I or II',
        ord: 1,
      },
      {
        level: 'diag',
        owner: 'S72',
        char: 'D',
        description: 'subsequent encounter for closed fracture with routine healing',
        ord: 3,
      },
      { level: 'diag', owner: 'S72', char: 'S', description: 'sequela', ord: 4 },
    ]);
    expect(
      db.prepare("SELECT type, seq, text FROM tabular_note WHERE source_id = ? AND type = 'sevenChrDef'").all(fy23),
    ).toEqual([{ type: 'sevenChrDef', seq: 2, text: 'initial encounter for open fracture NOS' }]);
    expect(
      db
        .prepare(
          'SELECT code, dotted, base_code, seven_chr, def_level, def_owner FROM tabular_extended_code WHERE source_id = ? ORDER BY code',
        )
        .all(fy23),
    ).toEqual([
      {
        code: 'E1137X1',
        dotted: 'E11.37X1',
        base_code: 'E1137',
        seven_chr: '1',
        def_level: 'diag',
        def_owner: 'E1137',
      },
      {
        code: 'E1137X2',
        dotted: 'E11.37X2',
        base_code: 'E1137',
        seven_chr: '2',
        def_level: 'diag',
        def_owner: 'E1137',
      },
      {
        code: 'E1137X3',
        dotted: 'E11.37X3',
        base_code: 'E1137',
        seven_chr: '3',
        def_level: 'diag',
        def_owner: 'E1137',
      },
      {
        code: 'E1137X9',
        dotted: 'E11.37X9',
        base_code: 'E1137',
        seven_chr: '9',
        def_level: 'diag',
        def_owner: 'E1137',
      },
      { code: 'S72001A', dotted: 'S72.001A', base_code: 'S72001', seven_chr: 'A', def_level: 'diag', def_owner: 'S72' },
      { code: 'S72001B', dotted: 'S72.001B', base_code: 'S72001', seven_chr: 'B', def_level: 'diag', def_owner: 'S72' },
      { code: 'S72001D', dotted: 'S72.001D', base_code: 'S72001', seven_chr: 'D', def_level: 'diag', def_owner: 'S72' },
      { code: 'S72001S', dotted: 'S72.001S', base_code: 'S72001', seven_chr: 'S', def_level: 'diag', def_owner: 'S72' },
      { code: 'T8140XA', dotted: 'T81.40XA', base_code: 'T8140', seven_chr: 'A', def_level: 'diag', def_owner: 'T81' },
      { code: 'T8140XD', dotted: 'T81.40XD', base_code: 'T8140', seven_chr: 'D', def_level: 'diag', def_owner: 'T81' },
      { code: 'T8140XS', dotted: 'T81.40XS', base_code: 'T8140', seven_chr: 'S', def_level: 'diag', def_owner: 'T81' },
    ]);
    expect(
      db.prepare("SELECT description FROM tabular_extended_code WHERE source_id = ? AND code = 'T8140XA'").get(fy23),
    ).toEqual({
      description: 'Infection following a procedure, unspecified, initial encounter',
    });
    db.close();
  });

  test('dates every row by its release and carries its source on every row', async () => {
    const db = (await build()).open();
    for (const table of [
      'tabular_chapter',
      'tabular_section',
      'tabular_diag',
      'tabular_note',
      'tabular_note_range',
      'tabular_seven_chr',
      'tabular_extended_code',
    ]) {
      expect(
        db
          .prepare(
            `SELECT s.release, t.valid_from, t.valid_to, count(*) > 0 AS any FROM ${table} t JOIN source s ON s.id = t.source_id GROUP BY 1, 2, 3 ORDER BY 1`,
          )
          .all(),
      ).toEqual([
        { release: 'FY2017', valid_from: '2016-10-01', valid_to: '2022-09-30', any: 1 },
        { release: 'FY2023', valid_from: '2022-10-01', valid_to: null, any: 1 },
      ]);
    }
    db.close();
  });

  test('fails the build with file and line on malformed XML', async () => {
    const bad = fy2023.replace('<desc>Cholera, unspecified</desc>', '<desc>Cholera, unspecified</dsc>');
    const line = lineOf(bad, '</dsc>');
    await expect(
      buildFixture({ 'icd10cm/icd10cm_tabular_2023.xml': utf8(bad) }, [icd10cmTabularLoader]),
    ).rejects.toThrow(new RegExp(`icd10cm/icd10cm_tabular_2023\\.xml:${line}: malformed XML`));
  });

  test('fails the build with file, member and line on a diag name that is not a code, and on a duplicate diag', async () => {
    const badName = fy2017.replace('<name>E11.9</name>', '<name>E11.9 or so</name>');
    await expect(
      buildFixture({ 'tab.zip': makeZip({ 'icd10cm_tabular_2017.xml': utf8(badName) }) }, [icd10cmTabularLoader]),
    ).rejects.toThrow(
      new RegExp(
        `tab\\.zip\\[icd10cm_tabular_2017\\.xml\\]:${lineOf(badName, 'E11.9 or so')}: diag name "E11.9 or so" is not an ICD-10-CM code`,
      ),
    );
    const twice = fy2017.replace('<name>A00.9</name>', '<name>A00.0</name>');
    const diagLine = lineOf(twice, '<desc>Cholera, unspecified</desc>') - 2;
    await expect(buildFixture({ 'icd10cm_tabular_2017.xml': utf8(twice) }, [icd10cmTabularLoader])).rejects.toThrow(
      new RegExp(`icd10cm_tabular_2017\\.xml:${diagLine}: diag A00\\.0: UNIQUE constraint failed`),
    );
  });
});
