// Medicare Coverage Database document index (DERIVED, MANIFEST section 7): `documents_latest.csv`, a third-party
// harvest of the CMS Coverage API "reports" listing every active LCD and Article with its version, dates, title and
// contractors. Owns `mcd_index_document` (one row per document version) and `mcd_index_contractor` (the contractors
// a document names, split out of the multi-line `contractor_name_type` cell). Code-level coverage is not in it:
// that comes from the official MCD export (mcd-export.ts). Line numbers are those a (multi-line) record ends on.
import { parse } from 'csv-parse';
import { ReferenceDataError } from '../../errors.js';
import { dayBefore } from '../builder/dates.js';
import type { Loader } from '../builder/types.js';

const ddl = `
CREATE TABLE mcd_index_document (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  display_id TEXT NOT NULL,
  title TEXT NOT NULL,
  contractor_name_type TEXT NOT NULL,
  effective_date TEXT,
  retirement_date TEXT,
  note TEXT,
  updated_on TEXT,
  updated_on_sort TEXT,
  url TEXT,
  derived INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  line INTEGER NOT NULL,
  PRIMARY KEY (document_type, document_id, document_version)
) WITHOUT ROWID;
CREATE INDEX mcd_index_document_by_display ON mcd_index_document (display_id, valid_from);
CREATE TABLE mcd_index_contractor (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  contractor_name TEXT NOT NULL,
  contractor_types TEXT NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (document_type, document_id, document_version, ord)
) WITHOUT ROWID;
CREATE INDEX mcd_index_contractor_by_name ON mcd_index_contractor (contractor_name);
`;

/** The header of `documents_latest.csv`, in its order. */
export const MCD_INDEX_COLUMNS = [
  'contractor_name_type',
  'document_display_id',
  'document_id',
  'document_type',
  'document_version',
  'effective_date',
  'note',
  'retirement_date',
  'title',
  'updated_on',
  'updated_on_sort',
  'url',
] as const;
const HEADER = MCD_INDEX_COLUMNS.join(',');

/** `08/14/2025` → `2025-08-14`; `N/A` and blank → `null`; anything else → `undefined` (malformed). */
export function mcdIndexDate(text: string): string | null | undefined {
  const s = text.trim();
  if (s === '' || s === 'N/A') {
    return null;
  }
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : undefined;
}

/**
 * Splits a `contractor_name_type` cell: `Name\n(MAC - Part A, MAC - Part B)`, several such blocks separated by a
 * blank line for jointly issued documents.
 * @returns the contractors in order, or `undefined` when the cell is not in that form
 */
export function splitContractors(cell: string): { name: string; types: string }[] | undefined {
  const text = cell.replace(/\r\n/g, '\n').trim();
  const out: { name: string; types: string }[] = [];
  let rest = text;
  const block = /^([^\n(][^\n]*)\n\(([^)]*)\)(?:\n\n|$)/;
  while (rest !== '') {
    const m = block.exec(rest);
    if (!m) {
      return undefined;
    }
    out.push({ name: m[1]!.trim(), types: m[2]!.trim() });
    rest = rest.slice(m[0].length);
  }
  return out.length > 0 ? out : undefined;
}

export const mcdIndexLoader: Loader = {
  name: 'mcd-index',
  version: 1,
  ddl,
  async recognise(file, probe) {
    if (!/^documents.*\.csv$/i.test(file.name)) {
      return [];
    }
    // The snapshot date is the newest `updated_on_sort` stamp in the file (read whole: it is under 1 MB).
    const head = await probe.head(undefined, Math.min(file.size, 8 << 20));
    if (head.split(/\r?\n/, 1)[0]?.replace(/^\uFEFF|^ï»¿/, '') !== HEADER) {
      return [];
    }
    let newest = '';
    for (const m of head.matchAll(/,(\d{8})\d{6},https?:/g)) {
      newest = m[1]! > newest ? m[1]! : newest;
    }
    if (newest === '') {
      return [];
    }
    const date = `${newest.slice(0, 4)}-${newest.slice(4, 6)}-${newest.slice(6, 8)}`;
    return [{ dataset: 'mcd-documents-derived', release: date, validFrom: date }];
  },
  async load(ctx) {
    const insertDoc = ctx.db.prepare(
      `INSERT INTO mcd_index_document (document_type, document_id, document_version, display_id, title, contractor_name_type,
         effective_date, retirement_date, note, updated_on, updated_on_sort, url, derived, valid_from, valid_to, source_id, line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    );
    const insertContractor = ctx.db.prepare(
      `INSERT INTO mcd_index_contractor (document_type, document_id, document_version, ord, contractor_name, contractor_types, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const parser = (await ctx.open()).pipe(parse({ bom: true, columns: false, info: true, skip_empty_lines: true }));
    let first = true;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        const line = info.lines;
        if (first) {
          first = false;
          if (record.join(',') !== HEADER) {
            throw new ReferenceDataError(
              { ...pos, line },
              `unexpected header ${JSON.stringify(record.join(',').slice(0, 120))}`,
            );
          }
          continue;
        }
        const f = Object.fromEntries(MCD_INDEX_COLUMNS.map((c, i) => [c, record[i] ?? ''])) as Record<
          (typeof MCD_INDEX_COLUMNS)[number],
          string
        >;
        const bad: (what: string) => never = (what) => {
          throw new ReferenceDataError(
            { ...pos, line },
            `${what} in document ${JSON.stringify(f.document_display_id)}`,
          );
        };
        const type = f.document_type;
        if (type !== 'LCD' && type !== 'Article') {
          bad(`document_type ${JSON.stringify(type)} is neither LCD nor Article`);
        }
        if (!/^\d+$/.test(f.document_id) || !/^\d+$/.test(f.document_version) || f.title.trim() === '') {
          bad('document_id, document_version or title missing or not numeric');
        }
        const effective = mcdIndexDate(f.effective_date);
        const retired = mcdIndexDate(f.retirement_date);
        const updated = mcdIndexDate(f.updated_on);
        if (effective === undefined || retired === undefined || updated === undefined) {
          bad('a date is not MM/DD/YYYY or N/A');
        }
        const contractors = splitContractors(f.contractor_name_type);
        if (!contractors) {
          bad(`contractor_name_type ${JSON.stringify(f.contractor_name_type.slice(0, 80))} is not "name\\n(types)"`);
        }
        const id = Number(f.document_id);
        const version = Number(f.document_version);
        // The MCD retires a document on its retirement date: the last day in force is the day before.
        const validTo = retired ? dayBefore(retired) : null;
        try {
          insertDoc.run(
            type,
            id,
            version,
            f.document_display_id,
            f.title.trim(),
            f.contractor_name_type,
            effective,
            retired,
            f.note || null,
            updated,
            f.updated_on_sort || null,
            f.url || null,
            effective ?? ctx.unit.validFrom,
            validTo,
            ctx.sourceId,
            line,
          );
        } catch (err) {
          throw new ReferenceDataError(
            { ...pos, line },
            `document ${f.document_display_id} v${version}: ${(err as Error).message}`,
            { cause: err },
          );
        }
        contractors.forEach((c, i) => insertContractor.run(type, id, version, i + 1, c.name, c.types, ctx.sourceId));
        ctx.progress.add(1);
      }
    } catch (err) {
      if (err instanceof ReferenceDataError) {
        throw err;
      }
      const line = (err as { lines?: number }).lines;
      throw new ReferenceDataError({ ...pos, line }, `not valid CSV: ${(err as Error).message}`, { cause: err });
    }
    // A version superseded by a later version of the same document ends the day before the later one starts.
    ctx.db
      .prepare(
        `UPDATE mcd_index_document AS d SET valid_to = (
           SELECT date(min(n.valid_from), '-1 day') FROM mcd_index_document n
           WHERE n.document_type = d.document_type AND n.document_id = d.document_id AND n.document_version > d.document_version)
         WHERE d.source_id = ? AND d.valid_to IS NULL AND EXISTS (
           SELECT 1 FROM mcd_index_document n
           WHERE n.document_type = d.document_type AND n.document_id = d.document_id AND n.document_version > d.document_version)`,
      )
      .run(ctx.sourceId);
  },
};
