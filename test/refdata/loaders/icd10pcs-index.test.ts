import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { icd10pcsIndexLoader } from '../../../src/refdata/loaders/icd10pcs-index.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const pcsXml = (body: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>
<ICD10PCS.index>
  <version>2023</version>
  <title>2023 ICD-10-PCS Index</title>
${body.trim()}
</ICD10PCS.index>
`.replace(/\r?\n/g, '\r\n');

const letters = `
  <letter>
    <title>A</title>
    <mainTerm>
      <title>Abdominal aortic plexus</title>
      <use>Abdominal Sympathetic Nerve</use>
    </mainTerm>
    <mainTerm>
      <title>Abdominohysterectomy</title>
      <see>Resection, Uterus<codes>0UT9</codes></see>
    </mainTerm>
    <mainTerm>
      <title>Abdominoplasty</title>
      <term level="1">
        <see>Alteration, Abdominal Wall<codes>0W0F</codes></see>
      </term>
      <term level="1">
        <see>Repair, Abdominal Wall<codes>0WQF</codes></see>
      </term>
    </mainTerm>
    <mainTerm>
      <title>Abortion</title>
      <term level="1">
        <title>Products of Conception</title>
        <codes>10A0</codes>
      </term>
      <term level="1">
        <title>Laminaria</title>
        <code>10A07ZW</code>
      </term>
    </mainTerm>
    <mainTerm>
      <title>Activa PC neurostimulator</title>
      <use>Stimulator Generator, Multiple Array in<tab>0JH</tab></use>
    </mainTerm>
    <mainTerm>
      <title>Alveolectomy</title>
      <term level="1">
        <see>Excision, Lower Bones<tab>0QB</tab></see>
      </term>
    </mainTerm>
  </letter>`;

describe('icd10pcs-index loader', () => {
  test('loads use, see, full codes, row prefixes (codes) and tables (tab), on the term or inside see/use', async () => {
    const build = await buildFixture({ 'pcs/icd10pcs_index_2023.xml.gz': gzipSync(pcsXml(letters)) }, [
      icd10pcsIndexLoader,
    ]);
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['icd10pcs-index', 'FY2023']]);
    const db = build.open();
    const rows = db
      .prepare(
        'SELECT level, title, path, code, code_as_written, code_kind, see, use_text, valid_from FROM index_term ORDER BY id',
      )
      .all();
    expect(rows).toEqual([
      {
        level: 0,
        title: 'Abdominal aortic plexus',
        path: 'Abdominal aortic plexus',
        code: null,
        code_as_written: null,
        code_kind: null,
        see: null,
        use_text: 'Abdominal Sympathetic Nerve',
        valid_from: '2022-10-01',
      },
      {
        level: 0,
        title: 'Abdominohysterectomy',
        path: 'Abdominohysterectomy',
        code: '0UT9',
        code_as_written: '0UT9',
        code_kind: 'codes',
        see: 'Resection, Uterus',
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 0,
        title: 'Abdominoplasty',
        path: 'Abdominoplasty',
        code: null,
        code_as_written: null,
        code_kind: null,
        see: null,
        use_text: null,
        valid_from: '2022-10-01',
      },
      // A PCS subterm may have no title of its own: it is one more reference of its parent, under the parent's path.
      {
        level: 1,
        title: '',
        path: 'Abdominoplasty',
        code: '0W0F',
        code_as_written: '0W0F',
        code_kind: 'codes',
        see: 'Alteration, Abdominal Wall',
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 1,
        title: '',
        path: 'Abdominoplasty',
        code: '0WQF',
        code_as_written: '0WQF',
        code_kind: 'codes',
        see: 'Repair, Abdominal Wall',
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 0,
        title: 'Abortion',
        path: 'Abortion',
        code: null,
        code_as_written: null,
        code_kind: null,
        see: null,
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 1,
        title: 'Products of Conception',
        path: 'Abortion > Products of Conception',
        code: '10A0',
        code_as_written: '10A0',
        code_kind: 'codes',
        see: null,
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 1,
        title: 'Laminaria',
        path: 'Abortion > Laminaria',
        code: '10A07ZW',
        code_as_written: '10A07ZW',
        code_kind: 'code',
        see: null,
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 0,
        title: 'Activa PC neurostimulator',
        path: 'Activa PC neurostimulator',
        code: '0JH',
        code_as_written: '0JH',
        code_kind: 'tab',
        see: null,
        use_text: 'Stimulator Generator, Multiple Array in',
        valid_from: '2022-10-01',
      },
      {
        level: 0,
        title: 'Alveolectomy',
        path: 'Alveolectomy',
        code: null,
        code_as_written: null,
        code_kind: null,
        see: null,
        use_text: null,
        valid_from: '2022-10-01',
      },
      {
        level: 1,
        title: '',
        path: 'Alveolectomy',
        code: '0QB',
        code_as_written: '0QB',
        code_kind: 'tab',
        see: 'Excision, Lower Bones',
        use_text: null,
        valid_from: '2022-10-01',
      },
    ]);
    db.close();
  });

  test('takes the index member of a CMS tables-and-index ZIP and ignores a CM index', async () => {
    const cm =
      '<?xml version="1.0" encoding="utf-8"?>\r\n<ICD10CM.index>\r\n<version>2023</version>\r\n</ICD10CM.index>\r\n';
    const build = await buildFixture(
      {
        'pcs/2023-pcs-tables-index.zip': makeZip({
          'icd10pcs_index_2023.xml': pcsXml(letters),
          'icd10pcs_tables_2023.xml': '<ICD10PCS.tabular/>',
        }),
        'x/icd10pcs_index_2022.xml': cm,
      },
      [icd10pcsIndexLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.member])).toEqual([
      ['icd10pcs-index', 'icd10pcs_index_2023.xml'],
    ]);
    expect(build.result.skipped.map((s) => s.file)).toEqual(['x/icd10pcs_index_2022.xml']);
  });

  test('fails the build with file and line on a term with two table pointers', async () => {
    const bad = pcsXml(letters.replace('<codes>10A0</codes>', '<codes>10A0</codes>\n        <tab>10A</tab>'));
    await expect(buildFixture({ 'pcs/icd10pcs_index_2023.xml': bad }, [icd10pcsIndexLoader])).rejects.toThrow(
      /pcs\/icd10pcs_index_2023\.xml:29: term has both <codes> and <tab>/,
    );
  });

  test('fails the build with file and line on a pointer that is not a PCS code', async () => {
    const bad = pcsXml(letters.replace('<code>10A07ZW</code>', '<code>10A07ZW1</code>'));
    await expect(buildFixture({ 'pcs/icd10pcs_index_2023.xml': bad }, [icd10pcsIndexLoader])).rejects.toThrow(
      /pcs\/icd10pcs_index_2023\.xml:32: <code> is not an ICD-10-PCS code: "10A07ZW1"/,
    );
  });
});
