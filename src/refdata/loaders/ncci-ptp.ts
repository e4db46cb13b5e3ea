// NCCI procedure-to-procedure edits (domain.md section 9): the CMS Medicare PTP tables, practitioner
// `ccipra-v<VVV>r<R>-f<N>.txt` and hospital `ccioph-v<VVV>r<R>-f<N>.txt`, loose or inside their download ZIPs. Each
// quarter comes in parts f1..f4 split by code range. Tab-delimited, CRLF; a preamble (AMA notice, `Column1/Column2
// Edits`, the header `Column 1<TAB>Column 2<TAB>*=in existence<TAB>Effective<TAB>Deletion<TAB>Modifier<TAB>PTP Edit
// Rationale` and its continuation lines, which begin with a tab), then one edit per line: column 1, column 2, `*`
// when the edit existed before 1996, effective date YYYYMMDD, deletion date YYYYMMDD or `*` (none), modifier
// indicator 0/1/9, rationale. A deletion date is the last day the edit is in force (CMS prints quarter ends such as
// 20141231, as in the AOC file).
//
// Release: version 32.1 (`v321`) is 2026Q2: the major number counts years from 1994 and the minor one quarters from
// 0 (v31.3 is October 2025, v32.0 January 2026). A revision `r1` replaces `r0` of the same version: finalize drops
// the rows of superseded revisions.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { readLines } from '../../readers/lines.js';
import { quarterStart } from '../builder/dates.js';
import { PtpSetting } from '../../schemas/edits.js';
import type { Loader, SourceUnit } from '../builder/types.js';

const FILE = /^(?:.*\/)?cci(pra|oph)-v(\d{2})(\d)r(\d+)-f(\d+)\.txt$/i;
/** The header line that ends the preamble (its legend continues on the following lines, which begin with a tab). */
const HEADER = /^Column 1\tColumn 2\t/i;
const CODE = /^[A-Z0-9]{5}$/;
const YMD = /^(\d{4})(\d{2})(\d{2})$/;

/** What a PTP file name says: table, release, revision and part. */
export interface PtpFileName {
  readonly setting: PtpSetting;
  readonly release: string;
  readonly validFrom: string;
  readonly version: string;
  readonly revision: number;
  readonly part: number;
}

/**
 * Reads a PTP file or member name such as `ccipra-v321r0-f1.txt`.
 * @returns its parts, or `undefined` when the name is not a Medicare PTP table
 */
export function parsePtpFileName(name: string): PtpFileName | undefined {
  const m = FILE.exec(name);
  if (!m) {
    return undefined;
  }
  const year = 1994 + Number(m[2]);
  const quarter = Number(m[3]) + 1;
  if (quarter > 4) {
    return undefined;
  }
  return {
    setting: (m[1] ?? '').toLowerCase() === 'pra' ? PtpSetting.practitioner : PtpSetting.hospital,
    release: `${year}Q${quarter}`,
    validFrom: quarterStart(year, quarter),
    version: `${m[2] ?? ''}.${m[3] ?? ''}`,
    revision: Number(m[4]),
    part: Number(m[5]),
  };
}

/** One parsed edit. */
export interface PtpRecord {
  readonly column1: string;
  readonly column2: string;
  readonly pre1996: boolean;
  readonly effective: string;
  readonly deleted: string | null;
  readonly modifierIndicator: 0 | 1 | 9;
  readonly rationale: string | null;
}

const ymdToIso = (s: string): string | undefined => {
  const m = YMD.exec(s);
  if (!m) {
    return undefined;
  }
  const iso = `${m[1] ?? ''}-${m[2] ?? ''}-${m[3] ?? ''}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso) ? iso : undefined;
};

/**
 * Validates one data line of a PTP table.
 * @returns the edit, or a message saying what is wrong
 */
export function parsePtpLine(text: string): PtpRecord | string {
  const fields = text.split('\t').map((f) => f.trim());
  while (fields.length > 7 && fields[fields.length - 1] === '') {
    fields.pop();
  }
  if (fields.length < 6 || fields.length > 7) {
    return `expected 7 tab-separated fields (column 1, column 2, *, effective, deletion, modifier, rationale), found ${fields.length}`;
  }
  const [c1 = '', c2 = '', star = '', eff = '', del = '', mod = '', rationale = ''] = fields;
  const column1 = c1.toUpperCase();
  const column2 = c2.toUpperCase();
  if (!CODE.test(column1) || !CODE.test(column2)) {
    return `column 1 ${JSON.stringify(c1)} / column 2 ${JSON.stringify(c2)}: expected two 5-character HCPCS/CPT codes`;
  }
  const pair = `${column1}/${column2}`;
  if (star !== '' && star !== '*') {
    return `${pair}: the prior-to-1996 field holds ${JSON.stringify(star)}, expected * or nothing`;
  }
  const effective = ymdToIso(eff);
  if (!effective) {
    return `${pair}: effective date ${JSON.stringify(eff)} is not a date YYYYMMDD`;
  }
  // `*` is the file's "no data"; a blank deletion date is read the same way.
  const deleted = del === '*' || del === '' ? null : ymdToIso(del);
  if (deleted === undefined) {
    return `${pair}: deletion date ${JSON.stringify(del)} is not a date YYYYMMDD or *`;
  }
  if (mod !== '0' && mod !== '1' && mod !== '9') {
    return `${pair}: modifier indicator ${JSON.stringify(mod)} is not 0, 1 or 9`;
  }
  return { column1, column2, pre1996: star === '*', effective, deleted, modifierIndicator: Number(mod) as 0 | 1 | 9, rationale: rationale || null };
}

/** Drops the rows of a revision that a later revision of the same table version replaces. */
function dropSupersededRevisions(db: Database.Database): void {
  const sources = db.prepare("SELECT id, file, member FROM source WHERE loader = 'ncci-ptp'").all() as {
    id: number;
    file: string;
    member: string | null;
  }[];
  const named = sources.flatMap((s) => {
    const n = parsePtpFileName(s.member ?? s.file);
    return n ? [{ id: s.id, key: `${n.setting}|${n.version}`, revision: n.revision }] : [];
  });
  const remove = db.prepare('DELETE FROM ncci_ptp WHERE source_id = ?');
  for (const s of named) {
    if (named.some((o) => o.key === s.key && o.revision > s.revision)) {
      remove.run(s.id);
    }
  }
}

export const ncciPtpLoader: Loader = {
  name: 'ncci-ptp',
  version: 1,
  ddl: `
CREATE TABLE ncci_ptp (
  setting TEXT NOT NULL,
  column1 TEXT NOT NULL,
  column2 TEXT NOT NULL,
  pre_1996 INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  modifier_indicator INTEGER NOT NULL,
  rationale TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE INDEX ncci_ptp_by_pair ON ncci_ptp (setting, column1, column2);
`,
  async recognise(file, probe) {
    const candidates = /\.zip$/i.test(file.name) ? await probe.members() : [undefined];
    const units: SourceUnit[] = [];
    for (const member of candidates) {
      const named = parsePtpFileName(member ?? file.name);
      if (!named) {
        continue;
      }
      // Confirm by content: the header line stands within the first lines.
      const head = (await probe.head(member, 2048)).split(/\r?\n/).slice(0, 10);
      if (head.some((l) => HEADER.test(l))) {
        units.push({ dataset: `ncci-ptp-${named.setting}`, member, release: named.release, validFrom: named.validFrom });
      }
    }
    return units;
  },
  async load(ctx) {
    const named = parsePtpFileName(ctx.unit.member ?? ctx.file.name);
    if (!named) {
      throw new ReferenceDataError({ file: ctx.file.relPath, member: ctx.unit.member }, 'not a PTP table name');
    }
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const insert = ctx.db.prepare(
      `INSERT INTO ncci_ptp (setting, column1, column2, pre_1996, valid_from, valid_to, modifier_indicator, rationale, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let phase: 'preamble' | 'legend' | 'data' = 'preamble';
    let batch = 0;
    for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
      if (phase === 'preamble') {
        if (HEADER.test(text)) {
          phase = 'legend';
        } else if (lineNo >= 10) {
          throw new ReferenceDataError({ ...pos, line: lineNo }, 'expected the header line "Column 1<TAB>Column 2<TAB>…" within the first 10 lines');
        }
        continue;
      }
      if (text.trim() === '') {
        continue;
      }
      if (phase === 'legend' && text.startsWith('\t')) {
        continue;
      }
      phase = 'data';
      const rec = parsePtpLine(text);
      if (typeof rec === 'string') {
        throw new ReferenceDataError({ ...pos, line: lineNo }, rec);
      }
      insert.run(named.setting, rec.column1, rec.column2, rec.pre1996 ? 1 : 0, rec.effective, rec.deleted, rec.modifierIndicator, rec.rationale, ctx.sourceId);
      if (++batch === 1000) {
        ctx.progress.add(batch);
        batch = 0;
      }
    }
    ctx.progress.add(batch);
    if (phase === 'preamble') {
      throw new ReferenceDataError(pos, 'no header line "Column 1<TAB>Column 2<TAB>…" found');
    }
  },
  finalize: dropSupersededRevisions,
};
