// The period memories on the real tables: every lookup kept per period between change dates must answer, on any
// date and after any other dates, what a fresh port (nothing remembered) answers on that date alone.
import type Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { createEditQueries } from '../../../src/reference/queries/edits.js';
import { createMappingQueries } from '../../../src/reference/queries/mapping.js';
import { changeDatesSearch } from '../../../src/reference/queries/periods.js';
import { createProcedureQueries } from '../../../src/reference/queries/procedures.js';
import { MueSetting } from '../../../src/schemas/edits.js';
import { seededSampler } from '../../bench/harness.js';
import { sharedReferenceAndSql } from '../../helpers/reference-db.js';

const shared = sharedReferenceAndSql();

const column = (db: Database.Database, sql: string): string[] =>
  (db.prepare(sql).raw().all() as unknown[][]).map((r) => String(r[0]));

/** Each change date of the tables, the day before it, and a few dates between them. */
function datesAround(db: Database.Database, tables: readonly string[]): string[] {
  const dates = new Set<string>(['2015-09-30', '2015-10-01', '2026-05-15', '2026-11-26']);
  for (const t of tables) {
    for (const d of column(
      db,
      `SELECT b FROM (SELECT valid_from AS b FROM ${t} UNION SELECT date(valid_to, '+1 day') FROM ${t})
       WHERE b IS NOT NULL AND b >= '2014-01-01' AND b < '2028-01-01'`,
    )) {
      dates.add(d);
      dates.add(new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
    }
  }
  return [...dates].sort();
}

test('MUE, add-on, OPPS, ZIP, lab NCD and POA answers kept per period equal a fresh port`s on each date', () => {
  const { db } = shared;
  const { random } = seededSampler(0x9e7a1d);
  // Codes whose rows change over time come first: those are the ones a wrong period would answer wrongly.
  const mueCodes = column(db, 'SELECT code FROM mue GROUP BY code ORDER BY count(DISTINCT mue_value) DESC, code LIMIT 25');
  const aocCodes = column(db, 'SELECT add_on_code FROM ncci_aoc GROUP BY add_on_code ORDER BY count(*) DESC LIMIT 15');
  const primaries = column(db, 'SELECT primary_code FROM ncci_aoc GROUP BY primary_code ORDER BY count(*) DESC LIMIT 15');
  const oppsCodes = column(
    db,
    'SELECT hcpcs FROM opps_addendum_b GROUP BY hcpcs ORDER BY count(DISTINCT status_indicator) DESC, hcpcs LIMIT 25',
  );
  const labCodes = column(db, 'SELECT hcpcs FROM ncd_lab_hcpcs GROUP BY hcpcs ORDER BY count(*) DESC LIMIT 15');
  const zips = column(db, 'SELECT zip5 FROM zip5_locality GROUP BY zip5 ORDER BY count(DISTINCT carrier) DESC, zip5 LIMIT 15');
  const poaCodes = column(db, 'SELECT code FROM poa_exempt_change GROUP BY code ORDER BY count(*) DESC LIMIT 15');
  for (const list of [mueCodes, aocCodes, primaries, oppsCodes, labCodes, zips, poaCodes]) {
    expect(list.length).toBeGreaterThan(0);
  }
  const dates = datesAround(db, ['mue', 'ncci_aoc', 'opps_addendum_b', 'ncd_lab_hcpcs', 'zip5_locality', 'poa_exempt']);
  expect(dates.length).toBeGreaterThan(20);

  const ask = (
    q: { edits: ReturnType<typeof createEditQueries>; procedures: ReturnType<typeof createProcedureQueries>; mapping: ReturnType<typeof createMappingQueries> },
    date: string,
  ): unknown => ({
    mue: mueCodes.map((c) => [q.edits.mue(c, date, MueSetting.practitioner), q.edits.mue(c, date, MueSetting.outpatientHospital)]),
    aoc: aocCodes.map((c) => q.edits.aocForAddOn(c, date)),
    primaries: primaries.map((c) => q.edits.aocForPrimary(c, date)),
    opps: q.procedures.oppsMany(oppsCodes, date),
    labs: labCodes.map((c) => q.edits.labNcdsForHcpcs(c, date)),
    zips: zips.map((z) => q.edits.zipLocality(z, date)),
    poa: poaCodes.map((c) => q.mapping.poaExempt(c, date)),
  });
  const fresh = (): Parameters<typeof ask>[0] => ({
    edits: createEditQueries(db),
    procedures: createProcedureQueries(db),
    mapping: createMappingQueries(db),
  });

  // One port asked on every date, in a shuffled order (later dates before earlier ones, the same period twice)...
  const sharedPort = fresh();
  const order = [...dates, ...dates.slice(0, 10)];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  const kept = new Map<string, unknown>();
  for (const date of order) {
    kept.set(date, ask(sharedPort, date));
  }
  // ...answers each date as a port that never saw another date.
  let differing = 0;
  let previous: string | undefined;
  for (const date of dates) {
    const alone = ask(fresh(), date);
    expect(kept.get(date), date).toEqual(alone);
    if (previous !== undefined && JSON.stringify(alone) !== JSON.stringify(kept.get(previous))) {
      differing++;
    }
    previous = date;
  }
  // The dates reach answers that change: the comparison is not between one period's answers.
  expect(differing).toBeGreaterThan(3);
});

test('Addendum B read whole for a period answers every code as its searches do', () => {
  const { db } = shared;
  const codes = [...column(db, 'SELECT DISTINCT hcpcs FROM opps_addendum_b ORDER BY hcpcs'), '99999', 'ZZZZZ', '0001U'];
  const dates = datesAround(db, ['opps_addendum_b']).filter((_, i, all) => i % Math.ceil(all.length / 12) === 0);
  expect(dates.length).toBeGreaterThan(5);
  let answered = 0;
  for (const date of dates) {
    // Asked of every code, a port reads the period whole after its first searches...
    const port = createProcedureQueries(db);
    const whole = port.oppsMany(codes, date);
    // ...and answers each code as the search of that code alone does (`opps`, which keeps nothing). (These files have
    // at most one row of a code in force on a date; a wrong period scan, such as one ignoring valid_to, fails here.)
    for (const c of codes) {
      expect(whole.get(c), `${c} on ${date}`).toEqual(port.opps(c, date));
    }
    answered += whole.size;
  }
  expect(answered).toBeGreaterThan(10_000);
});

test('the change dates read from distinct spans are those of the SQL over every row (UNION of both ends and sources)', () => {
  const { db } = shared;
  // The definition, as SQL: each row's first day and the day after its last, and those of its source (or of every
  // release of `dataset`).
  const bySql = (table: string, where: string, params: object, dataset?: string): string[] => {
    const sources = `id IN (SELECT source_id FROM ${table} WHERE ${where})${dataset === undefined ? '' : ` OR dataset = '${dataset}'`}`;
    return (
      db
        .prepare(
          `SELECT b FROM (
             SELECT valid_from AS b FROM ${table} WHERE ${where}
             UNION SELECT date(valid_to, '+1 day') FROM ${table} WHERE ${where}
             UNION SELECT valid_from FROM source WHERE ${sources}
             UNION SELECT date(valid_to, '+1 day') FROM source WHERE ${sources})
           WHERE b IS NOT NULL ORDER BY b`,
        )
        .all(params) as { b: string }[]
    ).map((r) => r.b);
  };
  const cases: [string, string, object, string?][] = [
    ['opps_addendum_b', '1', {}],
    ['poa_exempt', '1', {}, 'icd10cm-poa-exempt'],
    ['mue', '1', {}],
    ['ncci_aoc', '1', {}],
    ['ncd_lab_hcpcs', '1', {}],
    ['zip5_locality', '1', {}],
    ['zip5_locality', 'usps_state = @key', { key: 'VA' }],
    ['zip5_locality', 'usps_state = @key', { key: 'XX' }],
  ];
  let dates = 0;
  for (const [table, where, params, dataset] of cases) {
    const got = changeDatesSearch(db, table, where, dataset).all(params) as { b: string }[];
    expect(got.map((r) => r.b), `${table} ${where}`).toEqual(bySql(table, where, params, dataset));
    dates += got.length;
  }
  expect(dates).toBeGreaterThan(40);
  expect(changeDatesSearch(db, 'no_such_table', '1').all({})).toEqual([]);
});
