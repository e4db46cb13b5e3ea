// Present-on-Admission exempt lists (CDC/NCHS `POAexemptCodesFYnn.zip`): the list itself (`POAexemptCodesFYnn.txt`,
// one row per exempt ICD-10-CM code) and its change lists against the previous year (`POAexemptAddCodesFYnn.txt`,
// `...DeleteCodes...`, `...ReviseCodes...`). Tab-delimited with a header line, dotted codes, CRLF, descriptions
// double-quoted when they hold a comma (ReadMePOAexemptFYnn.txt). Codes are stored undotted.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearStart } from '../builder/dates.js';
import { normaliseCode } from '../../schemas/code-systems.js';
import type { Loader, SourceUnit } from '../builder/types.js';

const MEMBER = /^(?:.*\/)?POAexempt(Add|Delete|Revise)?CodesFY(\d{2})\.txt$/i;

/** Header line of each list (FY2025's full list says `OrdFY25`, the others `Order25`). */
const HEADERS: Record<ListKind, RegExp> = {
  list: /^Ord(?:er)?(?:FY)?\d{2}\tPOAexemptCode\tDescription$/i,
  add: /^Ord(?:er)?(?:FY)?\d{2}\tPOAexemptCode\tDescription$/i,
  delete: /^POAexemptCode\tDescription$/i,
  revise: /^Ord(?:er)?(?:FY)?\d{2}\tAction\tPOAexemptCode\tDescription$/i,
};

type ListKind = 'list' | 'add' | 'delete' | 'revise';

/** A dotted ICD-10-CM code as the lists print it (`B90.0`, `QA0.0101`, `S30.1XXD`). */
const DOTTED_CODE = /^[A-Z][0-9A-Z]{2}(?:\.[0-9A-Z]{1,4})?$/;

const kindOf = (member: string): ListKind | undefined => {
  const m = MEMBER.exec(member);
  if (!m) {
    return undefined;
  }
  return m[1] === undefined ? 'list' : (m[1].toLowerCase() as ListKind);
};

/** A tab-separated field, without the double quotes that wrap descriptions holding a comma. */
function unquote(field: string): string {
  const t = field.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
}

/** One parsed data line of a POA list. */
export interface PoaLine {
  readonly code: string;
  readonly ord: number | null;
  readonly description: string;
  /** For the revise list: `revise-from` (old title) or `revise-to` (new title). */
  readonly action?: 'revise-from' | 'revise-to';
}

/**
 * Parses one data line of a POA exempt list or change list.
 * @returns the fields (code undotted), or a message saying what is wrong
 */
export function parsePoaLine(text: string, kind: ListKind): PoaLine | string {
  const fields = text.split('\t').map(unquote);
  const expected = kind === 'revise' ? 4 : kind === 'delete' ? 2 : 3;
  if (fields.length !== expected) {
    return `expected ${expected} tab-separated fields, found ${fields.length}`;
  }
  const [ordText, actionText, codeText, description] =
    kind === 'revise'
      ? fields
      : kind === 'delete'
        ? [undefined, undefined, fields[0], fields[1]]
        : [fields[0], undefined, fields[1], fields[2]];
  if (ordText !== undefined && !/^\d{1,6}$/.test(ordText)) {
    return `order number ${JSON.stringify(ordText)} is not a number`;
  }
  if (!DOTTED_CODE.test(codeText ?? '')) {
    return `${JSON.stringify(codeText)} is not an ICD-10-CM code`;
  }
  if (!description) {
    return `code ${codeText ?? ''} has no description`;
  }
  const base = {
    code: normaliseCode(codeText ?? ''),
    ord: ordText === undefined ? null : Number(ordText),
    description,
  };
  if (kind !== 'revise') {
    return base;
  }
  const action = /^Revise from:?$/i.test(actionText ?? '')
    ? 'revise-from'
    : /^Revise to:?$/i.test(actionText ?? '')
      ? 'revise-to'
      : undefined;
  return action
    ? { ...base, action }
    : `action ${JSON.stringify(actionText)} is neither "Revise from:" nor "Revise to:"`;
}

export const poaExemptLoader: Loader = {
  name: 'poa-exempt',
  version: 1,
  ddl: `
CREATE TABLE poa_exempt (
  code TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  ord INTEGER NOT NULL,
  description TEXT NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (code, valid_from)
) WITHOUT ROWID;
CREATE TABLE poa_exempt_change (
  code TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('add', 'delete', 'revise-from', 'revise-to')),
  ord INTEGER,
  description TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (source_id, line)
) WITHOUT ROWID;
CREATE INDEX poa_exempt_change_by_code ON poa_exempt_change (code, valid_from);
`,
  async recognise(file, probe) {
    const isZip = /\.zip$/i.test(file.name);
    const names = isZip ? await probe.members() : [file.name];
    const units: SourceUnit[] = [];
    for (const name of names) {
      const m = MEMBER.exec(name);
      const kind = kindOf(name);
      const member = isZip ? name : undefined;
      // Confirm by content: the header line of that list.
      if (m && kind && HEADERS[kind].test((await probe.head(member, 200)).split(/\r?\n/)[0] ?? '')) {
        const fy = 2000 + Number(m[2]);
        units.push({
          dataset: kind === 'list' ? 'icd10cm-poa-exempt' : 'icd10cm-poa-exempt-changes',
          member,
          release: `FY${fy}`,
          validFrom: fiscalYearStart(fy),
        });
      }
    }
    return units;
  },
  async load(ctx) {
    const kind = kindOf(ctx.unit.member ?? ctx.file.name) ?? 'list';
    const insertList = ctx.db.prepare(
      'INSERT INTO poa_exempt (code, valid_from, valid_to, ord, description, source_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertChange = ctx.db.prepare(
      `INSERT INTO poa_exempt_change (code, action, ord, description, valid_from, valid_to, line, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const validTo = ctx.unit.validTo ?? null;
    for await (const { text, lineNo } of readLines(await ctx.open(), 'windows-1252')) {
      if (lineNo === 1) {
        if (!HEADERS[kind].test(text)) {
          throw new ReferenceDataError({ ...pos, line: 1 }, `unexpected header ${JSON.stringify(text.slice(0, 80))}`);
        }
        continue;
      }
      if (text.trim() === '') {
        continue;
      }
      const row = parsePoaLine(text, kind);
      if (typeof row === 'string') {
        throw new ReferenceDataError({ ...pos, line: lineNo }, row);
      }
      try {
        if (kind === 'list') {
          insertList.run(row.code, ctx.unit.validFrom, validTo, row.ord, row.description, ctx.sourceId);
        } else {
          insertChange.run(
            row.code,
            row.action ?? kind,
            row.ord,
            row.description,
            ctx.unit.validFrom,
            validTo,
            lineNo,
            ctx.sourceId,
          );
        }
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `code ${row.code}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      ctx.progress.add(1);
    }
  },
  finalize(db: Database.Database) {
    // A list ends the day before the next year's list starts (the builder derives it per source).
    for (const table of ['poa_exempt', 'poa_exempt_change']) {
      db.exec(`UPDATE ${table} SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = ${table}.source_id)
               WHERE valid_to IS NULL AND source_id IN (SELECT id FROM source WHERE valid_to IS NOT NULL)`);
    }
  },
};
