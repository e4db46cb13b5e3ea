import type Database from 'better-sqlite3';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { icd10cmDrugCsvLoader } from '../../../src/refdata/loaders/icd10cm-drug-csv.js';
import { icd10cmIndexLoader } from '../../../src/refdata/loaders/icd10cm-index.js';
import { icd10pcsIndexLoader } from '../../../src/refdata/loaders/icd10pcs-index.js';
import { createIndexQueries, type IndexQueries } from '../../../src/reference/queries/index-terms.js';
import { buildFixture } from '../../helpers/build.js';

const doc = (root: string, head: string, body: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<${root}>\n${head}\n${body.trim()}\n</${root}>\n`.replace(/\n/g, '\r\n');

const disease = (year: number, body: string): Buffer =>
  gzipSync(
    doc('ICD10CM.index', `<version>${year}</version><title>ICD-10-CM INDEX TO DISEASES and INJURIES</title>`, body),
  );

const disease2023 = disease(
  2023,
  `
<letter><title>A</title>
  <mainTerm><title>Abasia<nemod>(-astasia) (hysterical)</nemod></title><code>F44.4</code></mainTerm>
  <mainTerm><title>Albers-Schönberg syndrome</title><code>Q78.2</code></mainTerm>
  <mainTerm><title>Amyloid heart<nemod>(disease)</nemod></title><code>E85.4</code><manif>I43</manif></mainTerm>
  <mainTerm><title>Arthritis, arthritic</title>
    <term level="1"><title>due to or associated with</title>
      <term level="2"><title>infectious disease NEC</title><seecat>M01</seecat></term>
    </term>
  </mainTerm>
</letter>
<letter><title>D</title>
  <mainTerm><title>Diabetes, diabetic<nemod>(mellitus) (sugar)</nemod></title><code>E11.9</code>
    <term level="1"><title>type 2</title><code>E11.9</code>
      <term level="2"><title>with</title>
        <term level="3"><title>hyperglycemia</title><code>E11.65</code></term>
        <term level="3"><title>hyperosmolarity</title><code>E11.00</code></term>
      </term>
    </term>
  </mainTerm>
  <mainTerm><title>Diabetic</title><see>Diabetes</see></mainTerm>
</letter>
<letter><title>F</title>
  <mainTerm><title>Fracture, traumatic</title>
    <term level="1"><title>radius</title>
      <term level="2"><title>upper end</title>
        <term level="3"><title>torus</title><code>S52.11-</code></term>
      </term>
    </term>
  </mainTerm>
</letter>`,
);

const disease2017 = disease(
  2017,
  `
<letter><title>D</title>
  <mainTerm><title>Diabetes, diabetic<nemod>(mellitus) (sugar)</nemod></title><code>E11.9</code>
    <term level="1"><title>type 2</title><code>E11.9</code></term>
  </mainTerm>
</letter>`,
);

const drugHead = `<version>2025</version><indexHeading><head col="1">Substance</head><head col="2">Poisoning Accidental (unintentional)</head>
<head col="3">Poisoning Intentional self-harm</head><head col="4">Poisoning Assault</head><head col="5">Poisoning Undetermined</head>
<head col="6">Adverse effect</head><head col="7">Underdosing</head></indexHeading>`;
const cells = (codes: string[]): string => codes.map((c, i) => `<cell col="${i + 2}">${c}</cell>`).join('');

const drug2025 = doc(
  'ICD10CM.index',
  drugHead,
  `
<letter><title>C</title>
  <mainTerm><title>Carbon</title>
    <term level="1"><title>monoxide<nemod>(from incomplete combustion)</nemod></title>${cells(['T58.91', 'T58.92', 'T58.93', 'T58.94', '--', '--'])}
      <term level="2"><title>coal</title>${cells(['T58.2X1', 'T58.2X2', 'T58.2X3', 'T58.2X4', '--', '--'])}</term>
    </term>
    <term level="1"><title>tetrachloride<nemod>(vapor)</nemod> NEC</title>${cells(['T53.0X1', 'T53.0X2', 'T53.0X3', 'T53.0X4', '--', '--'])}</term>
  </mainTerm>
  <mainTerm><title>Carbromal</title>${cells(['T42.6X1', 'T42.6X2', 'T42.6X3', 'T42.6X4', 'T42.6X5', 'T42.6X6'])}</mainTerm>
</letter>`,
);

const neoplasm2025 = doc(
  'ICD10CM.index',
  `<version>2025</version><indexHeading><head col="1">Neoplasm</head><head col="2">Malignant Primary</head><head col="3">Malignant Secondary</head>
<head col="4">Ca in situ</head><head col="5">Benign</head><head col="6">Uncertain Behavior</head><head col="7">Unspecified Behavior</head></indexHeading>`,
  `
<letter><title>N</title>
  <mainTerm><title>Neoplasm, neoplastic</title>${cells(['C80.1', 'C79.9', 'D09.9', 'D36.9', 'D48.9', 'D49.9'])}
    <term level="1"><title>lung</title>${cells(['C34.9-', 'C78.0-', 'D02.2-', 'D14.3-', 'D38.1', 'D49.1'])}
      <term level="2"><title>lower lobe</title>${cells(['C34.3-', 'C78.0-', 'D02.2-', 'D14.3-', 'D38.1', 'D49.1'])}</term>
    </term>
    <term level="1"><title>lip</title>${cells(['C00.9', 'C79.89', 'D00.01', 'D10.0', '-', 'D49.0'])}</term>
  </mainTerm>
</letter>`,
);

const pcs2023 = doc(
  'ICD10PCS.index',
  '<version>2023</version><title>2023 ICD-10-PCS Index</title>',
  `
<letter><title>A</title>
  <mainTerm><title>Abdominal aortic plexus</title><use>Abdominal Sympathetic Nerve</use></mainTerm>
  <mainTerm><title>Abdominohysterectomy</title><see>Resection, Uterus<codes>0UT9</codes></see></mainTerm>
  <mainTerm><title>Abortion</title>
    <term level="1"><title>Laminaria</title><code>10A07ZW</code></term>
  </mainTerm>
</letter>
<letter><title>O</title>
  <mainTerm><title>Oophorectomy</title><see>Resection, Female Reproductive System<tab>0UT</tab></see></mainTerm>
</letter>`,
);

const drugCsv = Buffer.from(
  [
    'ICD-10-CM TABLE of DRUGS and CHEMICALS,,,,,,,',
    'Substance,Poisoning Accidental (unintentional),Poisoning Intentional self-harm,Poisoning Assault,Poisoning Undetermined,Adverse effect,Underdosing,',
    'Carbon,,,,,,,',
    '\u0096 monoxide (from incomplete combustion),T58.91,T58.92,T58.93,T58.94,--,--,',
    'Carbromal,T42.6X1,T42.6X2,T42.6X3,T42.6X4,T42.6X5,T42.6X6,',
  ]
    .map((l) => `${l}\r\n`)
    .join(''),
  'latin1',
);

const loaders = [icd10cmIndexLoader, icd10pcsIndexLoader, icd10cmDrugCsvLoader];
let db: Database.Database;
let q: IndexQueries;
const D = '2026-01-15';

beforeAll(async () => {
  const build = await buildFixture(
    {
      'cm/icd10cm_index_2017.xml.gz': disease2017,
      'cm/icd10cm_index_2023.xml.gz': disease2023,
      'cm/icd-10-cm-drug-2025.xml': drug2025,
      'cm/icd-10-cm-neoplasm-2025.xml': neoplasm2025,
      'cm/icd10cm-drug-April-2025.csv': drugCsv,
      'pcs/icd10pcs_index_2023.xml.gz': gzipSync(pcs2023),
    },
    loaders,
  );
  db = build.open();
  q = createIndexQueries(db);
});

afterAll(() => db.close());

describe('index queries', () => {
  test('lists the release of each index in force on a date, the drug XML before the drug CSV', () => {
    expect(q.releases(D).map((r) => `${r.kind} ${r.dataset} ${r.release}`)).toEqual([
      'disease icd10cm-index FY2023',
      'drug icd10cm-drug FY2025',
      'neoplasm icd10cm-neoplasm FY2025',
      'pcs icd10pcs-index FY2023',
    ]);
    expect(q.releases('2018-05-01').map((r) => r.release)).toEqual(['FY2017']);
    expect(q.releases('2015-01-01')).toEqual([]);
  });

  test('searches by word prefixes over the whole path, ignoring case, accents and word order; main terms first', () => {
    expect(q.searchTerms('Diab hyperg', { date: D }).map((t) => [t.path, t.code, t.codeAsWritten])).toEqual([
      ['Diabetes, diabetic > type 2 > with > hyperglycemia', 'E1165', 'E11.65'],
    ]);
    expect(q.searchTerms('schonberg', { date: D }).map((t) => t.path)).toEqual(['Albers-Schönberg syndrome']);
    expect(q.searchTerms('with TYPE diab', { date: D }).map((t) => t.path)).toEqual([
      'Diabetes, diabetic > type 2 > with',
      'Diabetes, diabetic > type 2 > with > hyperglycemia',
      'Diabetes, diabetic > type 2 > with > hyperosmolarity',
    ]);
    // Nonessential modifiers are searchable too.
    expect(q.searchTerms('hysterical', { date: D }).map((t) => t.display)).toEqual(['Abasia (-astasia) (hysterical)']);
    expect(q.searchTerms('diab', { date: D, limit: 2 }).map((t) => t.path)).toEqual(['Diabetes, diabetic', 'Diabetic']);
    expect(q.searchTerms('diab', { date: '2018-01-01' }).map((t) => `${t.release} ${t.path}`)).toEqual([
      'FY2017 Diabetes, diabetic',
      'FY2017 Diabetes, diabetic > type 2',
    ]);
    expect(q.searchTerms('carbon', { date: D, kinds: ['drug'] }).map((t) => `${t.dataset} ${t.path}`)).toEqual([
      'icd10cm-drug Carbon',
      'icd10cm-drug Carbon > monoxide',
      'icd10cm-drug Carbon > tetrachloride NEC',
      'icd10cm-drug Carbon > monoxide > coal',
    ]);
    expect(q.searchTerms(' ,, ', { date: D })).toEqual([]);
  });

  test('finds terms by title prefix: main terms by default, any level on request', () => {
    expect(q.termsByTitlePrefix('dia', { date: D }).map((t) => t.title)).toEqual(['Diabetes, diabetic', 'Diabetic']);
    expect(q.termsByTitlePrefix('HYPER', { date: D, mainTermsOnly: false }).map((t) => t.path)).toEqual([
      'Diabetes, diabetic > type 2 > with > hyperglycemia',
      'Diabetes, diabetic > type 2 > with > hyperosmolarity',
    ]);
    expect(q.termsByTitlePrefix('abd', { date: D, kinds: ['pcs'] }).map((t) => t.title)).toEqual([
      'Abdominal aortic plexus',
      'Abdominohysterectomy',
    ]);
  });

  test('navigates a term, its children and its subtree', () => {
    const [diabetes] = q.termsByTitlePrefix('diabetes', { date: D, kinds: ['disease'] });
    expect(diabetes).toMatchObject({
      level: 0,
      nemod: '(mellitus) (sugar)',
      code: 'E119',
      see: null,
      kind: 'disease',
      release: 'FY2023',
    });
    const id = diabetes?.id ?? 0;
    expect(q.term(id)?.path).toBe('Diabetes, diabetic');
    expect(q.children(id).map((t) => t.title)).toEqual(['type 2']);
    expect(q.subtree(id).map((t) => t.level)).toEqual([0, 1, 2, 3, 3]);
    expect(q.term(999_999)).toBeUndefined();
  });

  test('finds the entries leading to a code: exact codes, incomplete codes it completes, manifestations, table cells', () => {
    const paths = (system: 'ICD10CM' | 'ICD10PCS', code: string, date = D): string[] =>
      q
        .termsForCode(system, code, { date })
        .map((h) =>
          `${h.via}${h.exact ? '' : '~'} ${h.codeAsWritten} ${h.heading ?? ''} ${h.term.path}`.replace(/\s+/g, ' '),
        );
    expect(paths('ICD10CM', 'E11.65')).toEqual(['code E11.65 Diabetes, diabetic > type 2 > with > hyperglycemia']);
    expect(paths('ICD10CM', 'S52111A')).toEqual(['code~ S52.11- Fracture, traumatic > radius > upper end > torus']);
    expect(paths('ICD10CM', 'I43')).toEqual(['manif I43 Amyloid heart']);
    expect(paths('ICD10CM', 'M01X0')).toEqual([
      'code~ M01 Arthritis, arthritic > due to or associated with > infectious disease NEC',
    ]);
    // A complete code does not lead to its longer siblings: E11.9 is not an entry for E11.900.
    expect(paths('ICD10CM', 'E11900')).toEqual([]);
    expect(paths('ICD10CM', 'T58.2X1A')).toEqual([
      'cell~ T58.2X1 Poisoning Accidental (unintentional) Carbon > monoxide > coal',
    ]);
    expect(paths('ICD10CM', 'C34.31')).toEqual([
      'cell~ C34.3- Malignant Primary Neoplasm, neoplastic > lung > lower lobe',
    ]);
    expect(paths('ICD10CM', 'D49.0')).toEqual(['cell D49.0 Unspecified Behavior Neoplasm, neoplastic > lip']);
    expect(paths('ICD10PCS', '0UT90ZZ')).toEqual(['code~ 0UT9 Abdominohysterectomy', 'code~ 0UT Oophorectomy']);
    expect(paths('ICD10PCS', '10A07ZW')).toEqual(['code 10A07ZW Abortion > Laminaria']);
    expect(paths('ICD10CM', 'E11.65', '2018-01-01')).toEqual([]);
    expect(paths('ICD10CM', 'E1')).toEqual([]);
  });

  test('gives drug table rows by substance with every column, by path or prefix, from the release in force', () => {
    const rows = q.drugRows('carbon > MONOXIDE', { date: D });
    expect(rows.map((r) => [r.dataset, r.path, r.cells.map((c) => c.codeAsWritten).join(' ')])).toEqual([
      ['icd10cm-drug', 'Carbon > monoxide', 'T58.91 T58.92 T58.93 T58.94 -- --'],
      ['icd10cm-drug', 'Carbon > monoxide > coal', 'T58.2X1 T58.2X2 T58.2X3 T58.2X4 -- --'],
    ]);
    expect(rows[0]?.cells[4]).toEqual({ col: 6, heading: 'Adverse effect', code: null, codeAsWritten: '--' });
    expect(rows[0]?.cells[0]).toEqual({
      col: 2,
      heading: 'Poisoning Accidental (unintentional)',
      code: 'T5891',
      codeAsWritten: 'T58.91',
    });
    expect(q.drugRows('carbon', { date: D }).map((r) => r.path)).toEqual([
      'Carbon',
      'Carbon > monoxide',
      'Carbon > monoxide > coal',
      'Carbon > tetrachloride NEC',
    ]);
    expect(q.drugRows('carb', { date: D }).map((r) => r.path)).toEqual([]);
    expect(q.drugRows('carb', { date: D, prefix: true }).map((r) => r.path)).toEqual([
      'Carbon',
      'Carbon > monoxide',
      'Carbon > monoxide > coal',
      'Carbon > tetrachloride NEC',
      'Carbromal',
    ]);
    expect(q.drugRows('carbromal', { date: D })[0]?.cells.map((c) => c.heading)).toEqual([
      'Poisoning Accidental (unintentional)',
      'Poisoning Intentional self-harm',
      'Poisoning Assault',
      'Poisoning Undetermined',
      'Adverse effect',
      'Underdosing',
    ]);
    expect(q.drugRows('carbon', { date: '2018-01-01' })).toEqual([]);
  });

  test('gives neoplasm table rows by site', () => {
    const rows = q.neoplasmRows('Lung', { date: D });
    expect(rows.map((r) => [r.path, r.cells.map((c) => `${c.heading}=${c.codeAsWritten}`).join(' ')])).toEqual([
      [
        'Neoplasm, neoplastic > lung',
        'Malignant Primary=C34.9- Malignant Secondary=C78.0- Ca in situ=D02.2- Benign=D14.3- Uncertain Behavior=D38.1 Unspecified Behavior=D49.1',
      ],
      [
        'Neoplasm, neoplastic > lung > lower lobe',
        'Malignant Primary=C34.3- Malignant Secondary=C78.0- Ca in situ=D02.2- Benign=D14.3- Uncertain Behavior=D38.1 Unspecified Behavior=D49.1',
      ],
    ]);
    expect(q.neoplasmRows('lung > lower', { date: D, prefix: true }).map((r) => r.title)).toEqual(['lower lobe']);
    expect(q.neoplasmRows('lip', { date: D })[0]?.cells.find((c) => c.col === 6)).toEqual({
      col: 6,
      heading: 'Uncertain Behavior',
      code: null,
      codeAsWritten: '-',
    });
  });

  test('looks up PCS index terms with their use, see and table pointers', () => {
    expect(q.pcsTerms('abdominal aortic plexus', { date: D }).map((t) => t.use)).toEqual([
      'Abdominal Sympathetic Nerve',
    ]);
    expect(q.pcsTerms('Abdominohysterectomy', { date: D }).map((t) => [t.see, t.code, t.codeKind])).toEqual([
      ['Resection, Uterus', '0UT9', 'codes'],
    ]);
    expect(q.pcsTerms('abortion', { date: D }).map((t) => `${t.path} ${t.code ?? ''}`)).toEqual([
      'Abortion ',
      'Abortion > Laminaria 10A07ZW',
    ]);
    expect(q.pcsTerms('abortion', { date: '2020-01-01' })).toEqual([]);
  });
});

describe('index queries without a drug XML', () => {
  test('fall back to the drug CSV', async () => {
    const build = await buildFixture({ 'cm/icd10cm-drug-April-2025.csv': drugCsv }, loaders);
    const csvDb = build.open();
    const csvQ = createIndexQueries(csvDb);
    expect(csvQ.releases('2025-06-01').map((r) => `${r.dataset} ${r.release}`)).toEqual([
      'icd10cm-drug-csv FY2025-April',
    ]);
    expect(csvQ.releases('2025-03-31')).toEqual([]);
    expect(csvQ.drugRows('carbon', { date: '2025-06-01' }).map((r) => [r.path, r.cells.length])).toEqual([
      ['Carbon', 0],
      ['Carbon > monoxide (from incomplete combustion)', 6],
    ]);
    expect(
      csvQ.termsForCode('ICD10CM', 'T42.6X5A', { date: '2025-06-01' }).map((h) => `${h.term.path} ${h.heading ?? ''}`),
    ).toEqual(['Carbromal Adverse effect']);
    csvDb.close();
  });
});

describe('index queries on a database built without the indexes', () => {
  test('answer empty instead of failing', async () => {
    const build = await buildFixture({ 'cm/readme.txt': 'nothing here' }, loaders);
    const emptyDb = build.open();
    const empty = createIndexQueries(emptyDb);
    expect(empty.releases(D)).toEqual([]);
    expect(empty.searchTerms('diabetes', { date: D })).toEqual([]);
    expect(empty.termsForCode('ICD10CM', 'E1165', { date: D })).toEqual([]);
    emptyDb.close();
  });
});
