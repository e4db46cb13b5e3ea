// A user-supplied CPT descriptor file (CPT is AMA content: the product ships none; domain.md section 6). A CSV named
// `cpt*.csv` whose first line is exactly `code,short,long,validFrom,validTo` (or the domain.md spelling
// `code,shortDescription,longDescription,effectiveDate,terminationDate`); validTo may be left empty. Each row
// carries its own dates, so rows go straight into the `code` table (system CPT), not through `code_release`.
import { parse, type CsvError, type Info } from 'csv-parse';
import { ReferenceDataError } from '../../errors.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { Loader } from '../builder/types.js';

/** The header lines accepted, exactly (after an optional UTF-8 byte-order mark). */
export const CPT_HEADERS = [
  'code,short,long,validFrom,validTo',
  'code,shortDescription,longDescription,effectiveDate,terminationDate',
] as const;

const FILE = /^cpt.*\.csv$/i;
/** CPT code shape: 5 digits (Category I), or 4 digits and F (Category II), T (Category III) or U (PLA). */
const CPT_CODE = /^(?:\d{5}|\d{4}[FTU])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const isIsoDate = (s: string): boolean => {
  const d = new Date(`${s}T00:00:00Z`);
  return ISO_DATE.test(s) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

/** One validated descriptor row. */
export interface CptRow {
  readonly code: string;
  readonly short: string | null;
  readonly long: string | null;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/**
 * Validates one CSV record (after the header) of a CPT descriptor file.
 * @returns the row, or a message saying what is wrong
 */
export function parseCptRecord(fields: readonly string[]): CptRow | string {
  if (fields.length !== 5) {
    return `expected 5 fields (code, short, long, validFrom, validTo), found ${fields.length}`;
  }
  const [codeText, shortText, longText, fromText, toText] = fields.map((f) => f.trim());
  const code = (codeText ?? '').toUpperCase();
  if (!CPT_CODE.test(code)) {
    return `code ${JSON.stringify(codeText)} is not a CPT code (5 digits, or 4 digits and F, T or U)`;
  }
  if (!shortText && !longText) {
    return `code ${code} has neither a short nor a long descriptor`;
  }
  if (!isIsoDate(fromText ?? '')) {
    return `code ${code}: validFrom ${JSON.stringify(fromText)} is not a date YYYY-MM-DD`;
  }
  if (toText && !isIsoDate(toText)) {
    return `code ${code}: validTo ${JSON.stringify(toText)} is not a date YYYY-MM-DD`;
  }
  if (toText && toText < (fromText ?? '')) {
    return `code ${code}: validTo ${toText} is before validFrom ${fromText ?? ''}`;
  }
  return { code, short: shortText || null, long: longText || null, validFrom: fromText ?? '', validTo: toText || null };
}

const firstLine = (head: string): string =>
  (head.replace(/^\u00ef\u00bb\u00bf|^\ufeff/, '').split(/\r?\n/)[0] ?? '').trim();

export const cptUserLoader: Loader = {
  name: 'cpt-user',
  version: 1,
  ddl: '',
  async recognise(file, probe) {
    if (
      !FILE.test(file.name) ||
      !(CPT_HEADERS as readonly string[]).includes(firstLine(await probe.head(undefined, 400)))
    ) {
      return [];
    }
    // The unit is dated by its earliest row (each row keeps its own dates); the load validates every row.
    const text = await probe.head(undefined, Math.min(file.size, 64 * 1024 * 1024));
    const dates = [...text.matchAll(/(?<=,)"?(\d{4}-\d{2}-\d{2})"?(?=,|\r?\n|$)/g)]
      .map((m) => m[1] ?? '')
      .filter(isIsoDate);
    const validFrom = dates.sort()[0] ?? '1900-01-01';
    return [{ dataset: 'cpt-user', release: file.name.replace(/\.csv$/i, ''), validFrom }];
  },
  async load(ctx) {
    const insert = ctx.db.prepare(
      `INSERT INTO code (system, code, valid_from, valid_to, billable, short_title, long_title, ord, first_source_id, last_source_id)
       VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    /** Intervals per code so far, to refuse two rows of one code that overlap in time. */
    const seen = new Map<string, { from: string; to: string | null; line: number }[]>();
    const parser = (await ctx.open()).pipe(
      parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }),
    );
    let line = 0;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
        line = info.lines;
        if (info.records === 1) {
          if (!(CPT_HEADERS as readonly string[]).includes(record.join(',').trim())) {
            throw new ReferenceDataError({ ...pos, line }, `expected the header ${CPT_HEADERS[0]}`);
          }
          continue;
        }
        // A row may leave out its trailing empty validTo field.
        const row = parseCptRecord(record.length === 4 ? [...record, ''] : record);
        if (typeof row === 'string') {
          throw new ReferenceDataError({ ...pos, line }, row);
        }
        const intervals = seen.get(row.code) ?? [];
        const clash = intervals.find(
          (i) => (i.to === null || i.to >= row.validFrom) && (row.validTo === null || row.validTo >= i.from),
        );
        if (clash) {
          throw new ReferenceDataError(
            { ...pos, line },
            `code ${row.code}: dates overlap the row on line ${clash.line}`,
          );
        }
        intervals.push({ from: row.validFrom, to: row.validTo, line });
        seen.set(row.code, intervals);
        try {
          insert.run(
            CodeSystem.CPT,
            row.code,
            row.validFrom,
            row.validTo,
            row.short,
            row.long,
            ctx.sourceId,
            ctx.sourceId,
          );
        } catch (err) {
          throw new ReferenceDataError({ ...pos, line }, `code ${row.code}: ${(err as Error).message}`, { cause: err });
        }
        ctx.progress.add(1);
      }
    } catch (err) {
      if (err instanceof ReferenceDataError) {
        throw err;
      }
      const csv = err as CsvError;
      // An unclosed quote is only noticed at the end of the file: point at the record that opened it.
      const at = csv.code === 'CSV_QUOTE_NOT_CLOSED' || typeof csv.lines !== 'number' ? line + 1 : csv.lines;
      throw new ReferenceDataError({ ...pos, line: at }, `not valid CSV: ${csv.message}`, { cause: err });
    }
  },
};
