// Medicare Administrative Contractors: the small table compiled from CMS's public MAC pages and committed as
// `data/reference/medicare-contractors.json` (every fact names its source page and the date that page states).
// Owns `medicare_jurisdiction` (A/B, DME and home health + hospice MACs), `medicare_jurisdiction_state` and
// `medicare_contractor_number` (Part A / Part B contractor numbers by state). The file lives in the repository, not
// in the sources folder: `loadContractors(db, sourceId)` loads it directly, and the loader takes it when it is found
// among the sources.
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ReferenceDataError } from '../../errors.js';
import type { Loader } from '../builder/types.js';

const ddl = `
CREATE TABLE IF NOT EXISTS medicare_jurisdiction (
  kind TEXT NOT NULL,
  jurisdiction TEXT NOT NULL,
  mac_name TEXT NOT NULL,
  note TEXT,
  as_of TEXT NOT NULL,
  source_url TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL,
  PRIMARY KEY (kind, jurisdiction, as_of)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS medicare_jurisdiction_state (
  kind TEXT NOT NULL,
  jurisdiction TEXT NOT NULL,
  state TEXT NOT NULL,
  as_of TEXT NOT NULL,
  source_url TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL,
  PRIMARY KEY (kind, jurisdiction, state, as_of)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS medicare_jurisdiction_state_by_state ON medicare_jurisdiction_state (state, kind);
CREATE TABLE IF NOT EXISTS medicare_contractor_number (
  contractor_number TEXT NOT NULL,
  part TEXT NOT NULL,
  state TEXT NOT NULL,
  area TEXT,
  as_of TEXT NOT NULL,
  source_url TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL,
  PRIMARY KEY (contractor_number, part, state, as_of)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS medicare_contractor_number_by_state ON medicare_contractor_number (state, part);
`;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const State = z.string().regex(/^[A-Z]{2}$/);
const Jurisdiction = z.object({
  jurisdiction: z.string().min(1),
  mac: z.string().min(1),
  states: z.array(State).min(1),
  note: z.string().optional(),
  asOf: IsoDate,
  source: z.string().min(1),
});
const ContractorNumber = z.object({
  contractorNumber: z.string().regex(/^\d{5}$/),
  state: State,
  area: z.string().optional(),
  asOf: IsoDate,
  source: z.string().min(1),
});

/** The committed contractors file. Every fact names a source listed in `sources`. */
export const MedicareContractorsFile = z.strictObject({
  dataset: z.literal('medicare-contractors'),
  compiled: IsoDate,
  note: z.string(),
  sources: z.array(
    z.object({
      id: z.string().min(1),
      url: z.url(),
      title: z.string().min(1),
      publisher: z.string().min(1),
      stated: z.string().min(1),
      retrieved: IsoDate,
      coverage: z.string().optional(),
    }),
  ),
  summary: z.array(z.object({ fact: z.string().min(1), asOf: IsoDate, source: z.string().min(1) })),
  abJurisdictions: z.array(Jurisdiction),
  dmeJurisdictions: z.array(Jurisdiction),
  hhhMacs: z.array(Jurisdiction.omit({ jurisdiction: true }).extend({ abJurisdiction: z.string().min(1) })),
  partBContractorNumbers: z.array(ContractorNumber),
  partAContractorNumbers: z.array(ContractorNumber),
  notConfirmed: z.array(z.string()),
});
export type MedicareContractorsFile = z.infer<typeof MedicareContractorsFile>;

/** Where the committed file is, relative to this module (src/refdata/loaders → data/reference). */
export const CONTRACTORS_FILE = new URL('../../../data/reference/medicare-contractors.json', import.meta.url);

/**
 * Checks the file: its shape, and that every fact cites a listed source.
 * @throws ReferenceDataError naming the file and what is wrong
 */
export function parseContractors(text: string, file: string): MedicareContractorsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ReferenceDataError({ file }, `not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = MedicareContractorsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReferenceDataError({ file }, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const data = parsed.data;
  const ids = new Set(data.sources.map((s) => s.id));
  const cited = [
    ...data.summary.map((f, i) => [`summary.${i}`, f.source] as const),
    ...data.abJurisdictions.map((f, i) => [`abJurisdictions.${i}`, f.source] as const),
    ...data.dmeJurisdictions.map((f, i) => [`dmeJurisdictions.${i}`, f.source] as const),
    ...data.hhhMacs.map((f, i) => [`hhhMacs.${i}`, f.source] as const),
    ...data.partBContractorNumbers.map((f, i) => [`partBContractorNumbers.${i}`, f.source] as const),
    ...data.partAContractorNumbers.map((f, i) => [`partAContractorNumbers.${i}`, f.source] as const),
  ];
  for (const [where, source] of cited) {
    if (!ids.has(source)) {
      throw new ReferenceDataError(
        { file },
        `${where}.source: ${JSON.stringify(source)} is not one of the listed sources`,
      );
    }
  }
  return data;
}

/** Inserts the facts of a parsed file; returns the number of rows written. */
function insertContractors(db: Database.Database, sourceId: number, data: MedicareContractorsFile): number {
  const url = new Map(data.sources.map((s) => [s.id, s.url]));
  const insertJ = db.prepare(
    `INSERT INTO medicare_jurisdiction (kind, jurisdiction, mac_name, note, as_of, source_url, valid_from, valid_to, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  const insertS = db.prepare(
    `INSERT INTO medicare_jurisdiction_state (kind, jurisdiction, state, as_of, source_url, valid_from, valid_to, source_id)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  const insertN = db.prepare(
    `INSERT INTO medicare_contractor_number (contractor_number, part, state, area, as_of, source_url, valid_from, valid_to, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  let rows = 0;
  const jurisdictions = [
    ...data.abJurisdictions.map((j) => ({ kind: 'AB', ...j })),
    ...data.dmeJurisdictions.map((j) => ({ kind: 'DME', ...j })),
    ...data.hhhMacs.map((j) => ({ kind: 'HHH', jurisdiction: j.abJurisdiction, ...j })),
  ];
  for (const j of jurisdictions) {
    const src = url.get(j.source) ?? '';
    insertJ.run(j.kind, j.jurisdiction, j.mac, j.note ?? null, j.asOf, src, j.asOf, sourceId);
    rows++;
    for (const state of j.states) {
      insertS.run(j.kind, j.jurisdiction, state, j.asOf, src, j.asOf, sourceId);
      rows++;
    }
  }
  for (const [part, list] of [
    ['A', data.partAContractorNumbers],
    ['B', data.partBContractorNumbers],
  ] as const) {
    for (const n of list) {
      insertN.run(n.contractorNumber, part, n.state, n.area ?? null, n.asOf, url.get(n.source) ?? '', n.asOf, sourceId);
      rows++;
    }
  }
  return rows;
}

/**
 * Creates the contractor tables (if absent) and loads the committed `data/reference/medicare-contractors.json`.
 * @param sourceId - the `source` row the facts are attributed to
 * @param path - another copy of the file @default the committed file
 * @returns the number of rows written
 */
export function loadContractors(
  db: Database.Database,
  sourceId: number,
  path: string | URL = CONTRACTORS_FILE,
): number {
  db.exec(ddl);
  const file = typeof path === 'string' ? path : path.pathname;
  return insertContractors(db, sourceId, parseContractors(readFileSync(path, 'utf8'), file));
}

export const medicareContractorsLoader: Loader = {
  name: 'medicare-contractors',
  version: 1,
  ddl,
  async recognise(file, probe) {
    if (file.name !== 'medicare-contractors.json') {
      return [];
    }
    const head = await probe.head(undefined, 400);
    const compiled = /"compiled"\s*:\s*"(\d{4}-\d{2}-\d{2})"/.exec(head);
    return /"dataset"\s*:\s*"medicare-contractors"/.test(head) && compiled
      ? [{ dataset: 'medicare-contractors', release: compiled[1]!, validFrom: compiled[1]! }]
      : [];
  },
  async load(ctx) {
    const parts: Buffer[] = [];
    for await (const chunk of (await ctx.open()) as AsyncIterable<Buffer>) {
      parts.push(chunk);
    }
    const data = parseContractors(Buffer.concat(parts).toString('utf8'), ctx.file.relPath);
    ctx.progress.add(insertContractors(ctx.db, ctx.sourceId, data));
  },
};
