// General Equivalence Mappings (CMS/CDC, final release FY2018): diagnosis GEMs `YYYY_I10gem.txt` (ICD-10-CM →
// ICD-9-CM) and `YYYY_I9gem.txt` (ICD-9-CM → ICD-10-CM), procedure GEMs `gem_pcsi9.txt` (ICD-10-PCS → ICD-9-CM)
// and `gem_i9pcs.txt` (ICD-9-CM → ICD-10-PCS), loose or inside their ZIPs. Every row is kept in file order with its
// five flags exactly as printed (GemsTechDoc_2018.pdf; domain.md section 5).
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearStart } from '../builder/dates.js';
import { GemDataset } from '../../schemas/gems.js';
import type { Loader, SourceFile, SourceUnit } from '../builder/types.js';

/** The four GEM files and their datasets. */
const FILES = [
  { pattern: /^(?:.*\/)?(?:(\d{4})_)?I10gem\.txt$/i, dataset: GemDataset.dxBackward },
  { pattern: /^(?:.*\/)?(?:(\d{4})_)?I9gem\.txt$/i, dataset: GemDataset.dxForward },
  { pattern: /^(?:.*\/)?(?:(\d{4})_)?gem_pcsi9\.txt$/i, dataset: GemDataset.pcsBackward },
  { pattern: /^(?:.*\/)?(?:(\d{4})_)?gem_i9pcs\.txt$/i, dataset: GemDataset.pcsForward },
] as const;

/** Three whitespace-separated fields: source, target, five flag digits. */
const GEM_LINE = /^([0-9A-Za-z]{3,7})\s+([0-9A-Za-z]{3,7})\s+(\d{5})\s*$/;

/** No-map targets: `NoDx` (diagnosis GEMs), `NoPCS` and `NoI9` (procedure GEMs). */
const NO_MAP_TARGET = /^No(?:Dx|PCS|I9)$/i;

/** The final GEM release; files whose names carry no year (the loose procedure GEMs) are taken to be this one. */
const FINAL_GEM_YEAR = 2018;

/** One GEM row as printed. */
export interface GemLine {
  readonly source: string;
  /** Upper-cased target code, or `null` for a no-map sentinel (`NoDx`, `NoPCS`, `NoI9`). */
  readonly target: string | null;
  /** The five flag digits exactly as in the file: approximate, no map, combination, scenario, choice list. */
  readonly flags: string;
}

/**
 * Parses one GEM line.
 * @returns the fields, or `undefined` when the line is not `source target flags`
 */
export function parseGemLine(text: string): GemLine | undefined {
  const m = GEM_LINE.exec(text.trim());
  if (!m) {
    return undefined;
  }
  const target = m[2] ?? '';
  return {
    source: (m[1] ?? '').toUpperCase(),
    target: NO_MAP_TARGET.test(target) ? null : target.toUpperCase(),
    flags: m[3] ?? '',
  };
}

function unitFor(name: string, file: SourceFile): SourceUnit | undefined {
  for (const { pattern, dataset } of FILES) {
    const m = pattern.exec(name);
    if (m) {
      // The year is in the member name (2018_I10gem.txt), else in the file or folder name (a GEM year, 2009-2018),
      // else the file is taken to be the final release.
      const year = Number(m[1] ?? /(?:^|\D)(20(?:09|1[0-8]))(?:\D|$)/.exec(file.relPath)?.[1] ?? FINAL_GEM_YEAR);
      return { dataset, release: `FY${year}`, validFrom: fiscalYearStart(year) };
    }
  }
  return undefined;
}

export const gemsLoader: Loader = {
  name: 'gems',
  version: 1,
  ddl: `
CREATE TABLE gem (
  dataset TEXT NOT NULL,
  row_no INTEGER NOT NULL,
  source TEXT NOT NULL,
  target TEXT,
  flags TEXT NOT NULL,
  approximate INTEGER NOT NULL,
  no_map INTEGER NOT NULL,
  combination INTEGER NOT NULL,
  scenario INTEGER NOT NULL,
  choice_list INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (source_id, row_no)
) WITHOUT ROWID;
CREATE INDEX gem_by_source ON gem (dataset, source, valid_from, row_no);
CREATE INDEX gem_by_target ON gem (dataset, target, valid_from, row_no);
`,
  async recognise(file, probe) {
    const isZip = /\.zip$/i.test(file.name);
    const names = isZip ? await probe.members() : [file.name];
    const units: SourceUnit[] = [];
    for (const name of names) {
      const unit = unitFor(name, file);
      // Confirm by content: the first line must be `source target flags` with a 5-digit flag.
      const member = isZip ? name : undefined;
      if (unit && parseGemLine((await probe.head(member, 200)).split(/\r?\n/)[0] ?? '')) {
        units.push({ ...unit, member });
      }
    }
    return units;
  },
  async load(ctx) {
    const insert = ctx.db.prepare(
      `INSERT INTO gem (dataset, row_no, source, target, flags, approximate, no_map, combination, scenario, choice_list, valid_from, valid_to, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
      if (text.trim() === '') {
        continue;
      }
      const row = parseGemLine(text);
      if (!row) {
        throw new ReferenceDataError(
          { ...pos, line: lineNo },
          `not a GEM line (source, target, 5-digit flags): ${JSON.stringify(text.slice(0, 80))}`,
        );
      }
      const f = row.flags;
      insert.run(
        ctx.unit.dataset,
        lineNo,
        row.source,
        row.target,
        f,
        Number(f[0]),
        Number(f[1]),
        Number(f[2]),
        Number(f[3]),
        Number(f[4]),
        ctx.unit.validFrom,
        ctx.unit.validTo ?? null,
        ctx.sourceId,
      );
      ctx.progress.add(1);
    }
  },
  finalize(db: Database.Database) {
    // A release ends the day before the next release of the same dataset (the builder derives it per source).
    db.exec(`UPDATE gem SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = gem.source_id)
             WHERE valid_to IS NULL AND source_id IN (SELECT id FROM source WHERE valid_to IS NOT NULL)`);
  },
};
