// The CDC Table of Drugs and Chemicals as CSV (`icd10cm-drug-April-2025.csv`, Windows-1252, CRLF): a title line,
// the header (`Substance`, four poisoning columns, `Adverse effect`, `Underdosing`), then one row per term. Sub-terms
// are indented with one en dash (0x96) per level, references are written into the substance (`Adrenalin -see
// Adrenaline`), `--` means no code, and the header repeats at a page break. Loaded into the index tables as its own
// dataset; the queries prefer the XML table and fall back to this one (the CSV drops a few rows, see its test).
import { parse } from 'csv-parse';
import { Transform, type TransformCallback } from 'node:stream';
import { ReferenceDataError } from '../../errors.js';
import { fiscalYearStart } from '../builder/dates.js';
import type { Loader, SourceUnit } from '../builder/types.js';
import { DRUG_CSV_DATASET, PATH_SEPARATOR, squash } from '../../schemas/index-terms.js';
import { createIndexWriter, finalizeIndexTerms, indexDdl, normaliseIndexCode, type TermRow } from './icd10cm-index.js';

const NAME = /(?:^|\/)icd-?10-?cm[-_]drug[-_]?(?:(jan(?:uary)?|apr(?:il)?|jul(?:y)?|oct(?:ober)?)[-_]?)?(\d{4})\.csv$/i;
const MONTHS: Readonly<Record<string, number>> = { jan: 1, apr: 4, jul: 7, oct: 10 };
const INDENT = /^(?:\u2013\s*)+/u;

/**
 * The release a drug CSV's name gives: `icd10cm-drug-April-2025.csv` is the April 1, 2025 update of FY2025
 * (`FY2025-April`, from 2025-04-01); a name with a year only is that fiscal year's October release.
 */
export function drugCsvRelease(name: string): Omit<SourceUnit, 'dataset' | 'member'> | undefined {
  const m = NAME.exec(name);
  if (!m) {
    return undefined;
  }
  const year = Number(m[2]);
  const month = m[1] === undefined ? undefined : MONTHS[m[1].slice(0, 3).toLowerCase()];
  if (month === undefined || month === 10) {
    const fy = month === 10 ? year + 1 : year;
    return { release: `FY${fy}`, validFrom: fiscalYearStart(fy) };
  }
  const label = (m[1] ?? '').slice(0, 1).toUpperCase() + (m[1] ?? '').slice(1).toLowerCase();
  return { release: `FY${year}-${label}`, validFrom: `${year}-${String(month).padStart(2, '0')}-01` };
}

/** One CSV substance cell split into its level, title and reference. */
export interface DrugCsvSubstance {
  readonly level: number;
  readonly title: string;
  readonly see: string | null;
  readonly seeAlso: string | null;
}

/** Splits a substance cell: `– – vapor` is level 2; `Adrenalin -see Adrenaline` refers to Adrenaline. */
export function parseDrugCsvSubstance(text: string): DrugCsvSubstance {
  const indent = INDENT.exec(text)?.[0] ?? '';
  const level = (indent.match(/\u2013/gu) ?? []).length;
  let title = squash(text.slice(indent.length));
  let see: string | null = null;
  let seeAlso: string | null = null;
  const also = /\s+-see also\s+(.*)$/.exec(title);
  const plain = also ? undefined : /\s+-see\s+(.*)$/.exec(title);
  if (also) {
    seeAlso = squash(also[1] ?? '');
    title = title.slice(0, also.index);
  } else if (plain) {
    see = squash(plain[1] ?? '');
    title = title.slice(0, plain.index);
  }
  return { level, title: title.trim(), see, seeAlso };
}

/** Re-encodes Windows-1252 bytes as UTF-8 for csv-parse (single-byte, so chunks never split a character). */
class Windows1252 extends Transform {
  private readonly decoder = new TextDecoder('windows-1252');
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    done(null, this.decoder.decode(chunk, { stream: true }));
  }
}

/** CDC Table of Drugs and Chemicals CSV. */
export const icd10cmDrugCsvLoader: Loader = {
  name: DRUG_CSV_DATASET,
  version: 1,
  ddl: indexDdl,
  async recognise(file, probe) {
    const release = drugCsvRelease(file.name);
    if (!release) {
      return [];
    }
    const [title = '', header = ''] = (await probe.head(undefined, 2048)).split(/\r?\n/);
    return /TABLE of DRUGS/i.test(title) && /^Substance,/i.test(header)
      ? [{ dataset: DRUG_CSV_DATASET, ...release }]
      : [];
  },
  async load(ctx) {
    const writer = createIndexWriter(ctx, 'drug');
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const stack: Omit<TermRow, 'endId'>[] = [];
    let header: string[] | undefined;
    const flush = (depth: number): void => {
      while (stack.length > depth) {
        const row = stack.pop();
        if (row) {
          writer.term({ ...row, endId: writer.lastId() });
        }
      }
    };
    const parser = (await ctx.open())
      .pipe(new Windows1252())
      .pipe(parse({ relax_column_count: true, info: true, bom: true }));
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      const fail = (message: string): never => {
        throw new ReferenceDataError({ ...pos, line }, message);
      };
      if (line === 1) {
        continue; // the table's title
      }
      if (!header) {
        header = record;
        if (record[0] !== 'Substance' || record.length < 7) {
          fail(`expected the header "Substance,..." with 7 columns, got ${JSON.stringify(record.join(','))}`);
        }
        record.slice(1, 7).forEach((h, i) => writer.heading(i + 2, squash(h)));
        writer.heading(1, squash(record[0] ?? ''));
        continue;
      }
      if (record.every((v) => v.trim() === '')) {
        continue;
      }
      if (record.join(',') === header.join(',')) {
        continue; // the header again, at a page break
      }
      if (record.length > 8 || (record[7] ?? '').trim() !== '') {
        fail(`expected 7 columns, got ${record.length}`);
      }
      const s = parseDrugCsvSubstance(record[0] ?? '');
      if (s.title === '') {
        fail('empty substance');
      }
      if (s.level > stack.length) {
        fail(`sub-term at level ${s.level} under a term of level ${stack.length - 1}`);
      }
      flush(s.level);
      const parent = stack.at(-1);
      const cells: { col: number; code: string | null; written: string }[] = [];
      for (let i = 1; i <= 6; i++) {
        const written = (record[i] ?? '').trim();
        if (written === '') {
          continue;
        }
        const code =
          written === '--'
            ? null
            : (normaliseIndexCode(written) ?? fail(`column ${i + 1} is not a code: ${JSON.stringify(written)}`));
        cells.push({ col: i + 1, code, written });
      }
      stack.push({
        id: writer.nextId(),
        parentId: parent?.id ?? null,
        level: s.level,
        title: s.title,
        nemod: null,
        display: s.title,
        path: parent ? `${parent.path}${PATH_SEPARATOR}${s.title}` : s.title,
        code: null,
        codeAsWritten: null,
        codeKind: null,
        manif: null,
        manifAsWritten: null,
        see: s.see,
        seeAlso: s.seeAlso,
        use: null,
        line,
        cells,
      });
    }
    flush(0);
    if (!header) {
      throw new ReferenceDataError(pos, 'no header line');
    }
  },
  finalize: finalizeIndexTerms,
};
