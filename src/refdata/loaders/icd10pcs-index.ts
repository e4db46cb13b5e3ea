// ICD-10-PCS Index from the CMS XML (root `ICD10PCS.index`): main terms and nested terms with their `use` (body part
// and device synonyms), `see` references, and pointers into the PCS tables: a full `code`, a row prefix `codes`
// (`0UT9`) or a table `tab` (`0QB`), standing on the term or inside its `see`/`use`. Same tables as the CM index.
import type { Loader } from '../builder/types.js';
import { finalizeIndexTerms, indexDdl, loadIndexXml, recogniseIndexXml } from './icd10cm-index.js';

const PCS_INDEX_NAME = /(?:^|\/)icd-?10-?pcs[-_]?(index)[-_](\d{4})\.xml(?:\.gz)?$/i;

/** ICD-10-PCS Index XML (`icd10pcs_index_2023.xml.gz`, or the member of a CMS tables-and-index ZIP). */
export const icd10pcsIndexLoader: Loader = {
  name: 'icd10pcs-index',
  version: 1,
  ddl: indexDdl,
  recognise: (file, probe) =>
    recogniseIndexXml(file, probe, PCS_INDEX_NAME, (_word, head) =>
      head.root === 'ICD10PCS.index' ? 'pcs' : undefined,
    ),
  load: (ctx) => loadIndexXml(ctx, 'pcs', 'ICD10PCS.index'),
  finalize: finalizeIndexTerms,
};
