import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import {
  icd10cmIndexLoader,
  normaliseIndexCode,
  readIndexXmlHead,
} from '../../../src/refdata/loaders/icd10cm-index.js';
import { titleKey } from '../../../src/schemas/index-terms.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

/** An index document in the CDC layout (CRLF, two-space indent), from its body lines. */
const indexXml = (head: string, letters: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\r\n<ICD10CM.index>\r\n${head}\r\n${letters.trim()}\r\n</ICD10CM.index>\r\n`.replace(
    /\r?\n/g,
    '\r\n',
  );

const diseaseHead = (year: number): string =>
  `  <version>${year}</version>\n  <title>ICD-10-CM INDEX TO DISEASES and INJURIES</title>`;

const diseaseLetters = `
  <letter>
    <title>A</title>
    <mainTerm>
      <title>Abasia<nemod>(-astasia) (hysterical)</nemod></title>
      <code>F44.4</code>
    </mainTerm>
    <mainTerm>
      <title>Aberrant<nemod>(congenital)</nemod></title>
      <seeAlso>Malposition, congenital</seeAlso>
      <term level="1">
        <title>vein<nemod>(peripheral)</nemod> NEC</title>
        <code>Q27.8</code>
      </term>
    </mainTerm>
    <mainTerm>
      <title>Abdominalgia</title>
      <see>Pain, abdominal</see>
    </mainTerm>
    <mainTerm>
      <title>Amyloid heart<nemod>(disease)</nemod></title>
      <code>E85.4</code>
      <manif>I43</manif>
    </mainTerm>
    <mainTerm>
      <title>Arthritis, arthritic</title>
      <term level="1">
        <title>due to or associated with</title>
        <term level="2">
          <title>infectious disease NEC</title>
          <seecat>M01</seecat>
        </term>
      </term>
    </mainTerm>
  </letter>
  <letter>
    <title>B</title>
    <mainTerm>
      <title>Bonnier's syndrome</title>
      <subcat>H81.8</subcat>
    </mainTerm>
  </letter>
  <letter>
    <title>D</title>
    <mainTerm>
      <title>Diabetes, diabetic<nemod>(mellitus) (sugar)</nemod></title>
      <code>E11.9</code>
      <term level="1">
        <title>type 2</title>
        <code>E11.9</code>
        <term level="2">
          <title>with</title>
          <term level="3">
            <title>hyperglycemia</title>
            <code>E11.65</code>
          </term>
        </term>
      </term>
    </mainTerm>
  </letter>
  <letter>
    <title>S</title>
    <mainTerm>
      <title>Slipped, slipping</title>
      <term level="1">
        <title>epiphysis<nemod>(traumatic)</nemod></title>
        <manif>SCFE</manif>
        <term level="2">
          <title>upper femoral</title>
          <code>S79.01-</code>
        </term>
      </term>
    </mainTerm>
  </letter>`;

const drugXml = indexXml(
  `  <version>2025</version>
  <indexHeading>
    <head col="1">Substance</head>
    <head col="2">Poisoning Accidental (unintentional)</head>
    <head col="3">Poisoning Intentional self-harm</head>
    <head col="4">Poisoning Assault</head>
    <head col="5">Poisoning Undetermined</head>
    <head col="6">Adverse effect</head>
    <head col="7">Underdosing</head>
  </indexHeading>`,
  `
  <letter>
    <title>C</title>
    <mainTerm>
      <title>Carbon</title>
      <term level="1">
        <title>monoxide<nemod>(from incomplete combustion)</nemod></title>
        <cell col="2">T58.91</cell>
        <cell col="3">T58.92</cell>
        <cell col="4">T58.93</cell>
        <cell col="5">T58.94</cell>
        <cell col="6">--</cell>
        <cell col="7">--</cell>
      </term>
    </mainTerm>
    <mainTerm>
      <title>Coal<nemod>(carbon monoxide from)</nemod></title>
      <seeAlso>Carbon, monoxide, coal</seeAlso>
      <cell col="2">T58.2X1</cell>
    </mainTerm>
  </letter>`,
);

const neoplasmXml = indexXml(
  `  <version>2025</version>
  <indexHeading>
    <head col="1">Neoplasm</head>
    <head col="2">Malignant Primary</head>
    <head col="3">Malignant Secondary</head>
    <head col="4">Ca in situ</head>
    <head col="5">Benign</head>
    <head col="6">Uncertain Behavior</head>
    <head col="7">Unspecified Behavior</head>
  </indexHeading>`,
  `
  <letter>
    <title>N</title>
    <mainTerm>
      <title>Neoplasm, neoplastic</title>
      <term level="1">
        <title>lung</title>
        <cell col="2">C34.9-</cell>
        <cell col="3">C78.0-</cell>
        <cell col="4">D02.2-</cell>
        <cell col="5">D14.3-</cell>
        <cell col="6">D38.1</cell>
        <cell col="7">D49.1</cell>
      </term>
      <term level="1">
        <title>lip</title>
        <cell col="2">C00.9</cell>
        <cell col="3">C79.89</cell>
        <cell col="4">D00.01</cell>
        <cell col="5">D10.0</cell>
        <cell col="6">-</cell>
        <cell col="7">D49.0</cell>
      </term>
    </mainTerm>
  </letter>`,
);

const eindexXml = indexXml(
  `  <version>2025</version>\n  <title>ICD-10-CM EXTERNAL CAUSE of INJURIES INDEX</title>`,
  `
  <letter>
    <title>A</title>
    <mainTerm>
      <title>Activity<nemod>(involving) (of victim at time of event)</nemod></title>
      <code>Y93.9</code>
      <term level="1">
        <title>aerobic and step exercise<nemod>(class)</nemod></title>
        <code>Y93.A3</code>
      </term>
    </mainTerm>
  </letter>`,
);

interface Row {
  id: number;
  parent_id: number | null;
  end_id: number;
  kind: string;
  level: number;
  title: string;
  nemod: string | null;
  display: string;
  path: string;
  code: string | null;
  code_as_written: string | null;
  code_kind: string | null;
  manif: string | null;
  manif_as_written: string | null;
  see: string | null;
  see_also: string | null;
  line: number;
  valid_from: string;
  valid_to: string | null;
}

describe('icd10cm-index loader', () => {
  test('normalises index codes to upper-case undotted form, dropping the incomplete-code dash', () => {
    expect(normaliseIndexCode('E11.65')).toBe('E1165');
    expect(normaliseIndexCode('T36.0X1')).toBe('T360X1');
    expect(normaliseIndexCode('C34.9-')).toBe('C349');
    expect(normaliseIndexCode('P92.-')).toBe('P92');
    expect(normaliseIndexCode('C64-')).toBe('C64');
    expect(normaliseIndexCode('d3a.020')).toBe('D3A020');
    expect(normaliseIndexCode('SCFE')).toBeUndefined();
    expect(normaliseIndexCode('ventral surface of tongue')).toBeUndefined();
    expect(titleKey('  Albers-Schönberg   syndrome ')).toBe('albers-schonberg syndrome');
  });

  test('reads root, version, document title and first column heading from the head of a file', () => {
    expect(readIndexXmlHead(indexXml(diseaseHead(2023), diseaseLetters))).toEqual({
      root: 'ICD10CM.index',
      version: 2023,
      title: 'ICD-10-CM INDEX TO DISEASES and INJURIES',
      firstHeading: undefined,
    });
    expect(readIndexXmlHead(drugXml)).toMatchObject({ version: 2025, title: undefined, firstHeading: 'Substance' });
    expect(readIndexXmlHead('<?xml version="1.0"?><ICD10CM.tabular><version>2023</version>')).toBeUndefined();
  });

  test('loads main terms and nested subterms with full paths, nonessential modifiers, codes and references', async () => {
    const build = await buildFixture(
      { 'cm/icd10cm_index_2023.xml.gz': gzipSync(indexXml(diseaseHead(2023), diseaseLetters)) },
      [icd10cmIndexLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['icd10cm-index', 'FY2023']]);
    const db = build.open();
    const rows = db.prepare('SELECT * FROM index_term ORDER BY id').all() as Row[];
    const byPath = new Map(rows.map((r) => [r.path, r]));
    expect(rows).toHaveLength(16);
    expect(byPath.get('Abasia')).toMatchObject({
      level: 0,
      parent_id: null,
      nemod: '(-astasia) (hysterical)',
      display: 'Abasia (-astasia) (hysterical)',
      code: 'F444',
      code_as_written: 'F44.4',
      code_kind: 'code',
      kind: 'disease',
      valid_from: '2022-10-01',
      valid_to: null,
    });
    expect(byPath.get('Aberrant > vein NEC')).toMatchObject({
      level: 1,
      title: 'vein NEC',
      nemod: '(peripheral)',
      display: 'vein (peripheral) NEC',
      code: 'Q278',
    });
    expect(byPath.get('Aberrant')).toMatchObject({ see_also: 'Malposition, congenital', code: null });
    expect(byPath.get('Abdominalgia')).toMatchObject({ see: 'Pain, abdominal', code: null });
    expect(byPath.get('Amyloid heart')).toMatchObject({ code: 'E854', manif: 'I43', manif_as_written: 'I43' });
    expect(byPath.get('Arthritis, arthritic > due to or associated with > infectious disease NEC')).toMatchObject({
      level: 2,
      code: 'M01',
      code_kind: 'seecat',
    });
    expect(byPath.get("Bonnier's syndrome")).toMatchObject({
      code: 'H818',
      code_as_written: 'H81.8',
      code_kind: 'subcat',
    });
    const hyper = byPath.get('Diabetes, diabetic > type 2 > with > hyperglycemia');
    expect(hyper).toMatchObject({ level: 3, title: 'hyperglycemia', code: 'E1165', code_as_written: 'E11.65' });
    // The subtree of a term is the id range [id, end_id]; parent links follow the nesting.
    const diabetes = byPath.get('Diabetes, diabetic');
    expect(diabetes?.end_id).toBe(hyper?.id);
    expect(byPath.get('Diabetes, diabetic > type 2 > with')?.parent_id).toBe(
      byPath.get('Diabetes, diabetic > type 2')?.id,
    );
    // A <manif> holding words gives no code but keeps its text; an incomplete code keeps its dash as written.
    expect(byPath.get('Slipped, slipping > epiphysis')).toMatchObject({ manif: null, manif_as_written: 'SCFE' });
    expect(byPath.get('Slipped, slipping > epiphysis > upper femoral')).toMatchObject({
      code: 'S7901',
      code_as_written: 'S79.01-',
    });
    expect(byPath.get('Abasia')?.line).toBe(7);
    const fts = db.prepare(`SELECT rowid FROM index_term_fts WHERE index_term_fts MATCH '"diab"* "hyperg"*'`).all();
    expect(fts).toEqual([{ rowid: hyper?.id }]);
    db.close();
  });

  test('loads the drug and neoplasm tables cell by column with their headings, "--" and "-" as no code', async () => {
    const build = await buildFixture(
      {
        'cm/icd-10-cm-drug-2025.xml': drugXml,
        'cm/icd-10-cm-neoplasm-2025.xml': neoplasmXml,
        'cm/icd-10-cm-eindex-2025.xml': eindexXml,
      },
      [icd10cmIndexLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release]).sort()).toEqual([
      ['icd10cm-drug', 'FY2025'],
      ['icd10cm-eindex', 'FY2025'],
      ['icd10cm-neoplasm', 'FY2025'],
    ]);
    const db = build.open();
    const cells = db
      .prepare(
        `SELECT t.kind, t.path, c.col, h.heading, c.code, c.code_as_written FROM index_cell c JOIN index_term t ON t.id = c.term_id
         JOIN index_heading h ON h.source_id = c.source_id AND h.col = c.col ORDER BY t.id, c.col`,
      )
      .all();
    expect(cells).toHaveLength(6 + 1 + 12);
    expect(cells).toContainEqual({
      kind: 'drug',
      path: 'Carbon > monoxide',
      col: 2,
      heading: 'Poisoning Accidental (unintentional)',
      code: 'T5891',
      code_as_written: 'T58.91',
    });
    expect(cells).toContainEqual({
      kind: 'drug',
      path: 'Carbon > monoxide',
      col: 6,
      heading: 'Adverse effect',
      code: null,
      code_as_written: '--',
    });
    expect(cells).toContainEqual({
      kind: 'drug',
      path: 'Coal',
      col: 2,
      heading: 'Poisoning Accidental (unintentional)',
      code: 'T582X1',
      code_as_written: 'T58.2X1',
    });
    expect(cells).toContainEqual({
      kind: 'neoplasm',
      path: 'Neoplasm, neoplastic > lung',
      col: 2,
      heading: 'Malignant Primary',
      code: 'C349',
      code_as_written: 'C34.9-',
    });
    expect(cells).toContainEqual({
      kind: 'neoplasm',
      path: 'Neoplasm, neoplastic > lip',
      col: 6,
      heading: 'Uncertain Behavior',
      code: null,
      code_as_written: '-',
    });
    expect(db.prepare("SELECT path, code, kind FROM index_term WHERE kind = 'external' ORDER BY id").all()).toEqual([
      { path: 'Activity', code: 'Y939', kind: 'external' },
      { path: 'Activity > aerobic and step exercise', code: 'Y93A3', kind: 'external' },
    ]);
    expect(db.prepare("SELECT see_also FROM index_term WHERE path = 'Coal'").get()).toEqual({
      see_also: 'Carbon, monoxide, coal',
    });
    db.close();
  });

  test('takes the four index members of a release ZIP, dated by their <version>, and ends the older release', async () => {
    const zip = makeZip({
      'icd10cm_index_2017.xml': indexXml(diseaseHead(2017), diseaseLetters),
      'icd10cm_eindex_2017.xml': eindexXml.replace('2025', '2017'),
      'icd10cm_drug_2017.xml': drugXml.replace('2025', '2017'),
      'icd10cm_neoplasm_2017.xml': neoplasmXml.replace('2025', '2017'),
      'icd10cm_tabular_2017.xml':
        '<?xml version="1.0" encoding="utf-8"?>\r\n<ICD10CM.tabular><version>2017</version></ICD10CM.tabular>',
      'icd10cm_index.xsd': '<?xml version="1.0"?><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>',
    });
    const build = await buildFixture(
      {
        'old/ICD10CM_FY2017_Full_XML.zip': zip,
        'new/icd10cm_index_2023.xml.gz': gzipSync(indexXml(diseaseHead(2023), diseaseLetters)),
      },
      [icd10cmIndexLoader],
    );
    expect(build.result.units.map((u) => `${u.dataset} ${u.release} ${u.member ?? ''}`).sort()).toEqual([
      'icd10cm-drug FY2017 icd10cm_drug_2017.xml',
      'icd10cm-eindex FY2017 icd10cm_eindex_2017.xml',
      'icd10cm-index FY2017 icd10cm_index_2017.xml',
      'icd10cm-index FY2023 ',
      'icd10cm-neoplasm FY2017 icd10cm_neoplasm_2017.xml',
    ]);
    const db = build.open();
    expect(
      db
        .prepare("SELECT DISTINCT valid_from, valid_to FROM index_term WHERE kind = 'disease' ORDER BY valid_from")
        .all(),
    ).toEqual([
      { valid_from: '2016-10-01', valid_to: '2022-09-30' },
      { valid_from: '2022-10-01', valid_to: null },
    ]);
    db.close();
  });

  test('recognises a file by name and content: a tabular or a wrong title under an index name is skipped', async () => {
    const build = await buildFixture(
      {
        'a/icd10cm_index_2023.xml':
          '<?xml version="1.0" encoding="utf-8"?>\r\n<ICD10CM.tabular>\r\n<version>2023</version>\r\n</ICD10CM.tabular>\r\n',
        'b/icd10cm_eindex_2023.xml': indexXml(diseaseHead(2023), diseaseLetters),
        'c/icd10cm_index_2023.xml.gz': Buffer.from('<html>not gzip</html>'),
        'd/icd10cm-index-2025.xsd': '<?xml version="1.0"?><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>',
      },
      [icd10cmIndexLoader],
    );
    expect(build.result.units).toEqual([]);
    expect(build.result.skipped.map((s) => s.file).sort()).toEqual([
      'a/icd10cm_index_2023.xml',
      'b/icd10cm_eindex_2023.xml',
      'c/icd10cm_index_2023.xml.gz',
      'd/icd10cm-index-2025.xsd',
    ]);
  });

  test('fails the build with file and line on a code that is not an ICD-10-CM code', async () => {
    const bad = indexXml(diseaseHead(2023), diseaseLetters.replace('<code>E11.65</code>', '<code>E11.6555X</code>'));
    await expect(buildFixture({ 'cm/icd10cm_index_2023.xml': bad }, [icd10cmIndexLoader])).rejects.toThrow(
      /cm\/icd10cm_index_2023\.xml:58: <code> is not an ICD-10-CM code: "E11\.6555X"/,
    );
  });

  test('fails the build with file and line on a term level that does not match its nesting', async () => {
    const bad = indexXml(diseaseHead(2023), diseaseLetters.replace('<term level="3">', '<term level="4">'));
    await expect(buildFixture({ 'cm/icd10cm_index_2023.xml': bad }, [icd10cmIndexLoader])).rejects.toThrow(
      /cm\/icd10cm_index_2023\.xml:56: <term level="4"> at nesting depth 3/,
    );
  });

  test('fails the build with file, member and line on XML that is not well-formed', async () => {
    const bad = makeZip({
      'icd10cm_drug_2017.xml': drugXml
        .replace('2025', '2017')
        .replace('<cell col="3">T58.92</cell>', '<cell col="3">T58.92</cel>'),
    });
    await expect(buildFixture({ 'x/ICD10CM_FY2017_Full_XML.zip': bad }, [icd10cmIndexLoader])).rejects.toThrow(
      /x\/ICD10CM_FY2017_Full_XML\.zip\[icd10cm_drug_2017\.xml\]:20: not well-formed XML/,
    );
  });

  test('fails the build on a drug cell that is not a code', async () => {
    const bad = drugXml.replace('<cell col="4">T58.93</cell>', '<cell col="4">see T58.93</cell>');
    await expect(buildFixture({ 'cm/icd-10-cm-drug-2025.xml': bad }, [icd10cmIndexLoader])).rejects.toThrow(
      /icd-10-cm-drug-2025\.xml:21: <cell col="4"> is not a code: "see T58\.93"/,
    );
  });
});
