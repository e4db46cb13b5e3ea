// Medicare Code Editor (MCE) edit code lists: the official "Definitions of Medicare Code Edits" text export
// (v43.1, Windows-1252) and the third-party reshaped v37 table kept as a derived fallback (MANIFEST sections 8, 12).
// Owns `mce_edit` (the edits the manual describes, with their active/discontinued status), `mce_list` (each code
// list with its code type, age and sex limits and rule text), `mce_code` (one row per code per list, the columns
// repeated so a code's edits come back in one lookup) and `mce_change` (chapter 2, the code-list changes).
import { ReferenceDataError } from '../../errors.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearEnd, fiscalYearStart } from '../builder/dates.js';
import type { LoadContext, Loader, SourceUnit } from '../builder/types.js';
import type { MceCodeType } from '../../schemas/policies.js';

const ddl = `
CREATE TABLE mce_edit (
  mce_version TEXT NOT NULL,
  edit TEXT NOT NULL,
  edit_number INTEGER,
  title TEXT NOT NULL,
  active INTEGER NOT NULL,
  inactive_from TEXT,
  derived INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (mce_version, edit)
) WITHOUT ROWID;
CREATE TABLE mce_list (
  mce_version TEXT NOT NULL,
  list TEXT NOT NULL,
  edit TEXT NOT NULL,
  section TEXT NOT NULL,
  title TEXT NOT NULL,
  code_type TEXT,
  age_min INTEGER,
  age_max INTEGER,
  sex TEXT,
  active INTEGER NOT NULL,
  inactive_from TEXT,
  from_text INTEGER NOT NULL,
  rule_text TEXT,
  derived INTEGER NOT NULL,
  codes INTEGER NOT NULL DEFAULT 0,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (mce_version, list)
) WITHOUT ROWID;
CREATE TABLE mce_code (
  mce_version TEXT NOT NULL,
  list TEXT NOT NULL,
  code TEXT NOT NULL,
  edit TEXT NOT NULL,
  list_title TEXT NOT NULL,
  code_type TEXT NOT NULL,
  description TEXT,
  age_min INTEGER,
  age_max INTEGER,
  sex TEXT,
  active INTEGER NOT NULL,
  marked INTEGER NOT NULL,
  derived INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  line INTEGER NOT NULL,
  PRIMARY KEY (mce_version, list, code, line)
) WITHOUT ROWID;
CREATE INDEX mce_code_by_code ON mce_code (code, valid_from);
CREATE TABLE mce_change (
  mce_version TEXT NOT NULL,
  section TEXT NOT NULL,
  edit TEXT,
  list TEXT,
  change TEXT NOT NULL,
  code TEXT NOT NULL,
  code_type TEXT,
  description TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  line INTEGER NOT NULL,
  PRIMARY KEY (mce_version, section, change, code)
) WITHOUT ROWID;
`;

/**
 * The edits of the MCE manual by number, with our stable ids. The number and title are checked against the
 * manual's own edit list; an edit this table does not know gets an id made from its title.
 */
const KNOWN_EDITS: Readonly<Record<number, { id: string; title: string }>> = {
  1: { id: 'invalid-code', title: 'Invalid diagnosis or procedure code' },
  2: { id: 'external-cause-as-principal-dx', title: 'External causes of morbidity codes as principal diagnosis' },
  3: { id: 'duplicate-of-pdx', title: 'Duplicate of PDX' },
  4: { id: 'age-conflict', title: 'Age conflict' },
  5: { id: 'sex-conflict', title: 'Sex conflict' },
  6: { id: 'manifestation-as-principal-dx', title: 'Manifestation code as principal diagnosis' },
  7: { id: 'non-specific-principal-dx', title: 'Non-specific principal diagnosis' },
  8: { id: 'questionable-admission', title: 'Questionable admission' },
  9: { id: 'unacceptable-principal-dx', title: 'Unacceptable principal diagnosis' },
  10: { id: 'non-specific-or-procedure', title: 'Non-specific O.R. procedure' },
  11: { id: 'non-covered-procedure', title: 'Non-covered procedure' },
  12: { id: 'open-biopsy-check', title: 'Open biopsy check' },
  13: { id: 'bilateral-procedure', title: 'Bilateral procedure' },
  14: { id: 'invalid-age', title: 'Invalid age' },
  15: { id: 'invalid-sex', title: 'Invalid sex' },
  16: { id: 'invalid-discharge-status', title: 'Invalid discharge status' },
  17: { id: 'limited-coverage', title: 'Limited coverage' },
  18: { id: 'wrong-procedure-performed', title: 'Wrong procedure performed' },
  19: { id: 'procedure-inconsistent-with-los', title: 'Procedure inconsistent with LOS' },
  20: { id: 'unspecified-code', title: 'Unspecified code' },
};

/**
 * Our ids for the lists of the manual, keyed by section (`4C`, `8B1`, `11D`) and, where one section holds several
 * lists, the role its title line names. Lists not named here get `mce-<section>-<title slug>`.
 */
const KNOWN_LISTS: Readonly<Record<string, { id: string; type?: MceCodeType }>> = {
  '4A': { id: 'age-newborn', type: 'D' },
  '4B': { id: 'age-pediatric', type: 'D' },
  '4C': { id: 'age-maternity', type: 'D' },
  '4D': { id: 'age-adult', type: 'D' },
  '5A': { id: 'sex-female-diagnoses', type: 'D' },
  '5B': { id: 'sex-female-procedures', type: 'P' },
  '5C': { id: 'sex-male-diagnoses', type: 'D' },
  '5D': { id: 'sex-male-procedures', type: 'P' },
  '6': { id: 'manifestation-as-principal-dx', type: 'D' },
  '8A': { id: 'questionable-admission', type: 'D' },
  '8B1': { id: 'questionable-obstetric-cesarean', type: 'P' },
  '8B2': { id: 'questionable-obstetric-vaginal', type: 'P' },
  '8B3': { id: 'questionable-obstetric-outcome', type: 'D' },
  '9': { id: 'unacceptable-principal-dx', type: 'D' },
  '9:requires-secondary': { id: 'unacceptable-principal-dx-requires-secondary-dx', type: 'D' },
  '11A': { id: 'non-covered-a', type: 'P' },
  '11B': { id: 'non-covered-b-diagnoses', type: 'D' },
  '11B:pancreas': { id: 'non-covered-b-pancreas-procedures', type: 'P' },
  '11B:kidney': { id: 'non-covered-b-kidney-procedures', type: 'P' },
  '11C': { id: 'non-covered-c' },
  '11D:procedures': { id: 'non-covered-d-procedures', type: 'P' },
  '11D:diagnoses': { id: 'non-covered-d-diagnoses', type: 'D' },
  '11E': { id: 'non-covered-e' },
  '11F': { id: 'non-covered-f', type: 'P' },
  '11G': { id: 'non-covered-g', type: 'P' },
  '11G:diagnoses': { id: 'non-covered-g-diagnoses', type: 'D' },
  '16': { id: 'valid-discharge-status', type: 'S' },
  '17A': { id: 'limited-coverage-a', type: 'P' },
  '17B': { id: 'limited-coverage-b' },
  '18': { id: 'wrong-procedure-performed', type: 'D' },
  '19': { id: 'procedure-inconsistent-with-los', type: 'P' },
  '20': { id: 'unspecified-code', type: 'D' },
};

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const TITLE_NAME = /^definitions[ _]of[ _]medicare[ _]code[ _]edits.*\.txt$/i;
const VERSION_LINE = /^v(\d+)\.(\d+) ([A-Za-z]+) (\d{4})\s*$/m;
const DERIVED_NAME = /^MCE_Simple_Code_Edits_v(\d+)\.txt$/i;
const DERIVED_HEADER =
  'MCE_Version\tICD_Version\tMCE_Section\tMCE_Subsection\tMCE_Edit_Type\tICD_Code_Type\tICD_Code\tICD_Desc';
/** A code line of the manual: optional `*` mark, the undotted code, an optional stray space, a tab, the description. */
const CODE_LINE = /^(\*?)([A-Z0-9]{3,7}) ?\t(.*)$/;
/** Anything that starts like a code line (one short token, then a tab), to reject malformed code lines. */
const CODE_LIKE = /^\*?[^\s]{1,10} ?\t/;
const SHAPE: Readonly<Record<MceCodeType, RegExp>> = {
  D: /^[A-Z][0-9][0-9A-Z]{1,5}$/,
  P: /^[0-9A-HJ-NP-Z]{7}$/,
  S: /^\d{2}$/,
};

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `10/01/2024` → `2024-10-01`; two-digit years are 20xx; "ICD-10 implementation" is 2015-10-01. */
export function mceDate(text: string): string | undefined {
  if (/ICD-10 implementation/i.test(text)) {
    return '2015-10-01';
  }
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!m) {
    return undefined;
  }
  const year = m[3]!.length === 2 ? `20${m[3]}` : m[3]!;
  return `${year}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

/** The status a heading carries: `(deactivated as of 10/01/2024)`, `(discontinued as of ICD-10 implementation)`. */
function statusOf(title: string): { active: boolean; inactiveFrom: string | undefined } {
  const m = /\((?:deactivated|discontinued) as of ([^)]+)\)/i.exec(title);
  return m ? { active: false, inactiveFrom: mceDate(m[1] ?? '') } : { active: true, inactiveFrom: undefined };
}

function stripStatus(title: string): string {
  return title.replace(/\s*\((?:deactivated|discontinued)[^)]*\)\s*$/i, '').trim();
}

/** Reads the release from the manual's title page: `v43.1 April 2026` → v43.1 from 2026-04-01. */
export function mceReleaseOf(
  head: string,
): { release: string; validFrom: string; validTo: string | undefined } | undefined {
  if (!head.includes('Definitions of Medicare Code Edits')) {
    return undefined;
  }
  const m = VERSION_LINE.exec(head);
  const month = MONTHS.indexOf((m?.[3] ?? '').toLowerCase()) + 1;
  if (!m || month === 0) {
    return undefined;
  }
  const year = Number(m[4]);
  const validFrom = `${year}-${String(month).padStart(2, '0')}-01`;
  // An April point release runs to the end of its fiscal year; an October release ends when the next one starts.
  const validTo = month >= 4 && month < 10 ? fiscalYearEnd(year) : undefined;
  return { release: `v${m[1]}.${m[2]}`, validFrom, validTo };
}

interface ListState {
  id: string;
  edit: string;
  section: string;
  title: string;
  type: MceCodeType | undefined;
  ageMin: number | null;
  ageMax: number | null;
  sex: string | null;
  active: boolean;
  inactiveFrom: string | undefined;
  fromText: boolean;
  ruleText: string | undefined;
  codes: number;
  line: number;
}

/** Writes edits, lists and codes of one unit through prepared statements shared by both formats. */
class MceWriter {
  private readonly insertEdit;
  private readonly insertList;
  private readonly insertCode;
  private readonly insertChange;
  private readonly lists = new Map<string, ListState>();
  /** Active members per list: a code listed twice as active in one list is a broken file. */
  private readonly members = new Map<string, Set<string>>();

  constructor(
    private readonly ctx: LoadContext,
    private readonly version: string,
    private readonly derived: 0 | 1,
  ) {
    const db = ctx.db;
    this.insertEdit = db.prepare(
      `INSERT INTO mce_edit (mce_version, edit, edit_number, title, active, inactive_from, derived, valid_from, valid_to, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertList = db.prepare(
      `INSERT INTO mce_list (mce_version, list, edit, section, title, code_type, age_min, age_max, sex, active, inactive_from,
         from_text, rule_text, derived, codes, valid_from, valid_to, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertCode = db.prepare(
      `INSERT INTO mce_code (mce_version, list, code, edit, list_title, code_type, description, age_min, age_max, sex, active,
         marked, derived, valid_from, valid_to, source_id, line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertChange = db.prepare(
      `INSERT INTO mce_change (mce_version, section, edit, list, change, code, code_type, description, valid_from, valid_to, source_id, line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  fail(line: number, message: string): never {
    throw new ReferenceDataError({ file: this.ctx.file.relPath, member: this.ctx.unit.member, line }, message);
  }

  edit(id: string, num: number | null, title: string, active: boolean, inactiveFrom: string | undefined): void {
    const u = this.ctx.unit;
    this.insertEdit.run(
      this.version,
      id,
      num,
      title,
      active ? 1 : 0,
      inactiveFrom ?? null,
      this.derived,
      u.validFrom,
      u.validTo ?? null,
      this.ctx.sourceId,
    );
    this.ctx.progress.add(1);
  }

  /** Returns the list with this id, creating it from `init` the first time. */
  list(init: ListState): ListState {
    const existing = this.lists.get(init.id);
    if (existing) {
      return existing;
    }
    this.lists.set(init.id, init);
    return init;
  }

  code(
    list: ListState,
    code: string,
    description: string | null,
    marked: boolean,
    active: boolean,
    line: number,
  ): void {
    const type = list.type;
    if (type === undefined) {
      this.fail(line, `cannot tell whether list ${JSON.stringify(list.title)} holds diagnoses or procedures`);
    }
    if (!SHAPE[type].test(code)) {
      this.fail(
        line,
        `${code} is not a ${type === 'D' ? 'diagnosis' : type === 'P' ? 'procedure' : 'discharge status'} code (list ${list.id})`,
      );
    }
    const isActive = list.active && active;
    const seen = this.members.get(list.id) ?? new Set<string>();
    this.members.set(list.id, seen);
    if (isActive && seen.has(code)) {
      this.fail(line, `${code} is listed twice in list ${list.id}`);
    }
    if (isActive) {
      seen.add(code);
    }
    const u = this.ctx.unit;
    try {
      this.insertCode.run(
        this.version,
        list.id,
        code,
        list.edit,
        list.title,
        type,
        description,
        list.ageMin,
        list.ageMax,
        list.sex,
        isActive ? 1 : 0,
        marked ? 1 : 0,
        this.derived,
        u.validFrom,
        u.validTo ?? null,
        this.ctx.sourceId,
        line,
      );
    } catch (err) {
      this.fail(line, `code ${code} in list ${list.id}: ${(err as Error).message}`);
    }
    list.codes++;
    this.ctx.progress.add(1);
  }

  change(
    section: string,
    edit: string | null,
    list: string | null,
    change: string,
    code: string,
    type: MceCodeType | null,
    description: string,
    line: number,
  ): void {
    const u = this.ctx.unit;
    try {
      this.insertChange.run(
        this.version,
        section,
        edit,
        list,
        change,
        code,
        type,
        description,
        u.validFrom,
        u.validTo ?? null,
        this.ctx.sourceId,
        line,
      );
    } catch (err) {
      this.fail(line, `change ${change} ${code}: ${(err as Error).message}`);
    }
    this.ctx.progress.add(1);
  }

  /** Writes the list rows (with their final member counts). */
  flushLists(): void {
    const u = this.ctx.unit;
    for (const l of this.lists.values()) {
      this.insertList.run(
        this.version,
        l.id,
        l.edit,
        l.section,
        l.title,
        l.type ?? null,
        l.ageMin,
        l.ageMax,
        l.sex,
        l.active ? 1 : 0,
        l.inactiveFrom ?? null,
        l.fromText ? 1 : 0,
        l.ruleText ?? null,
        this.derived,
        l.codes,
        u.validFrom,
        u.validTo ?? null,
        this.ctx.sourceId,
      );
      this.ctx.progress.add(1);
    }
  }

  knownList(id: string): ListState | undefined {
    return this.lists.get(id);
  }
}

/** The section's known list (or a generic one), for `section` like `11D` and an optional role. */
function listIdentity(
  editId: string,
  section: string,
  role: string,
  title: string,
): { id: string; type: MceCodeType | undefined } {
  const known = (role ? KNOWN_LISTS[`${section}:${role}`] : undefined) ?? KNOWN_LISTS[section];
  if (known) {
    return { id: known.id, type: known.type };
  }
  const type: MceCodeType | undefined = /procedure/i.test(role || title)
    ? 'P'
    : /diagnos/i.test(role || title)
      ? 'D'
      : undefined;
  return { id: `${editId}-${section.toLowerCase()}-${slug(title)}`.replace(/-+$/, ''), type };
}

/**
 * The title of a list: its own title line, or, where the line before the codes is a sentence of prose, the
 * section's heading (the edit's title when the section has none). The one "requires secondary diagnosis" code is
 * named as the manual's index names it.
 */
function listTitle(lastText: string, role: string, edit: EditState): string {
  if (role === 'requires-secondary') {
    return 'Requires secondary diagnosis';
  }
  const prose = lastText === '' || lastText.length > 80 || /[.:]$/.test(lastText);
  return (prose ? stripStatus(edit.subTitle) || edit.title : lastText).trim();
}

/** The role a list's title line names where one section holds several lists. */
function roleOf(title: string): string {
  if (/^procedures?\b/i.test(title)) {
    return 'procedures';
  }
  if (/^diagnos[ie]s\b/i.test(title)) {
    return 'diagnoses';
  }
  if (/considered "acceptable" when a secondary diagnosis/i.test(title)) {
    return 'requires-secondary';
  }
  return '';
}

interface EditState {
  num: number;
  id: string;
  title: string;
  active: boolean;
  inactiveFrom: string | undefined;
  letter: string;
  subNo: string;
  subTitle: string;
  /** Paragraphs of the current section, joined: the rule text of its lists. */
  text: string[];
  textLine: number;
  /** Age ranges the edit's bullets give, by category name (`Pediatric` → 0..17). */
  ages: Map<string, { min: number; max: number }>;
}

/** Parses the official manual text line by line (chapter 1 lists, chapter 2 changes). */
async function loadManual(ctx: LoadContext): Promise<void> {
  const w: MceWriter = new MceWriter(ctx, ctx.unit.release, 0);
  let phase: 'front' | 'catalogue' | 'body' | 'changes' | 'done' = 'front';
  const catalogue = new Map<number, string>();
  let edit: EditState | undefined;
  let run: ListState | undefined;
  let lastText = '';
  let change: { section: string; edit: string | null; letter: string; action: string | undefined } | undefined;

  const closeSection = (): void => {
    if (!edit) {
      return;
    }
    deriveTextLists(w, edit);
  };

  for await (const { text: raw, lineNo } of readLines(await ctx.open(), 'windows-1252')) {
    const text = raw.trimEnd();
    const trimmed = text.trim();
    if (phase === 'done') {
      break;
    }
    if (phase === 'front') {
      if (trimmed === 'Chapter 1: Edit code lists') {
        phase = 'catalogue';
      }
      continue;
    }
    if (phase === 'catalogue') {
      const m = /^(\d{1,2})\. (.+)$/.exec(trimmed);
      if (m) {
        catalogue.set(Number(m[1]), m[2]!);
      } else if (trimmed === '' && catalogue.size > 0) {
        phase = 'body';
      }
      continue;
    }
    if (phase === 'changes') {
      if (trimmed === 'Index') {
        phase = 'done';
        continue;
      }
      const code = CODE_LINE.exec(text);
      if (code) {
        if (!change?.action) {
          w.fail(lineNo, 'code line in chapter 2 before a "The following codes were added/removed" line');
        }
        const num = Number(/^\d+/.exec(change.section)?.[0]);
        const candidates = listsOfSection(change.section);
        const bare = code[2]!;
        const type: MceCodeType | null = SHAPE.P.test(bare) && /^\d/.test(bare) ? 'P' : SHAPE.D.test(bare) ? 'D' : null;
        const list = candidates.length === 1 ? candidates[0]! : candidates.find((c) => c.type === type);
        w.change(
          change.section,
          change.edit ?? KNOWN_EDITS[num]?.id ?? null,
          list?.id ?? null,
          change.action,
          bare,
          list?.type ?? type,
          code[3]!.trim(),
          lineNo,
        );
        continue;
      }
      if (CODE_LIKE.test(text)) {
        w.fail(lineNo, `not an MCE code line: ${JSON.stringify(text.slice(0, 80))}`);
      }
      const head = /^(\d{1,2})([A-Z]?)\. (.+)$/.exec(trimmed);
      if (head) {
        const num = Number(head[1]);
        change = {
          section: `${num}${head[2]}`,
          edit: KNOWN_EDITS[num]?.id ?? null,
          letter: head[2]!,
          action: undefined,
        };
        continue;
      }
      const action = /the following codes? (?:was|were) (added|removed)/i.exec(trimmed);
      if (action && change) {
        change.action = action[1]!.toLowerCase();
      }
      continue;
    }

    // Chapter 1 body.
    if (trimmed === 'Chapter 2: Code list changes' || trimmed === 'Index') {
      closeSection();
      run = undefined;
      phase = trimmed === 'Index' ? 'done' : 'changes';
      continue;
    }
    const code = CODE_LINE.exec(text);
    if (code) {
      if (!edit) {
        w.fail(lineNo, 'code line before the first edit heading');
      }
      if (!run) {
        const section = `${edit.num}${edit.letter}${edit.subNo}`;
        const role = roleOf(lastText);
        const title = listTitle(lastText, role, edit);
        const { id, type } = listIdentity(edit.id, section, role, title);
        const status = statusOf(edit.subTitle);
        const ages = ageRange(edit, title, lineNo, w);
        run = w.list({
          id,
          edit: edit.id,
          section,
          title: title.trim(),
          type,
          ageMin: ages?.min ?? null,
          ageMax: ages?.max ?? null,
          sex: null,
          active: edit.active && status.active,
          inactiveFrom: edit.inactiveFrom ?? status.inactiveFrom,
          fromText: false,
          ruleText: edit.text.join('\n') || undefined,
          codes: 0,
          line: lineNo,
        });
      }
      w.code(run, code[2]!, code[3]!.trim() || null, code[1] === '*', true, lineNo);
      continue;
    }
    if (CODE_LIKE.test(text)) {
      w.fail(lineNo, `not an MCE code line: ${JSON.stringify(text.slice(0, 80))}`);
    }
    run = undefined;
    if (trimmed === '') {
      continue;
    }
    const heading = /^(\d{1,2})\. (.+)$/.exec(trimmed);
    const num = heading ? Number(heading[1]) : NaN;
    if (heading && catalogue.get(num) === heading[2] && num > (edit?.num ?? 0)) {
      closeSection();
      const title = heading[2]!;
      const known = KNOWN_EDITS[num];
      const id = known && known.title.toLowerCase() === stripStatus(title).toLowerCase() ? known.id : slug(title);
      const status = statusOf(title);
      edit = {
        num,
        id,
        title: stripStatus(title),
        ...status,
        letter: '',
        subNo: '',
        subTitle: '',
        text: [],
        textLine: lineNo,
        ages: new Map(),
      };
      w.edit(id, num, edit.title, status.active, status.inactiveFrom);
      lastText = '';
      continue;
    }
    if (!edit) {
      continue;
    }
    const letter = /^([A-Z])\. (.+)$/.exec(trimmed);
    if (letter) {
      closeSection();
      edit.letter = letter[1]!;
      edit.subNo = '';
      edit.subTitle = letter[2]!;
      edit.text = [trimmed];
      edit.textLine = lineNo;
      lastText = letter[2]!;
      const status = statusOf(letter[2]!);
      if (!status.active) {
        // A discontinued section keeps a list row (no codes) so its status can be looked up.
        const section = `${edit.num}${edit.letter}`;
        const { id, type } = listIdentity(edit.id, section, '', letter[2]!);
        w.list({
          id,
          edit: edit.id,
          section,
          title: stripStatus(letter[2]!),
          type,
          ageMin: null,
          ageMax: null,
          sex: null,
          active: false,
          inactiveFrom: status.inactiveFrom,
          fromText: false,
          ruleText: undefined,
          codes: 0,
          line: lineNo,
        });
      }
      continue;
    }
    const sub = /^(\d)\. (.+)$/.exec(trimmed);
    if (sub && edit.letter !== '') {
      edit.subNo = sub[1]!;
      lastText = sub[2]!;
      continue;
    }
    const status = /^(\d{2}) = (.+)$/.exec(trimmed);
    if (status && edit.num === 16) {
      const list = w.list({
        id: KNOWN_LISTS['16']!.id,
        edit: edit.id,
        section: '16',
        title: 'Valid discharge status codes',
        type: 'S',
        ageMin: null,
        ageMax: null,
        sex: null,
        active: edit.active,
        inactiveFrom: undefined,
        fromText: false,
        ruleText: edit.text.join('\n') || undefined,
        codes: 0,
        line: lineNo,
      });
      const description = status[2]!;
      // "(valid until 9/30/09)" or "(10/01/01–09/30/03 only)": a status no longer valid when this release starts.
      const until = /\(valid until ([\d/]+)\)|\([\d/]+\s*[–-]\s*([\d/]+) only\)/.exec(description);
      const end = until ? mceDate(until[1] ?? until[2] ?? '') : undefined;
      w.code(list, status[1]!, description, false, end === undefined || end >= ctx.unit.validFrom, lineNo);
      continue;
    }
    const bullet = /^\* ([^.]+)\. Age (?:range is (\d+)\s*[–-]\s*(\d+) years|(\d+) years only)/.exec(trimmed);
    if (bullet) {
      const min = Number(bullet[2] ?? bullet[4]);
      const max = Number(bullet[3] ?? bullet[4]);
      edit.ages.set(bullet[1]!.trim().toLowerCase(), { min, max });
    }
    if (edit.text.length === 0) {
      edit.textLine = lineNo;
    }
    edit.text.push(trimmed);
    lastText = trimmed;
  }
  if (phase === 'front' || phase === 'catalogue') {
    w.fail(1, 'no "Chapter 1: Edit code lists" with its list of edits: not the MCE definitions manual');
  }
  if (phase === 'body') {
    closeSection();
  }
  w.flushLists();

  function listsOfSection(section: string): { id: string; type: MceCodeType | undefined }[] {
    return Object.entries(KNOWN_LISTS)
      .filter(([key]) => key === section || key.startsWith(`${section}:`))
      .filter(([, v]) => w.knownList(v.id) !== undefined)
      .map(([, v]) => ({ id: v.id, type: v.type }));
  }
}

/** The age range of an age-conflict list: from its title `(age 9 through 64)`, else the edit's bullet for it. */
function ageRange(
  edit: EditState,
  title: string,
  line: number,
  w: MceWriter,
): { min: number; max: number } | undefined {
  if (edit.id !== 'age-conflict') {
    const over = /over age (\d+)/i.exec(edit.text.join(' '));
    return over ? { min: Number(over[1]) + 1, max: 124 } : undefined;
  }
  const fromTitle = /\(age (\d+) through (\d+)\)/i.exec(title);
  const name =
    title
      .replace(/^[A-Z]\.\s*/, '')
      .split(/\s+/)[0]
      ?.toLowerCase() ?? '';
  const fromBullet = edit.ages.get(name);
  if (fromTitle && fromBullet && (Number(fromTitle[1]) !== fromBullet.min || Number(fromTitle[2]) !== fromBullet.max)) {
    w.fail(
      line,
      `the age range of ${JSON.stringify(title)} differs from the edit's description (${fromBullet.min}-${fromBullet.max})`,
    );
  }
  const range = fromTitle ? { min: Number(fromTitle[1]), max: Number(fromTitle[2]) } : fromBullet;
  if (!range) {
    w.fail(line, `no age range for the age-conflict list ${JSON.stringify(title)}`);
  }
  return range;
}

/**
 * Lists the manual gives in prose rather than as code lines: 11B (pancreas transplant codes, and the kidney
 * transplant codes whose absence makes them non-covered) and 11G (the sterilization diagnosis).
 */
function deriveTextLists(w: MceWriter, edit: EditState): void {
  if (edit.id !== 'non-covered-procedure' || !edit.active) {
    return;
  }
  const text = edit.text.join(' ');
  const descriptions = new Map<string, string>();
  for (const m of text.matchAll(/\b([0-9A-Z]{4,7}) \(([^)]+)\)/g)) {
    descriptions.set(m[1]!, m[2]!);
  }
  const add = (key: string, codes: string[], title: string): void => {
    const known = KNOWN_LISTS[key]!;
    const list = w.list({
      id: known.id,
      edit: edit.id,
      section: key.split(':')[0]!,
      title,
      type: known.type,
      ageMin: null,
      ageMax: null,
      sex: null,
      active: true,
      inactiveFrom: undefined,
      fromText: true,
      ruleText: edit.text.join('\n'),
      codes: 0,
      line: edit.textLine,
    });
    for (const code of codes) {
      w.code(list, code, descriptions.get(code) ?? null, false, true, edit.textLine);
    }
  };
  const codesIn = (s: string): string[] => s.split(/[,\s]+/).filter((c) => c !== '');
  if (edit.letter === 'B') {
    const m = /pancreas transplants \(([^)]+)\) alone \[without kidney transplant codes \(([^)]+)\)\]/.exec(text);
    if (!m) {
      w.fail(edit.textLine, 'section 11B does not name its pancreas and kidney transplant codes in the expected words');
    }
    add('11B:pancreas', codesIn(m[1]!), 'Pancreas transplant procedure codes (named in the edit text)');
    add('11B:kidney', codesIn(m[2]!), 'Kidney transplant procedure codes (named in the edit text)');
  } else if (edit.letter === 'G') {
    const m = /diagnosis code ([A-Z][0-9][0-9A-Z]{1,5}) \(([^)]+)\) is listed/.exec(text);
    if (!m) {
      w.fail(edit.textLine, 'section 11G does not name its diagnosis code in the expected words');
    }
    descriptions.set(m[1]!, m[2]!);
    add('11G:diagnoses', [m[1]!], 'Diagnosis code (named in the edit text)');
  }
}

/** Edit types of the derived v37 table → our edit and list ids (the lists carry the section letter the table gives). */
const DERIVED_TYPES: Readonly<Record<string, { edit: number; sex?: 'F' | 'M' }>> = {
  Newborn_Only: { edit: 4 },
  Pediatric_Only: { edit: 4 },
  Maternity_Only: { edit: 4 },
  Adult_Only: { edit: 4 },
  Female_Only: { edit: 5, sex: 'F' },
  Male_Only: { edit: 5, sex: 'M' },
  Principal_Manifestation: { edit: 6 },
  Principal_Questionable_Admit: { edit: 8 },
  Principal_Unacceptable: { edit: 9 },
  Noncovered_Always: { edit: 11 },
  Noncovered_Over60: { edit: 11 },
  Limited_Coverage: { edit: 17 },
  Wrong_Performed: { edit: 18 },
  Noncovered_LOS_96hr: { edit: 19 },
};

/**
 * Loads the derived v37 table (tab-delimited, header line). It names no age ranges, so age limits stay empty;
 * the sex-conflict lists were active in FY2020 and carry their sex.
 */
async function loadDerived(ctx: LoadContext): Promise<void> {
  const w: MceWriter = new MceWriter(ctx, ctx.unit.release, 1);
  const edits = new Set<number>();
  for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
    if (lineNo === 1) {
      if (text !== DERIVED_HEADER) {
        w.fail(1, `unexpected header ${JSON.stringify(text.slice(0, 80))}`);
      }
      continue;
    }
    if (text.trim() === '') {
      continue;
    }
    const f = text.split('\t');
    const [, icdVersion, sectionNo, subsection, editType, codeType, code, desc] = f;
    const known = DERIVED_TYPES[editType ?? ''];
    if (
      f.length !== 8 ||
      icdVersion !== '10' ||
      !known ||
      String(known.edit) !== sectionNo ||
      (codeType !== 'D' && codeType !== 'P') ||
      !code
    ) {
      w.fail(lineNo, `not a derived MCE row: ${JSON.stringify(text.slice(0, 80))}`);
    }
    const editInfo = KNOWN_EDITS[known.edit]!;
    if (!edits.has(known.edit)) {
      edits.add(known.edit);
      w.edit(editInfo.id, known.edit, editInfo.title, true, undefined);
    }
    const section = `${sectionNo}${subsection === '_' ? '' : (subsection ?? '')}`;
    const { id } = listIdentity(editInfo.id, section, '', editType!);
    const list = w.list({
      id,
      edit: editInfo.id,
      section,
      title: editType!,
      type: codeType,
      ageMin: null,
      ageMax: null,
      sex: known.sex ?? null,
      active: true,
      inactiveFrom: undefined,
      fromText: false,
      ruleText: undefined,
      codes: 0,
      line: lineNo,
    });
    w.code(list, code, desc?.trim() || null, false, true, lineNo);
  }
  w.flushLists();
}

function manualUnit(member: string | undefined, head: string): SourceUnit | undefined {
  const release = mceReleaseOf(head);
  return release ? { dataset: 'mce', member, ...release } : undefined;
}

export const mceLoader: Loader = {
  name: 'mce',
  version: 1,
  ddl,
  async recognise(file, probe) {
    const derived = DERIVED_NAME.exec(file.name);
    if (derived) {
      const n = Number(derived[1]);
      const head = await probe.head(undefined, 400);
      // MCE versions follow the MS-DRG grouper versions: v33 is FY2016, so FY = version + 1983.
      return head.startsWith(DERIVED_HEADER)
        ? [
            {
              dataset: `mce-v${n}-derived`,
              release: `v${n}`,
              validFrom: fiscalYearStart(n + 1983),
              validTo: fiscalYearEnd(n + 1983),
            },
          ]
        : [];
    }
    if (/\.zip$/i.test(file.name)) {
      const units: SourceUnit[] = [];
      for (const member of await probe.members()) {
        if (TITLE_NAME.test(member.split('/').pop() ?? '')) {
          const unit = manualUnit(member, await probe.head(member, 4096));
          if (unit) {
            units.push(unit);
          }
        }
      }
      return units;
    }
    if (!TITLE_NAME.test(file.name)) {
      return [];
    }
    const unit = manualUnit(undefined, await probe.head(undefined, 4096));
    return unit ? [unit] : [];
  },
  async load(ctx) {
    await (ctx.unit.dataset === 'mce' ? loadManual(ctx) : loadDerived(ctx));
  },
  finalize(db) {
    // Releases without their own end date end when the next release starts (the builder derived it on `source`).
    for (const table of ['mce_edit', 'mce_list', 'mce_code', 'mce_change']) {
      db.exec(
        `UPDATE ${table} SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = ${table}.source_id) WHERE valid_to IS NULL`,
      );
    }
  },
};
