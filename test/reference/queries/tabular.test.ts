import type Database from 'better-sqlite3';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { icd10cmTabularLoader } from '../../../src/refdata/loaders/icd10cm-tabular.js';
import { createTabularQueries, type TabularQueries } from '../../../src/reference/queries/tabular.js';
import { buildFixture } from '../../helpers/build.js';
import { miniTabular } from '../../refdata/loaders/icd10cm-tabular.fixture.js';

// Two releases: FY2022 and FY2023; only FY2023 has E11.8.
const e118 = `
        <diag>
          <name>E11.8</name>
          <desc>Type 2 diabetes mellitus with unspecified complications</desc>
        </diag>`;

describe('tabular queries', () => {
  let db: Database.Database;
  let q: TabularQueries;

  beforeAll(async () => {
    const build = await buildFixture(
      {
        'icd10cm/icd10cm_tabular_2022.xml': Buffer.from(miniTabular({ version: 2022 }), 'utf8'),
        'icd10cm/icd10cm_tabular_2023.xml.gz': gzipSync(
          Buffer.from(miniTabular({ version: 2023, extraE11: e118 }), 'utf8'),
        ),
      },
      [icd10cmTabularLoader],
    );
    db = build.open();
    q = createTabularQueries(db);
  });

  afterAll(() => db.close());

  test('lists the loaded releases, newest first, and answers from the newest by default', () => {
    expect(q.releases().map((r) => [r.release, r.validFrom, r.validTo])).toEqual([
      ['FY2023', '2022-10-01', null],
      ['FY2022', '2021-10-01', '2022-09-30'],
    ]);
    expect(q.diag('E11.8')).toMatchObject({
      code: 'E118',
      dotted: 'E11.8',
      parent: 'E11',
      depth: 2,
      leaf: true,
      release: 'FY2023',
    });
    expect(q.diag('E11.8', { release: 'FY2022' })).toBeUndefined();
    expect(() => q.diag('E11.8', { release: 'FY2099' })).toThrow(RangeError);
  });

  test('gives the notes of a code with the inherited ones, chapter first, each labelled with level, type, place and release', () => {
    const result = q.notes('e119');
    expect(result).toMatchObject({ release: 'FY2023', requested: 'E119', matched: 'E119', exact: true });
    expect(result?.notes.map((n) => [n.level, n.at, n.code, n.type, n.text, n.release])).toEqual([
      [
        'chapter',
        '4',
        null,
        'excludes1',
        'transitory endocrine and metabolic disorders specific to newborn (P70-P74)',
        'FY2023',
      ],
      ['diag', 'E11', 'E11', 'useAdditionalCode', 'code to identify control using:', 'FY2023'],
      ['diag', 'E11', 'E11', 'useAdditionalCode', 'insulin (Z79.4)', 'FY2023'],
      ['diag', 'E11', 'E11', 'excludes1', 'diabetes mellitus due to underlying condition (E08.-)', 'FY2023'],
      ['diag', 'E11', 'E11', 'excludes1', 'type 1 diabetes mellitus (E10.-)', 'FY2023'],
    ]);
    const section = q.notes('A00.0', { types: ['excludes1', 'inclusionTerm'] });
    expect(section?.notes.map((n) => [n.level, n.at, n.type, n.text])).toEqual([
      ['section', 'A00-A09', 'excludes1', 'helminthiases (B65-B83)'],
      ['diag', 'A00.0', 'inclusionTerm', 'Classical cholera'],
      ['diag', 'A00.0', 'inclusionTerm', ''],
    ]);
  });

  test('serves a 7th-character code from its leaf, and a code the release lacks from its nearest ancestor, saying so', () => {
    const extended = q.notes('S72.001A');
    expect(extended).toMatchObject({ matched: 'S72001', exact: true });
    expect(extended?.notes.filter((n) => n.level === 'diag').map((n) => [n.at, n.type])).toEqual([
      ['S72', 'sevenChrNote'],
      ['S72', 'sevenChrDef'],
    ]);
    // E11.8 is not in the FY2022 tabular: E11's notes answer, flagged as inexact.
    const older = q.notes('E11.8', { release: 'FY2022' });
    expect(older).toMatchObject({ release: 'FY2022', requested: 'E118', matched: 'E11', exact: false });
    expect(older?.notes.every((n) => n.release === 'FY2022')).toBe(true);
    expect(q.notes('ZZZ')).toBeUndefined();
  });

  test('places a code in its chapter, section and diag chain', () => {
    const place = q.placement('T81.40XA');
    expect(place).toMatchObject({
      matched: 'T8140',
      exact: true,
      chapter: {
        chapter: '19',
        description: 'Injury, poisoning and certain other consequences of external causes (S00-T88)',
        firstCode: 'S00',
        lastCode: 'T88',
      },
      section: { section: 'T80-T88', chapter: '19', firstCode: 'T80', lastCode: 'T88' },
    });
    expect(place?.diags.map((d) => [d.dotted, d.depth, d.leaf, d.placeholder])).toEqual([
      ['T81', 1, false, false],
      ['T81.4', 2, false, false],
      ['T81.40', 3, true, true],
    ]);
  });

  test('finds the sevenChrDef in force, own or inherited, with the notes listed under a value', () => {
    const inherited = q.sevenChrDef('S72.001');
    expect(inherited).toMatchObject({ level: 'diag', at: 'S72', inherited: true, release: 'FY2023' });
    expect(inherited?.values).toEqual([
      { char: 'A', description: 'initial encounter for closed fracture', notes: [] },
      {
        char: 'B',
        description: 'initial encounter for open fracture type I or II',
        notes: ['initial encounter for open fracture NOS'],
      },
      { char: 'D', description: 'subsequent encounter for closed fracture with routine healing', notes: [] },
      { char: 'S', description: 'sequela', notes: [] },
    ]);
    const own = q.sevenChrDef('E11.37X1');
    expect(own).toMatchObject({ matched: 'E1137', at: 'E11.37', inherited: false });
    expect(own?.values.map((v) => v.char)).toEqual(['1', '2', '3', '9']);
    expect(q.sevenChrDef('E11.9')).toBeUndefined();
  });

  test('returns the code ranges a note names, and the notes whose ranges cover a code', () => {
    const note = q.notes('T88.7', { types: ['excludes1'] })?.notes.find((n) => n.text.startsWith('specified adverse'));
    expect(note).toBeDefined();
    expect(q.noteRanges(note?.id ?? 0)).toEqual([
      { noteId: note?.id, seq: 0, first: 'A00', last: 'R94', text: 'A00-R94', incomplete: false, qualifier: null },
      { noteId: note?.id, seq: 1, first: 'T80', last: 'T886', text: 'T80-T88.6', incomplete: false, qualifier: null },
      { noteId: note?.id, seq: 2, first: 'T888', last: 'T888', text: 'T88.8', incomplete: false, qualifier: null },
    ]);
    expect(
      q.notesNaming('E10.9', { types: ['excludes1'] }).map(({ note: n, range }) => [n.at, n.type, n.text, range.text]),
    ).toEqual([
      ['E11', 'excludes1', 'type 1 diabetes mellitus (E10.-)', 'E10.-'],
      [
        'T88.7',
        'excludes1',
        'specified adverse effects of drugs and medicaments (A00-R94 and T80-T88.6, T88.8)',
        'A00-R94',
      ],
    ]);
    expect(q.notesNaming('T50.905A').map(({ note: n, range }) => [n.at, n.type, range.text, range.qualifier])).toEqual([
      ['T80-T88', 'useAdditionalCode', 'T36-T50', 'with fifth or sixth character 5'],
    ]);
  });

  test('looks up a 7th-character code built from the tabular', () => {
    expect(q.extendedCode('T81.40XD')).toEqual({
      code: 'T8140XD',
      dotted: 'T81.40XD',
      baseCode: 'T8140',
      sevenChr: 'D',
      description: 'Infection following a procedure, unspecified, subsequent encounter',
      release: 'FY2023',
    });
    expect(q.extendedCode('T81.40XB')).toBeUndefined();
  });
});
