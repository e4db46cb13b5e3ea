// ICD-10-CM and ICD-10-PCS order files ("Code Descriptions in Tabular Order", "Order File (Long and Abbreviated
// Titles)"), read from inside the CMS release ZIPs. Fixed width (domain.md section 2): order number 1-5, code 7-13,
// billable flag 15, short title 17-76, long title 78-end. Every row goes to `code_release`; the core finalize step
// merges releases into validity intervals.
import { ReferenceDataError } from '../../errors.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearStart } from '../builder/dates.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { Loader, SourceUnit } from '../builder/types.js';

const ORDER_LINE = /^(\d{5}) ([A-Z0-9]{3,7}) {0,4} ([01]) (.{1,60})(?: (.*))?$/;


function unitsFor(member: string): SourceUnit | undefined {
  const m = /^(?:.*\/)?icd10(cm|pcs)_order_(\d{4})\.txt$/i.exec(member);
  if (!m) {
    return undefined;
  }
  const fy = Number(m[2]);
  const cm = m[1]?.toLowerCase() === 'cm';
  return {
    dataset: cm ? 'icd10cm-order' : 'icd10pcs-order',
    member,
    release: `FY${fy}`,
    validFrom: fiscalYearStart(fy),
  };
}

/**
 * Parses one order-file line.
 * @returns the fields, or `undefined` when the line is not in the fixed-width layout
 */
export function parseOrderLine(text: string): { ord: number; code: string; billable: 0 | 1; short: string; long: string } | undefined {
  const m = ORDER_LINE.exec(text);
  if (!m) {
    return undefined;
  }
  const short = (m[4] ?? '').trimEnd();
  return { ord: Number(m[1]), code: m[2] ?? '', billable: m[3] === '1' ? 1 : 0, short, long: (m[5] ?? '').trim() || short };
}

export const icd10OrderLoader: Loader = {
  name: 'icd10-order',
  version: 1,
  ddl: '',
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      const unit = unitsFor(file.name);
      return unit ? [{ ...unit, member: undefined }] : [];
    }
    const units: SourceUnit[] = [];
    for (const member of await probe.members()) {
      const unit = unitsFor(member);
      // Confirm by content: the first line must be an order-file record.
      if (unit && parseOrderLine((await probe.head(member, 400)).split(/\r?\n/)[0] ?? '')) {
        units.push(unit);
      }
    }
    return units;
  },
  async load(ctx) {
    const system = ctx.unit.dataset === 'icd10cm-order' ? CodeSystem.ICD10CM : CodeSystem.ICD10PCS;
    const insert = ctx.db.prepare(
      `INSERT INTO code_release (system, code, valid_from, valid_to, billable, short_title, long_title, ord, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
      if (text.trim() === '') {
        continue;
      }
      const row = parseOrderLine(text);
      if (!row) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `not an order-file record: ${JSON.stringify(text.slice(0, 80))}`);
      }
      try {
        insert.run(system, row.code, ctx.unit.validFrom, ctx.unit.validTo ?? null, row.billable, row.short, row.long, row.ord, ctx.sourceId);
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `code ${row.code}: ${(err as Error).message}`, { cause: err });
      }
      ctx.progress.add(1);
    }
  },
};
