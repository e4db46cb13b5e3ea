// ICD-9-CM master descriptions (CMS "ICD-9-CM-v32-master-descriptions.zip"): diagnoses (`CMS32_DESC_*_DX.txt`) and
// procedures (`CMS32_DESC_*_SG.txt`), each as a long-title and a short-title member. One unit per system: the long
// member, with its short twin read alongside, so each code gets one `code_release` row carrying both titles.
// Layout (domain.md section 4): undotted code padded to 5 (DX) or 4 (SG), a space, the title; ISO-8859-1.
import { ReferenceDataError } from '../../errors.js';
import { openBytes, zipMembers } from '../../readers/byte-source.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearEnd, fiscalYearStart } from '../builder/dates.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { LoadContext, Loader, SourceUnit } from '../builder/types.js';

const LONG_MEMBER = /^(?:.*\/)?CMS(\d{2})_DESC_LONG_(DX|SG)\.txt$/i;

/** Code width and shape per kind: DX `0010`, `25000`, `V0101`, `E0000`; SG (procedures) `001`, `0001`. */
const LAYOUT = {
  DX: { width: 5, code: /^(?:\d{3,5}|V\d{2,4}|E\d{3,4})$/ },
  SG: { width: 4, code: /^\d{3,4}$/ },
} as const;

type Kind = keyof typeof LAYOUT;

/**
 * Parses one line of a CMS ICD-9-CM description file.
 * @param text - the line, decoded as latin1
 * @param kind - `DX` (diagnoses) or `SG` (procedures)
 * @returns code and title, or `undefined` when the line is not in the layout
 */
export function parseIcd9Line(text: string, kind: Kind): { code: string; title: string } | undefined {
  const { width, code: shape } = LAYOUT[kind];
  const code = text.slice(0, width).trimEnd();
  const title = text.slice(width + 1).trim();
  if (text.charAt(width) !== ' ' || !shape.test(code) || title === '') {
    return undefined;
  }
  return { code, title };
}

/** ICD-9-CM version `v32` was FY2015: version n took effect on Oct 1 of FY (n + 1983) and ran one fiscal year. */
function releaseOf(version: number): { release: string; validFrom: string; validTo: string } {
  const fy = version + 1983;
  return { release: `v${version}`, validFrom: fiscalYearStart(fy), validTo: fiscalYearEnd(fy) };
}

function shortTwin(member: string, members: readonly string[]): string | undefined {
  const wanted = member.replace(/_LONG_/i, '_SHORT_').toLowerCase();
  return members.find((m) => m.toLowerCase() === wanted);
}

/** Reads the short-title member whole (at most ~15k short lines) into code → short title. */
async function readShortTitles(
  ctx: LoadContext,
  member: string,
  kind: Kind,
): Promise<Map<string, { title: string; line: number }>> {
  const titles = new Map<string, { title: string; line: number }>();
  const opened = await openBytes({ path: ctx.file.path, member });
  try {
    for await (const { text, lineNo } of readLines(opened.stream, 'latin1')) {
      if (text.trim() === '') {
        continue;
      }
      const row = parseIcd9Line(text, kind);
      if (!row) {
        throw new ReferenceDataError(
          { file: ctx.file.relPath, member, line: lineNo },
          `not an ICD-9-CM ${kind} description line: ${JSON.stringify(text.slice(0, 80))}`,
        );
      }
      if (titles.has(row.code)) {
        throw new ReferenceDataError(
          { file: ctx.file.relPath, member, line: lineNo },
          `code ${row.code} is listed twice`,
        );
      }
      titles.set(row.code, { title: row.title, line: lineNo });
    }
  } finally {
    await opened.close();
  }
  return titles;
}

export const icd9cmLoader: Loader = {
  name: 'icd9cm',
  version: 1,
  ddl: '',
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      return [];
    }
    const members = await probe.members();
    const units: SourceUnit[] = [];
    for (const member of members) {
      const m = LONG_MEMBER.exec(member);
      if (!m || !shortTwin(member, members)) {
        continue;
      }
      const kind = (m[2] ?? '').toUpperCase() as Kind;
      // Confirm by content: the first line must be a description line of that kind.
      if (parseIcd9Line((await probe.head(member, 400)).split(/\r?\n/)[0] ?? '', kind)) {
        units.push({ dataset: kind === 'DX' ? 'icd9cm-dx' : 'icd9cm-proc', member, ...releaseOf(Number(m[1])) });
      }
    }
    return units;
  },
  async load(ctx) {
    const member = ctx.unit.member ?? '';
    const m = LONG_MEMBER.exec(member);
    if (!m) {
      throw new ReferenceDataError({ file: ctx.file.relPath, member }, 'not a CMS ICD-9-CM long-description member');
    }
    const kind = (m[2] ?? '').toUpperCase() as Kind;
    const system = kind === 'DX' ? CodeSystem.ICD9CM_DX : CodeSystem.ICD9CM_PROC;
    const shortMember = shortTwin(member, await zipMembers(ctx.file.path));
    if (shortMember === undefined) {
      throw new ReferenceDataError(
        { file: ctx.file.relPath, member },
        'the short-title twin of this member is missing',
      );
    }
    const shorts = await readShortTitles(ctx, shortMember, kind);
    const insert = ctx.db.prepare(
      `INSERT INTO code_release (system, code, valid_from, valid_to, billable, short_title, long_title, ord, source_id)
       VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member };
    const seen = new Set<string>();
    for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
      if (text.trim() === '') {
        continue;
      }
      const row = parseIcd9Line(text, kind);
      if (!row) {
        throw new ReferenceDataError(
          { ...pos, line: lineNo },
          `not an ICD-9-CM ${kind} description line: ${JSON.stringify(text.slice(0, 80))}`,
        );
      }
      const short = shorts.get(row.code);
      if (!short) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `code ${row.code} has no short title in ${shortMember}`);
      }
      if (seen.has(row.code)) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `code ${row.code} is listed twice`);
      }
      seen.add(row.code);
      // Only valid (billable) codes are listed in these files (domain.md section 4); the file order is kept in `ord`.
      insert.run(
        system,
        row.code,
        ctx.unit.validFrom,
        ctx.unit.validTo ?? null,
        short.title,
        row.title,
        lineNo,
        ctx.sourceId,
      );
      ctx.progress.add(1);
    }
    for (const [code, { line }] of shorts) {
      if (!seen.has(code)) {
        throw new ReferenceDataError(
          { file: ctx.file.relPath, member: shortMember, line },
          `code ${code} has no long title in ${member}`,
        );
      }
    }
  },
};
