// Read side of the Medicare policy tables: MCE edit code lists (which edits a code is on, with age and sex limits,
// and the members of a list), MCD documents (the official export and the derived index) with their contractors
// and code groups, and the Medicare contractors table. Statements are prepared once per connection; a table a
// partial build left out answers "no data" (undefined or []), never a pass. Dates are ISO `YYYY-MM-DD`.
import type Database from 'better-sqlite3';
import { normaliseCode } from '../../schemas/code-systems.js';
import { inForce as inForceOn } from '../../schemas/validity.js';
import { groupBy } from './group-by.js';
import { tableNames } from './tables.js';
import type { MceCodeType } from '../../schemas/policies.js';

/** Where a row came from. `line` is the line in the source file (0 where the table keeps none). */
export interface PolicyRowSource {
  readonly file: string;
  readonly member: string | null;
  readonly release: string;
  readonly line: number;
}

/** One code's place on one MCE list. */
export interface MceMembership {
  /** MCE version, `v43.1`. */
  readonly version: string;
  /** Stable edit id: `age-conflict`, `unacceptable-principal-dx`, `non-covered-procedure`. */
  readonly edit: string;
  /** Stable list id: `age-maternity`, `non-covered-f`, `valid-discharge-status`. */
  readonly list: string;
  readonly listTitle: string;
  readonly code: string;
  /** `D` ICD-10-CM diagnosis, `P` ICD-10-PCS procedure, `S` UB-04 discharge status. */
  readonly codeType: MceCodeType;
  readonly description: string | null;
  /**
   * Age range the list's rule names: for age-conflict lists the ages the code fits (a patient outside them is an
   * age conflict); for non-covered list F the ages at which the procedure is non-covered (over 60).
   */
  readonly ageMin: number | null;
  readonly ageMax: number | null;
  /** `F` / `M` for the sex-conflict lists (only in the derived v37 table: the edit is off since 2024-10-01). */
  readonly sex: 'F' | 'M' | null;
  /** False when the edit or list is deactivated or discontinued, or a discharge status is no longer valid. */
  readonly active: boolean;
  /** The manual marks the code with an asterisk (unacceptable principal dx: acceptable with a secondary dx). */
  readonly marked: boolean;
  /** From the third-party reshaped v37 table, not the official manual. */
  readonly derived: boolean;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly source: PolicyRowSource;
}

/** An MCE code list with its rule. */
export interface MceList {
  readonly version: string;
  readonly list: string;
  readonly edit: string;
  /** Section of the manual: `4C`, `8B1`, `11D`. */
  readonly section: string;
  readonly title: string;
  readonly codeType: MceCodeType | null;
  readonly ageMin: number | null;
  readonly ageMax: number | null;
  readonly sex: 'F' | 'M' | null;
  readonly active: boolean;
  readonly inactiveFrom: string | null;
  /** Codes read from the edit's prose (11B transplant codes, 11G's Z302) rather than from code lines. */
  readonly fromText: boolean;
  /** The manual's paragraphs describing when the list applies. */
  readonly ruleText: string | null;
  readonly derived: boolean;
  readonly codes: number;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** An edit the MCE manual describes, listed or not. */
export interface MceEdit {
  readonly version: string;
  readonly edit: string;
  readonly number: number | null;
  readonly title: string;
  readonly active: boolean;
  readonly inactiveFrom: string | null;
  readonly derived: boolean;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** A contractor named on an MCD document. */
export interface McdDocumentContractor {
  readonly name: string;
  /** Contract types as the MCD shows them (`MAC - Part A, MAC - Part B`, `DME MAC`), or the export's type. */
  readonly types: string | null;
  /** 5-digit contractor number (official export only). */
  readonly number: string | null;
}

/** One version of an LCD or Article. */
export interface McdDocument {
  /** `export`: the official MCD CSV export; `derived-index`: the third-party document list. */
  readonly origin: 'export' | 'derived-index';
  readonly documentType: 'LCD' | 'Article';
  readonly documentId: number;
  readonly version: number;
  readonly displayId: string;
  readonly title: string;
  readonly status: string | null;
  readonly effectiveDate: string | null;
  /** Revision end or retirement date as the source gives it. */
  readonly endDate: string | null;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly url: string | null;
  readonly contractors: McdDocumentContractor[];
}

/** A code listed by an MCD document. */
export interface McdCode {
  readonly codeSystem: 'HCPCS' | 'ICD10CM';
  /** `listed` (HCPCS), `covered` / `noncovered` (ICD-10-CM). */
  readonly relation: 'listed' | 'covered' | 'noncovered';
  readonly code: string;
  readonly group: number | null;
  readonly asterisk: string | null;
  readonly description: string | null;
}

/** A code group's paragraph (pairing rules, secondary-only asterisk text). */
export interface McdCodeGroup {
  readonly kind: 'hcpcs' | 'icd10-covered' | 'icd10-noncovered';
  readonly group: number;
  readonly paragraph: string | null;
  readonly asteriskText: string | null;
}

/** An MCD document version in force on a date that lists a code. */
export interface McdCodeUse {
  readonly documentType: 'LCD' | 'Article';
  readonly documentId: number;
  readonly version: number;
  readonly displayId: string;
  readonly title: string;
  readonly codeSystem: 'HCPCS' | 'ICD10CM';
  readonly relation: 'listed' | 'covered' | 'noncovered';
  readonly group: number | null;
  /** Release of the export the document row came from (`current_article 2025-08-10`). */
  readonly release: string;
}

/** A MAC jurisdiction fact from the committed contractors table. */
export interface MacJurisdiction {
  readonly kind: 'AB' | 'DME' | 'HHH';
  /** `J5`, `JE`; DME `A`-`D`; for HHH the A/B jurisdiction whose MAC handles home health and hospice. */
  readonly jurisdiction: string;
  readonly mac: string;
  readonly states: string[];
  readonly note: string | null;
  /** The date the source states. */
  readonly asOf: string;
  readonly sourceUrl: string;
}

/** A contractor number: from the committed table (CMS pages) or the MCD export's contractor table. */
export interface ContractorNumberFact {
  readonly origin: 'cms-pages' | 'mcd-export';
  readonly contractorNumber: string;
  readonly part: 'A' | 'B' | null;
  readonly state: string | null;
  readonly area: string | null;
  /** MAC name (MCD export only; the CMS-page facts name the MAC per jurisdiction). */
  readonly name: string | null;
  readonly asOf: string | null;
  readonly sourceUrl: string | null;
}

/** Lookups over the policy tables. */
export interface PolicyQueries {
  /** Every MCE list a code is on at a date (official and derived rows; see `derived`), ordered by edit and list. */
  mceListsForCode(code: string, date: string): MceMembership[];
  /**
   * The members of an MCE list at a date, in the manual's order (from an in-memory copy of the MCE code lists, read
   * on first use: CodeDetail indexes nine lists, ~20,000 rows, per MCE version).
   */
  mceListMembers(list: string, date: string): MceMembership[];
  /** An MCE list and its rule at a date (the official release wins over the derived table). */
  mceList(list: string, date: string): MceList | undefined;
  /** Every edit the MCE manual in force at a date describes (active or not). */
  mceEdits(date: string): MceEdit[];
  /** Versions of an LCD or Article by display id (`L36668`, `A59636`): those in force on `date`, or all. */
  mcdDocuments(displayId: string, date?: string): McdDocument[];
  /** LCDs and Articles in force on a date whose contractor has this 5-digit number or whose name contains `contractor`. */
  mcdDocumentsByContractor(contractor: string, date: string): McdDocument[];
  /** Codes an exported LCD/Article version lists (HCPCS, covered and non-covered ICD-10-CM). */
  mcdCodes(documentType: 'LCD' | 'Article', documentId: number, version: number): McdCode[];
  /** The group paragraphs of an exported LCD/Article version. */
  mcdCodeGroups(documentType: 'LCD' | 'Article', documentId: number, version: number): McdCodeGroup[];
  /** Exported LCD/Article versions in force on a date that list a code. */
  mcdDocumentsForCode(code: string, date: string): McdCodeUse[];
  /** Reads the in-memory copy of the MCE code lists now instead of on first use. */
  load(): void;
  /** Facts about a contractor number. */
  contractorByNumber(contractorNumber: string): ContractorNumberFact[];
  /** MAC jurisdictions (A/B, DME, HH+H) that name a state, with its contractor numbers. */
  contractorsByState(state: string): { jurisdictions: MacJurisdiction[]; contractorNumbers: ContractorNumberFact[] };
  /** A jurisdiction's facts (`J5`, `JE`, DME `D`). */
  contractorsByJurisdiction(jurisdiction: string): MacJurisdiction[];
}

/** Contractor strings whose documents are kept in memory at most (see documentsOfContractor). */
const MAX_CONTRACTOR_SEARCHES = 256;

const inForce = (t: string): string => `${t}.valid_from <= @date AND (${t}.valid_to IS NULL OR ${t}.valid_to >= @date)`;

interface MembershipRow {
  mce_version: string;
  edit: string;
  list: string;
  list_title: string;
  code: string;
  code_type: MceCodeType;
  description: string | null;
  age_min: number | null;
  age_max: number | null;
  sex: 'F' | 'M' | null;
  active: number;
  marked: number;
  derived: number;
  valid_from: string;
  valid_to: string | null;
  line: number;
  file: string;
  member: string | null;
  release: string;
}

interface ListRow {
  mce_version: string;
  list: string;
  edit: string;
  section: string;
  title: string;
  code_type: MceCodeType | null;
  age_min: number | null;
  age_max: number | null;
  sex: 'F' | 'M' | null;
  active: number;
  inactive_from: string | null;
  from_text: number;
  rule_text: string | null;
  derived: number;
  codes: number;
  valid_from: string;
  valid_to: string | null;
}

interface DocRow {
  origin: 'export' | 'derived-index';
  document_type: 'LCD' | 'Article';
  document_id: number;
  document_version: number;
  display_id: string;
  title: string;
  status: string | null;
  effective_date: string | null;
  end_date: string | null;
  valid_from: string;
  valid_to: string | null;
  url: string | null;
}

const toMembership = (r: MembershipRow): MceMembership => ({
  version: r.mce_version,
  edit: r.edit,
  list: r.list,
  listTitle: r.list_title,
  code: r.code,
  codeType: r.code_type,
  description: r.description,
  ageMin: r.age_min,
  ageMax: r.age_max,
  sex: r.sex,
  active: r.active === 1,
  marked: r.marked === 1,
  derived: r.derived === 1,
  validFrom: r.valid_from,
  validTo: r.valid_to,
  source: { file: r.file, member: r.member, release: r.release, line: r.line },
});

/**
 * Prepares the policy lookups on an open (read-only) reference database.
 * @param db - the reference database
 */
export function createPolicyQueries(db: Database.Database): PolicyQueries {
  const tables = tableNames(db);
  const prepare = (needs: string[], sql: string): Database.Statement | undefined =>
    needs.every((t) => tables.has(t)) ? db.prepare(sql) : undefined;
  const membership = `SELECT c.*, s.file, s.member, s.release FROM mce_code c JOIN source s ON s.id = c.source_id`;

  const mceByCode = prepare(
    ['mce_code'],
    `${membership} WHERE c.code = @code AND ${inForce('c')} ORDER BY c.derived, c.edit, c.list, c.line`,
  );
  // Every list's rows, each list in the manual's order (derived rows after official ones), kept per list.
  const allMembers = prepare(['mce_code'], `${membership} ORDER BY c.list, c.derived, c.line`);
  let membersByList: Map<string, MceMembership[]> | undefined;
  const membersOf = (list: string): readonly MceMembership[] => {
    if (membersByList === undefined) {
      // Grouped aside and kept only once complete: a read that throws leaves nothing half-loaded behind.
      membersByList = groupBy(((allMembers?.all() ?? []) as MembershipRow[]).map(toMembership), (m) => m.list);
    }
    return membersByList.get(list) ?? [];
  };
  const mceListRow = prepare(
    ['mce_list'],
    `SELECT * FROM mce_list l WHERE l.list = @list AND ${inForce('l')} ORDER BY l.derived, l.valid_from DESC LIMIT 1`,
  );
  const mceEditRows = prepare(
    ['mce_edit'],
    `SELECT * FROM mce_edit e WHERE ${inForce('e')} ORDER BY e.derived, e.edit_number, e.edit`,
  );

  const exportDocs = (where: string): string =>
    `SELECT 'export' AS origin, d.document_type, d.document_id, d.document_version, d.display_id, d.title, d.status,
            d.effective_date, coalesce(d.end_date, d.retired_date) AS end_date, d.valid_from, d.valid_to, NULL AS url
     FROM mcd_document d WHERE ${where}`;
  const indexDocs = (where: string): string =>
    `SELECT 'derived-index' AS origin, d.document_type, d.document_id, d.document_version, d.display_id, d.title, d.note AS status,
            d.effective_date, d.retirement_date AS end_date, d.valid_from, d.valid_to, d.url
     FROM mcd_index_document d WHERE ${where}`;
  const byDisplay =
    '(d.display_id = @id) AND (@date IS NULL OR (d.valid_from <= @date AND (d.valid_to IS NULL OR d.valid_to >= @date)))';
  const docsByDisplay = [
    prepare(['mcd_document'], `${exportDocs(byDisplay)} ORDER BY d.document_version DESC`),
    prepare(['mcd_index_document'], `${indexDocs(byDisplay)} ORDER BY d.document_version DESC`),
  ];
  // The contractor searches below read every version of a contractor's documents; the date is applied in memory
  // (documentsOfContractor), so a night of claims over many dates searches each contractor once.
  const byContractorExport = `EXISTS (
      SELECT 1 FROM mcd_document_contractor x JOIN mcd_contractor c USING (contractor_id, contractor_type_id, contractor_version)
      WHERE x.document_type = d.document_type AND x.document_id = d.document_id AND x.document_version = d.document_version
        AND (c.contractor_number = @contractor OR instr(lower(c.name), lower(@contractor)) > 0))`;
  const byContractorIndex = `EXISTS (
      SELECT 1 FROM mcd_index_contractor x
      WHERE x.document_type = d.document_type AND x.document_id = d.document_id AND x.document_version = d.document_version
        AND instr(lower(x.contractor_name), lower(@contractor)) > 0)`;
  const docsByContractor = [
    prepare(
      ['mcd_document', 'mcd_document_contractor', 'mcd_contractor'],
      `${exportDocs(byContractorExport)} ORDER BY d.display_id, d.document_version`,
    ),
    prepare(
      ['mcd_index_document', 'mcd_index_contractor'],
      `${indexDocs(byContractorIndex)} ORDER BY d.display_id, d.document_version`,
    ),
  ];
  const exportContractors = prepare(
    ['mcd_document_contractor', 'mcd_contractor'],
    `SELECT c.name, t.description AS types, c.contractor_number AS number
     FROM mcd_document_contractor x JOIN mcd_contractor c USING (contractor_id, contractor_type_id, contractor_version)
     LEFT JOIN mcd_contractor_type t ON t.contractor_type_id = c.contractor_type_id
     WHERE x.document_type = @type AND x.document_id = @id AND x.document_version = @version ORDER BY c.contractor_number, c.name`,
  );
  const indexContractors = prepare(
    ['mcd_index_contractor'],
    `SELECT contractor_name AS name, contractor_types AS types, NULL AS number FROM mcd_index_contractor
     WHERE document_type = @type AND document_id = @id AND document_version = @version ORDER BY ord`,
  );
  const codesOf = prepare(
    ['mcd_code'],
    `SELECT code_system, relation, code, code_group, asterisk, description FROM mcd_code
     WHERE document_type = @type AND document_id = @id AND document_version = @version
     ORDER BY relation, code_group, coalesce(sort_order, 0), line`,
  );
  const groupsOf = prepare(
    ['mcd_code_group'],
    `SELECT group_kind, code_group, paragraph, asterisk_text FROM mcd_code_group
     WHERE document_type = @type AND document_id = @id AND document_version = @version ORDER BY group_kind, code_group`,
  );
  const docsForCode = prepare(
    ['mcd_code', 'mcd_document'],
    `SELECT DISTINCT d.document_type, d.document_id, d.document_version, d.display_id, d.title, c.code_system, c.relation, c.code_group,
            s.release
     FROM mcd_code c JOIN mcd_document d
       ON d.document_type = c.document_type AND d.document_id = c.document_id AND d.document_version = c.document_version
     JOIN source s ON s.id = d.source_id
     WHERE c.code = @code AND ${inForce('d')} ORDER BY d.display_id, c.relation, c.code_group`,
  );

  const jurisdictionRows = (where: string): string =>
    `SELECT j.kind, j.jurisdiction, j.mac_name, j.note, j.as_of, j.source_url,
            (SELECT group_concat(state, ',') FROM (SELECT s.state FROM medicare_jurisdiction_state s
               WHERE s.kind = j.kind AND s.jurisdiction = j.jurisdiction AND s.as_of = j.as_of ORDER BY s.state)) AS states
     FROM medicare_jurisdiction j WHERE ${where} ORDER BY j.kind, j.jurisdiction, j.as_of DESC`;
  const jurisdictionsOfState = prepare(
    ['medicare_jurisdiction', 'medicare_jurisdiction_state'],
    jurisdictionRows(
      'EXISTS (SELECT 1 FROM medicare_jurisdiction_state s WHERE s.kind = j.kind AND s.jurisdiction = j.jurisdiction AND s.as_of = j.as_of AND s.state = @state)',
    ),
  );
  const jurisdictionByName = prepare(
    ['medicare_jurisdiction', 'medicare_jurisdiction_state'],
    jurisdictionRows('j.jurisdiction = @jurisdiction'),
  );
  const numbersOf = prepare(
    ['medicare_contractor_number'],
    `SELECT 'cms-pages' AS origin, contractor_number, part, state, area, NULL AS name, as_of, source_url
     FROM medicare_contractor_number WHERE contractor_number = @number OR state = @state ORDER BY part, contractor_number, state`,
  );
  const mcdNumbers = prepare(
    ['mcd_contractor'],
    `SELECT DISTINCT 'mcd-export' AS origin, c.contractor_number, NULL AS part, st.state_abbrev AS state, NULL AS area, c.name,
            NULL AS as_of, NULL AS source_url
     FROM mcd_contractor c
     LEFT JOIN mcd_contractor_state cs USING (contractor_id, contractor_type_id, contractor_version)
     LEFT JOIN mcd_state st ON st.state_id = cs.state_id
     WHERE c.contractor_number = @number OR st.state_abbrev = @state ORDER BY c.contractor_number, state`,
  );

  // Every version of the documents that name a contractor, in the searches' order, kept per contractor string (at
  // most MAX_CONTRACTOR_SEARCHES; emptied past that).
  const contractorDocuments = new Map<string, readonly McdDocument[]>();
  const documentsOfContractor = (contractor: string): readonly McdDocument[] => {
    let docs = contractorDocuments.get(contractor);
    if (docs === undefined) {
      if (contractorDocuments.size >= MAX_CONTRACTOR_SEARCHES) {
        contractorDocuments.clear();
      }
      docs = docsByContractor.flatMap((s) => (s ? (s.all({ contractor }) as DocRow[]).map(toDocument) : []));
      contractorDocuments.set(contractor, docs);
    }
    return docs;
  };
  const contractorsOf = (r: DocRow): McdDocumentContractor[] => {
    const stmt = r.origin === 'export' ? exportContractors : indexContractors;
    return stmt
      ? (stmt.all({ type: r.document_type, id: r.document_id, version: r.document_version }) as McdDocumentContractor[])
      : [];
  };
  const toDocument = (r: DocRow): McdDocument => ({
    origin: r.origin,
    documentType: r.document_type,
    documentId: r.document_id,
    version: r.document_version,
    displayId: r.display_id,
    title: r.title,
    status: r.status,
    effectiveDate: r.effective_date,
    endDate: r.end_date,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    url: r.url,
    contractors: contractorsOf(r),
  });
  const toJurisdiction = (r: {
    kind: 'AB' | 'DME' | 'HHH';
    jurisdiction: string;
    mac_name: string;
    note: string | null;
    as_of: string;
    source_url: string;
    states: string | null;
  }): MacJurisdiction => ({
    kind: r.kind,
    jurisdiction: r.jurisdiction,
    mac: r.mac_name,
    states: r.states ? r.states.split(',') : [],
    note: r.note,
    asOf: r.as_of,
    sourceUrl: r.source_url,
  });
  type NumberRow = {
    origin: 'cms-pages' | 'mcd-export';
    contractor_number: string;
    part: 'A' | 'B' | null;
    state: string | null;
    area: string | null;
    name: string | null;
    as_of: string | null;
    source_url: string | null;
  };
  const toNumber = (r: NumberRow): ContractorNumberFact => ({
    origin: r.origin,
    contractorNumber: r.contractor_number,
    part: r.part,
    state: r.state,
    area: r.area,
    name: r.name,
    asOf: r.as_of,
    sourceUrl: r.source_url,
  });
  const numbers = (number: string | null, state: string | null): ContractorNumberFact[] =>
    [numbersOf, mcdNumbers].flatMap((s) => (s ? (s.all({ number, state }) as NumberRow[]).map(toNumber) : []));

  return {
    mceListsForCode: (code, date) =>
      mceByCode ? (mceByCode.all({ code: normaliseCode(code), date }) as MembershipRow[]).map(toMembership) : [],
    mceListMembers: (list, date) => membersOf(list).filter((m) => inForceOn(m, date)),
    load() {
      membersOf('');
    },
    mceList(list, date) {
      const r = mceListRow?.get({ list, date }) as ListRow | undefined;
      return r
        ? {
            version: r.mce_version,
            list: r.list,
            edit: r.edit,
            section: r.section,
            title: r.title,
            codeType: r.code_type,
            ageMin: r.age_min,
            ageMax: r.age_max,
            sex: r.sex,
            active: r.active === 1,
            inactiveFrom: r.inactive_from,
            fromText: r.from_text === 1,
            ruleText: r.rule_text,
            derived: r.derived === 1,
            codes: r.codes,
            validFrom: r.valid_from,
            validTo: r.valid_to,
          }
        : undefined;
    },
    mceEdits: (date) =>
      mceEditRows
        ? (
            mceEditRows.all({ date }) as {
              mce_version: string;
              edit: string;
              edit_number: number | null;
              title: string;
              active: number;
              inactive_from: string | null;
              derived: number;
              valid_from: string;
              valid_to: string | null;
            }[]
          ).map((r) => ({
            version: r.mce_version,
            edit: r.edit,
            number: r.edit_number,
            title: r.title,
            active: r.active === 1,
            inactiveFrom: r.inactive_from,
            derived: r.derived === 1,
            validFrom: r.valid_from,
            validTo: r.valid_to,
          }))
        : [],
    mcdDocuments: (displayId, date) =>
      docsByDisplay.flatMap((s) =>
        s ? (s.all({ id: displayId.trim().toUpperCase(), date: date ?? null }) as DocRow[]).map(toDocument) : [],
      ),
    mcdDocumentsByContractor: (contractor, date) =>
      documentsOfContractor(contractor.trim()).filter(
        (d) => d.validFrom <= date && (d.validTo === null || d.validTo >= date),
      ),
    mcdCodes: (type, id, version) =>
      codesOf
        ? (
            codesOf.all({ type, id, version }) as {
              code_system: 'HCPCS' | 'ICD10CM';
              relation: 'listed' | 'covered' | 'noncovered';
              code: string;
              code_group: number | null;
              asterisk: string | null;
              description: string | null;
            }[]
          ).map((r) => ({
            codeSystem: r.code_system,
            relation: r.relation,
            code: r.code,
            group: r.code_group,
            asterisk: r.asterisk,
            description: r.description,
          }))
        : [],
    mcdCodeGroups: (type, id, version) =>
      groupsOf
        ? (
            groupsOf.all({ type, id, version }) as {
              group_kind: 'hcpcs' | 'icd10-covered' | 'icd10-noncovered';
              code_group: number;
              paragraph: string | null;
              asterisk_text: string | null;
            }[]
          ).map((r) => ({
            kind: r.group_kind,
            group: r.code_group,
            paragraph: r.paragraph,
            asteriskText: r.asterisk_text,
          }))
        : [],
    mcdDocumentsForCode: (code, date) =>
      docsForCode
        ? (
            docsForCode.all({ code: normaliseCode(code), date }) as {
              document_type: 'LCD' | 'Article';
              document_id: number;
              document_version: number;
              display_id: string;
              title: string;
              code_system: 'HCPCS' | 'ICD10CM';
              relation: 'listed' | 'covered' | 'noncovered';
              code_group: number | null;
              release: string;
            }[]
          ).map((r) => ({
            documentType: r.document_type,
            documentId: r.document_id,
            version: r.document_version,
            displayId: r.display_id,
            title: r.title,
            codeSystem: r.code_system,
            relation: r.relation,
            group: r.code_group,
            release: r.release,
          }))
        : [],
    contractorByNumber: (contractorNumber) => numbers(contractorNumber.trim(), null),
    contractorsByState(state) {
      const st = state.trim().toUpperCase();
      return {
        jurisdictions: jurisdictionsOfState
          ? (jurisdictionsOfState.all({ state: st }) as Parameters<typeof toJurisdiction>[0][]).map(toJurisdiction)
          : [],
        contractorNumbers: numbers(null, st),
      };
    },
    contractorsByJurisdiction: (jurisdiction) =>
      jurisdictionByName
        ? (
            jurisdictionByName.all({ jurisdiction: jurisdiction.trim().toUpperCase() }) as Parameters<
              typeof toJurisdiction
            >[0][]
          ).map(toJurisdiction)
        : [],
  };
}
