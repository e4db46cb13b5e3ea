// Integration: the real HCPCS 2019 release ZIPs in ../shared/data (contractor file, processing notes, NOC list,
// corrections; the record-layout ZIP is documentation and must end up on the skipped list).
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readLines } from '../../../src/readers/lines.js';
import { openBytes } from '../../../src/readers/byte-source.js';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { HCPCS_2019_LAYOUT, hcpcsLoader } from '../../../src/refdata/loaders/hcpcs.js';
import { createProcedureQueries, type ProcedureQueries } from '../../../src/reference/queries/procedures.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: ProcedureQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'hcpcs-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [hcpcsLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createProcedureQueries(db);
  return () => db.close();
});

const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

async function memberLines(file: string, member: string): Promise<string[]> {
  const opened = await openBytes({ path: join(officialDataDir, file), member });
  const lines: string[] = [];
  try {
    for await (const { text } of readLines(opened.stream, 'latin1')) {
      lines.push(text);
    }
  } finally {
    await opened.close();
  }
  return lines;
}

describe('HCPCS 2019 (real data)', () => {
  test('the field positions agree with the official record layout HCPCS2019_recordlayout.txt', async () => {
    const text = (await memberLines('hcpcs/2019-HCPCS-Record-Layout.zip', 'HCPCS2019_recordlayout.txt')).join('\n');
    // Each field is "  N.   Name" followed by "length  begin  end  TYPE" and, for repeated fields, "OCCURS MAX: n".
    const official = new Map<number, { name: string; length: number; start: number; occurs: number }>();
    for (const block of text.split(/\n(?= {2}\d+\.\s)/).slice(1)) {
      const head = /^ {2}(\d+)\.\s+(.+?)\s*(?:CHAR)?\n\s+(\d+)\s+(\d+)\s+(\d+)/.exec(block);
      if (head) {
        const occurs = /OCCURS MAX:\s*(\d+)/.exec(block);
        official.set(Number(head[1]), {
          name: head[2]!.trim(),
          length: Number(head[3]),
          start: Number(head[4]),
          occurs: occurs ? Number(occurs[1]) : 1,
        });
      }
    }
    expect(official.size).toBe(31);
    for (const field of Object.values(HCPCS_2019_LAYOUT)) {
      expect({ field: field.field, ...official.get(field.field) }).toEqual({
        field: field.field,
        name: field.name,
        length: field.length,
        start: field.start,
        occurs: field.occurs,
      });
    }
  });

  test('loads 6,440 procedure codes with 4,656 continuation lines and 360 modifiers with 166', () => {
    expect(
      count('SELECT count(*) n FROM hcpcs_code h JOIN source s ON s.id = h.source_id WHERE s.dataset = ?', 'hcpcs'),
    ).toBe(6440);
    expect(
      count(
        'SELECT sum(desc_lines - 1) n FROM hcpcs_code h JOIN source s ON s.id = h.source_id WHERE s.dataset = ?',
        'hcpcs',
      ),
    ).toBe(4656);
    expect(
      count('SELECT count(*) n FROM hcpcs_modifier m JOIN source s ON s.id = m.source_id WHERE s.dataset = ?', 'hcpcs'),
    ).toBe(360);
    expect(
      count(
        'SELECT sum(desc_lines - 1) n FROM hcpcs_modifier m JOIN source s ON s.id = m.source_id WHERE s.dataset = ?',
        'hcpcs',
      ),
    ).toBe(166);
    expect(result.units.find((u) => u.dataset === 'hcpcs')).toMatchObject({
      release: '2019Q1',
      member: 'HCPC2019_CONTR_ANWEB.txt',
      rows: 6800,
    });
  });

  test('writes one code row per HCPCS code, valid from its added date to its termination date, corrections applied', () => {
    // 6,440 from the file and 5 the corrections sheet adds (C1890, J1095, J2186, J2787, Q5111).
    expect(count("SELECT count(*) n FROM code WHERE system = 'HCPCS'")).toBe(6445);
    const on = (date: string): number =>
      count(
        "SELECT count(*) n FROM code WHERE system = 'HCPCS' AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)",
        date,
        date,
      );
    expect(on('2019-01-01')).toBe(5938);
    expect(on('2016-06-30')).toBe(5506);
    expect(
      db
        .prepare(
          "SELECT valid_from, valid_to, short_title, long_title FROM code WHERE system = 'HCPCS' AND code = 'G0417'",
        )
        .get(),
    ).toEqual({
      valid_from: '2009-01-01',
      valid_to: '2014-12-31',
      short_title: 'Sat biopsy prostate 21-40',
      long_title:
        'Surgical pathology, gross and microscopic examination, for prostate needle biopsy, any method, 21-40 specimens',
    });
    expect(db.prepare("SELECT valid_from, valid_to FROM code WHERE system = 'HCPCS' AND code = 'C9034'").get()).toEqual(
      { valid_from: '2018-10-01', valid_to: '2018-12-31' },
    );
    for (const added of ['C1890', 'J1095', 'J2186', 'J2787', 'Q5111']) {
      expect(q.hcpcs(added, '2019-03-01')?.source.member).toBe('HCPC2019_Corrections_ALPHA.xlsx');
    }
  });

  test('serves a code with every field of its record', () => {
    expect(q.hcpcs('E0210', '2019-01-01')).toMatchObject({
      longDescription: 'Electric heat pad, standard',
      shortDescription: 'Electric heat pad standard',
      pricingIndicators: ['32'],
      multiplePricingIndicator: 'A',
      cimReferences: ['60-9'],
      coverage: 'D',
      betos: 'D1E',
      typesOfService: ['A', 'L', 'P'],
      anesthesiaBaseUnits: 0,
      addedDate: '1986-01-01',
      actionEffectiveDate: '2003-01-01',
      terminationDate: null,
      actionCode: 'N',
      source: {
        file: 'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip',
        member: 'HCPC2019_CONTR_ANWEB.txt',
        release: '2019Q1',
        line: 2118,
      },
    });
    expect(q.hcpcs('A0021', '2019-01-01')).toMatchObject({
      crossReferences: ['A0030'],
      coverage: 'I',
      actionEffectiveDate: '1996-09-10',
    });
    expect(q.hcpcs('G0417', '2019-01-01')).toBeUndefined();
    expect(q.hcpcs('S0091', '2019-01-01')?.processingNoteText).toMatch(/^"S" CODES ARE UNIQUE TEMPORARY CODES/);
    expect(q.hcpcsModifier('CP', '2017-06-30')?.longDescription).toBe(
      'Adjunctive service related to a procedure assigned to a comprehensive ambulatory payment classification (c-apc) procedure, but reported on a different claim',
    );
    expect(q.hcpcsModifier('CP', '2018-01-01')).toBeUndefined();
    expect(q.hcpcsModifier('DA', '2019-01-01')?.corrections[0]?.action).toBe('Removed in error - add back to file');
  });

  test('loads the 139 NOC codes of the workbook, the same codes as its .prn print', async () => {
    expect(count('SELECT count(*) n FROM hcpcs_noc')).toBe(139);
    const prn = await memberLines('hcpcs/2019-HCPCS-NOC-Codes.zip', 'NOC_Codes_2019.prn');
    const printed = [...new Set(prn.flatMap((l) => /^ {2}([A-Z]\d{4}) {2}/.exec(l)?.slice(1) ?? []))].sort();
    expect(
      (db.prepare('SELECT code FROM hcpcs_noc ORDER BY code').all() as { code: string }[]).map((r) => r.code),
    ).toEqual(printed);
    expect(q.isNoc('A9599', '2017-12-31')).toBe(true);
    expect(q.isNoc('A9599', '2018-01-01')).toBe(false);
    expect(db.prepare("SELECT long_desc FROM hcpcs_noc WHERE code = 'L8698'").get()).toEqual({
      long_desc: 'Miscellaneous component, supply or accessory for use with total artificial heart system',
    });
  });

  test('loads the 14 correction rows of both sheets and the 218 processing notes', () => {
    expect(
      count("SELECT count(*) n FROM hcpcs_correction c JOIN source s ON s.id = c.source_id WHERE s.release = '2019Q1'"),
    ).toBe(11);
    expect(
      count(
        "SELECT count(*) n FROM hcpcs_correction c JOIN source s ON s.id = c.source_id WHERE s.release = '2019Q1-v2'",
      ),
    ).toBe(3);
    expect(db.prepare('SELECT kind, count(*) n FROM hcpcs_correction GROUP BY kind ORDER BY kind').all()).toEqual([
      { kind: 'add', n: 5 },
      { kind: 'change', n: 7 },
      { kind: 'discontinue', n: 1 },
      { kind: 'restore', n: 1 },
    ]);
    expect(count('SELECT count(*) n FROM hcpcs_processing_note')).toBe(218);
    expect(
      count(
        'SELECT count(DISTINCT processing_note) n FROM hcpcs_code WHERE processing_note NOT IN (SELECT note FROM hcpcs_processing_note)',
      ),
    ).toBe(1);
  });

  test('lists the record-layout ZIP as skipped: it is documentation', () => {
    expect(result.skipped).toContainEqual({
      file: 'hcpcs/2019-HCPCS-Record-Layout.zip',
      reason: 'not recognised by any loader',
    });
  });
});
