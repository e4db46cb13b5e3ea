// The batch checks across claims (issue 12 §5), storage side: the facts every claim of a run contributes
// (crossClaimFacts, computed in the workers) and a history file of earlier services go into a temporary SQLite file,
// so memory holds one insert batch whatever the run's size; at the end of the run SQL answers the three questions
// and the engine's renderers turn the answers into findings, in claim order then line.
//
//   addBatch(rows a worker gathered) ──→ buffer (≤ batchSize claims and limits) ──transaction──→ claim_fact (a
//     claim's lines as one JSON text), fact_batch, limit_row; patient (claims per patient) ──a second claim──→ line
//     rows of the patient's claims (SQL: json_each over claim_fact)
//   loadHistory(csv) ──stream──→ history table
//   findings() ──→ services of the run's lines and the history by code (service) ──→ INSERT … SELECT per check into
//                 `answer` ──→ iterate ORDER BY claim, line ──→ Finding
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import {
  duplicateFinding,
  frequencyFinding,
  mueFinding,
  mueKey,
  type CrossClaimFacts,
  type CrossClaimMue,
  type DuplicateAnswer,
  type FrequencyAnswer,
  type MueAnswer,
} from '../engines/validation/index.js';
import { errorCode, ScrubberError } from '../errors.js';
import type { RuleId } from '../findings/codes.js';
import { normaliseCode } from '../schemas/code-systems.js';
import { IsoDate } from '../schemas/claim.js';
import type { Finding } from '../schemas/findings.js';
import { spanOf } from '../schemas/policy-pack.js';
import { FactsBatchWriter, type FactsBatch, type LimitRow } from '../workers/facts-batch.js';

/** Options of a CrossClaimStore. */
export interface CrossClaimStoreOptions {
  /**
   * Directory of the temporary database (removed by `close()`).
   * @default os.tmpdir()
   */
  readonly dir?: string | undefined;
  /**
   * Rows held in memory before they are written in one transaction.
   * @default 10000
   */
  readonly batchSize?: number | undefined;
  /** Run only these batch checks (every batch check when absent; other rule ids are ignored). */
  readonly checks?: readonly RuleId[] | undefined;
  /**
   * A database file of its own (a scrub run keeps it in its --out folder, so `--resume` finds the facts of the claims
   * written before a crash); opened if it exists, kept by `close()`. Without it the store is a scratch file.
   */
  readonly path?: string | undefined;
}

/** One cross-claim finding and the position (in the run) of the claim it belongs to. */
export interface CrossClaimFinding {
  readonly claimOrder: number;
  readonly finding: Finding;
}

/** A history row that was not loaded. */
export interface RejectedHistoryRow {
  /** 1-based line of the file. */
  readonly line: number;
  readonly reason: string;
}

/** What loadHistory read. */
export interface HistoryLoad {
  readonly loaded: number;
  readonly rejectedCount: number;
  /** The first rejected rows (at most 100). */
  readonly rejected: readonly RejectedHistoryRow[];
}

/** The columns a history file must have (header row; other columns are ignored). */
export const HISTORY_COLUMNS = ['patientId', 'dateOfService', 'procedureCode'] as const;

/** A history header with its names matched to the columns case-insensitively, as a claim CSV's are. */
function historyHeader(names: readonly string[]): string[] {
  return names.map((n) => HISTORY_COLUMNS.find((c) => c.toLowerCase() === n.trim().toLowerCase()) ?? n);
}

/** Why a history file's header will not do, or `undefined` when it names every column. */
function historyHeaderProblem(path: string, header: readonly string[] | undefined): string | undefined {
  if (header === undefined) {
    return `${path}: the history file is empty: it needs a header row naming ${HISTORY_COLUMNS.join(', ')}`;
  }
  // A column named twice: the last would win, and a blank one would reject every row (no frequency limit checked).
  const twice = HISTORY_COLUMNS.find((c) => header.indexOf(c) !== header.lastIndexOf(c));
  if (twice !== undefined) {
    return `${path}: the history file's header names column ${twice} twice`;
  }
  const missing = HISTORY_COLUMNS.filter((c) => !header.includes(c));
  return missing.length === 0
    ? undefined
    : `${path}: the history file's header lacks the column(s) ${missing.join(', ')} (a history CSV starts with a header row naming ${HISTORY_COLUMNS.join(', ')})`;
}

/**
 * The error of a history file that cannot be read. csv-parse's messages quote the offending cell (a patient id,
 * perhaps): the code and line say enough. A history that is not valid CSV is refused whole: a part of it would let
 * frequency limits pass unseen.
 */
function historyReadError(path: string, err: unknown): ScrubberError {
  const csv = err as { code?: string; lines?: number };
  const why =
    typeof csv.code === 'string' && csv.code.startsWith('CSV_')
      ? `it is not valid CSV (line ${String(csv.lines ?? '?')}: ${csv.code})`
      : errorCode(err);
  return new ScrubberError('INPUT_FORMAT', `${path}: the history file could not be read: ${why}`, { cause: err });
}

/**
 * Checks a history file's header row, before a run touches its reports (loadHistory checks it again as it reads).
 * @throws ScrubberError INPUT_FORMAT when the file cannot be read, is empty, or its header lacks a column
 */
export async function checkHistoryHeader(path: string): Promise<void> {
  let header: string[] | undefined;
  // The first record, blank lines before it skipped (as loadHistory skips them); the rest is not read.
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true });
  const source = createReadStream(path, { end: 64 * 1024 });
  pipeline(source, parser, () => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      header = historyHeader(record);
      break;
    }
  } catch (err) {
    throw historyReadError(path, err);
  }
  const problem = historyHeaderProblem(path, header);
  if (problem !== undefined) {
    throw new ScrubberError('INPUT_FORMAT', problem);
  }
}

const MAX_REJECTED = 100;
/** Earlier claims or services a finding names. */
const MAX_NAMED = 5;

const SCHEMA = `
  CREATE TABLE claim_fact (
    claim_order INTEGER PRIMARY KEY, claim_id TEXT NOT NULL, patient TEXT NOT NULL, setting TEXT NOT NULL,
    batch INTEGER NOT NULL, lines TEXT NOT NULL
  );
  CREATE TABLE fact_batch (id INTEGER PRIMARY KEY, mue_ids TEXT NOT NULL);
  CREATE TABLE patient (patient TEXT PRIMARY KEY, first_order INTEGER NOT NULL, claims INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE line (
    claim_order INTEGER NOT NULL, line_number INTEGER NOT NULL, claim_id TEXT NOT NULL, patient TEXT NOT NULL,
    setting TEXT NOT NULL, date TEXT NOT NULL, code TEXT NOT NULL, submitted TEXT NOT NULL, modifiers TEXT NOT NULL,
    units REAL NOT NULL, mue INTEGER, mue_value REAL
  );
  CREATE TABLE mue_def (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
  CREATE TABLE service (
    patient TEXT NOT NULL, rule_key TEXT NOT NULL, date TEXT NOT NULL, claim_order INTEGER NOT NULL,
    line_number INTEGER NOT NULL, claim_id TEXT
  );
  CREATE TABLE limit_row (
    claim_order INTEGER NOT NULL, line_number INTEGER NOT NULL, claim_id TEXT NOT NULL, patient TEXT NOT NULL,
    rule_key TEXT NOT NULL, date TEXT NOT NULL, submitted TEXT NOT NULL, count INTEGER NOT NULL, after TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE TABLE rule_span (
    rule_key TEXT NOT NULL, code_from TEXT NOT NULL, code_to TEXT NOT NULL, PRIMARY KEY (rule_key, code_from, code_to)
  ) WITHOUT ROWID;
  CREATE TABLE history (patient TEXT NOT NULL, date TEXT NOT NULL, code TEXT NOT NULL, line INTEGER NOT NULL);
  CREATE TABLE answer (
    claim_order INTEGER NOT NULL, line_number INTEGER NOT NULL, kind INTEGER NOT NULL, seq INTEGER NOT NULL,
    body TEXT NOT NULL
  );
`;

/**
 * Duplicates and MUE sums need a patient, setting, date and code on two claims: only those lines are kept (in a new
 * table: deleting a million rows cost more than copying the few that can match), so the window queries sort only
 * what can match. On a million-line run of three claims per patient on one date, the answering phase took 5.4 s
 * with patients of a single claim dropped and 0.7 s with this (2026-11-26); with one claim per patient, 0.3 s and
 * 0.5 s. Frequency limits read other tables.
 */
const KEEP_MULTI_CLAIM_LINES = [
  `CREATE TABLE line_multi AS SELECT l.* FROM line l JOIN (
    SELECT patient, setting, date, code FROM line GROUP BY patient, setting, date, code
    HAVING min(claim_order) < max(claim_order)
  ) k USING (patient, setting, date, code)`,
  'DROP TABLE line',
  'ALTER TABLE line_multi RENAME TO line',
];

/**
 * A claim's lines are stored as its JSON text (claim_fact) and made `line` rows only when the checks can read them:
 * when its patient has two claims or more (duplicates, MUE sums: as the second claim is added, the first one's
 * lines too) or a frequency limit (the run's own services count toward it; at the end of the run). In most runs most
 * patients have one claim, whose lines can match nothing: as a row per line, parsing and inserting them was ~3 s of
 * the main thread's time per million lines (2026-11-27).
 */
const COUNT_PATIENT = `
  INSERT INTO patient (patient, first_order, claims) VALUES (?, ?, 1)
  ON CONFLICT (patient) DO UPDATE SET claims = claims + 1 RETURNING claims, first_order AS firstOrder`;
/**
 * Makes line rows of claims (`source`: a FROM clause whose claim_fact rows are `c`): each line of the claim's JSON text, its
 * MUE index mapped to mue_def's id through the claim's batch. In SQL, so that no step holds a run's lines in memory.
 */
const expandLines = (source: string): string => `
  INSERT INTO line (claim_order, line_number, claim_id, patient, setting, date, code, submitted, modifiers, units, mue,
    mue_value)
  SELECT c.claim_order, j.value ->> 0, c.claim_id, c.patient, c.setting, j.value ->> 1, j.value ->> 2, j.value ->> 3,
    j.value ->> 4, j.value ->> 5, b.mue_ids ->> ('$[' || (j.value ->> 6) || ']'), j.value ->> 7
  FROM ${source} JOIN fact_batch b ON b.id = c.batch, json_each(c.lines) j`;
/** The claims named by a JSON array of claim orders (a flush's claims of patients with another claim). */
const EXPAND_CLAIMS = expandLines('(SELECT * FROM claim_fact WHERE claim_order IN (SELECT value FROM json_each(?))) c');
/** The claims of patients of one claim and a frequency limit, whose lines are not rows yet (by key: no scan). */
const EXPAND_LIMITED_SINGLE_CLAIMS = expandLines(`(SELECT DISTINCT patient FROM limit_row) l
  JOIN patient p ON p.patient = l.patient AND p.claims = 1 JOIN claim_fact c ON c.claim_order = p.first_order`);
/** After a resume's truncation: every claim of a patient with two claims or more. */
const EXPAND_MULTI_CLAIMS = expandLines(
  '(SELECT * FROM claim_fact WHERE patient IN (SELECT patient FROM patient WHERE claims > 1)) c',
);
/** Claims whose batch row is missing: their lines could not be made rows (a damaged store). */
const CLAIMS_WITHOUT_BATCH =
  'SELECT count(*) AS n FROM claim_fact c WHERE NOT EXISTS (SELECT 1 FROM fact_batch b WHERE b.id = c.batch)';

/** Kinds of answer, in the order a line's findings are written (BATCH_RULES order). */
const DUPLICATE = 0;
const MUE = 1;
const FREQUENCY = 2;

// Check 1: a line whose patient, setting, date, code and modifiers match a line of an earlier claim. The setting is
// part of the key: a facility claim and a practitioner claim for one service both carry its code.
const DUPLICATES = `
  INSERT INTO answer (claim_order, line_number, kind, seq, body)
  SELECT claim_order, line_number, ${DUPLICATE}, 0, json_object(
    'claimId', claim_id, 'lineNumber', line_number, 'submittedCode', submitted, 'date', date, 'modifiers', modifiers,
    'first', json_object('claimId', first_claim, 'lineNumber', first_line), 'earlierClaims', claim_rank - 1)
  FROM (
    SELECT l.*,
      first_value(claim_order) OVER k AS first_order,
      first_value(claim_id) OVER k AS first_claim,
      first_value(line_number) OVER k AS first_line,
      dense_rank() OVER (PARTITION BY patient, setting, date, code, modifiers ORDER BY claim_order) AS claim_rank
    FROM line l
    WINDOW k AS (PARTITION BY patient, setting, date, code, modifiers ORDER BY claim_order, line_number)
  )
  WHERE claim_order > first_order`;

// Check 2: units of an MAI 2/3 code per claim, patient, setting table and date, then a running sum in claim order.
// A claim whose own units are over the MUE is the ncci.mue rule's finding; a claim whose units bring the running
// sum over it (or add to a sum already over it) is this check's. Sums are rounded to 9 decimals, as ncci.mue adds
// units: 0.1 + 2.7 + 0.2 units is 3, not 3.0000000000000004 over an MUE of 3.
const MUE_CLAIMS = `
  CREATE TABLE mue_claim AS
  SELECT patient, setting, code, date, claim_order, min(claim_id) AS claim_id, min(submitted) AS submitted,
    round(sum(units), 9) AS units, json_group_array(line_number) AS lines, min(line_number) AS first_line, max(mue) AS mue,
    max(mue_value) AS value
  FROM line WHERE mue IS NOT NULL
  GROUP BY patient, setting, code, date, claim_order`;
const MUE_INDEX = 'CREATE INDEX mue_claim_key ON mue_claim (patient, setting, code, date, claim_order)';
const MUES = `
  INSERT INTO answer (claim_order, line_number, kind, seq, body)
  SELECT claim_order, first_line, ${MUE}, 0, json_object(
    'claimId', claim_id, 'lines', json(lines), 'submittedCode', submitted, 'date', date, 'units', units,
    'total', total, 'mue', json((SELECT body FROM mue_def d WHERE d.id = w.mue)), 'earlierClaims', nth - 1,
    'earlier', (
      SELECT json_group_array(json_object('claimId', e.claim_id, 'units', e.units)) FROM (
        SELECT claim_id, units FROM mue_claim e
        WHERE e.patient = w.patient AND e.setting = w.setting AND e.code = w.code AND e.date = w.date
          AND e.claim_order < w.claim_order
        ORDER BY e.claim_order LIMIT ${MAX_NAMED}) e))
  FROM (
    SELECT m.*, round(sum(units) OVER g, 9) AS total, row_number() OVER g AS nth
    FROM mue_claim m
    WINDOW g AS (PARTITION BY patient, setting, code, date ORDER BY claim_order ROWS UNBOUNDED PRECEDING)
  ) w
  WHERE nth > 1 AND total > value AND units <= value`;

// Check 3: the history services of the run's patients count toward the pack rules that list their codes; each
// service line with a limit is then over it when the earlier services in its period reach the limit's count.
// "Earlier" is by date, then history before the run, then claim order and line.
const HISTORY_SERVICES = `
  INSERT INTO service (patient, rule_key, date, claim_order, line_number, claim_id)
  SELECT h.patient, s.rule_key, h.date, -1, h.line, NULL
  FROM history h JOIN rule_span s ON length(h.code) = length(s.code_from) AND h.code BETWEEN s.code_from AND s.code_to
  WHERE h.patient IN (SELECT patient FROM limit_row)`;
const SERVICE_INDEX = 'CREATE INDEX IF NOT EXISTS service_key ON service (patient, rule_key, date, claim_order, line_number)';
// The run's own services count as the history's do: by procedure code, toward every pack rule that lists it, whether
// or not that rule applied to the line (another payer's claim, a date before the rule's version: a patient's 81528
// under a rule version that had ended counts as the same service in the history file does). Idempotent (a resumed
// run answers again) and run before the lines are pruned, in the same transaction.
const RUN_SERVICES = `
  INSERT INTO service (patient, rule_key, date, claim_order, line_number, claim_id)
  SELECT l.patient, s.rule_key, l.date, l.claim_order, l.line_number, l.claim_id
  FROM line l JOIN rule_span s ON length(l.code) = length(s.code_from) AND l.code BETWEEN s.code_from AND s.code_to
  WHERE l.patient IN (SELECT patient FROM limit_row)
    AND NOT EXISTS (SELECT 1 FROM service t WHERE t.patient = l.patient AND t.rule_key = s.rule_key
      AND t.claim_order = l.claim_order AND t.line_number = l.line_number)`;
const EARLIER = `t.patient = l.patient AND t.rule_key = l.rule_key AND t.date > l.after
  AND (t.date, t.claim_order, t.line_number) < (l.date, l.claim_order, l.line_number)`;
const FREQUENCIES = `
  INSERT INTO answer (claim_order, line_number, kind, seq, body)
  SELECT claim_order, line_number, ${FREQUENCY}, limit_id, json_object(
    'claimId', claim_id, 'lineNumber', line_number, 'submittedCode', submitted, 'date', date, 'limit', json(body),
    'earlierCount', prior,
    'earlier', (
      SELECT json_group_array(json_object('date', t.date, 'claimId', t.claim_id, 'lineNumber', t.line_number)) FROM (
        SELECT t.date, t.claim_id, t.line_number FROM service t WHERE ${EARLIER}
        ORDER BY t.date DESC, t.claim_order DESC, t.line_number DESC LIMIT ${MAX_NAMED}) t))
  FROM (SELECT l.rowid AS limit_id, l.*, (SELECT count(*) FROM service t WHERE ${EARLIER}) AS prior FROM limit_row l) l
  WHERE prior >= count`;

type State = 'open' | 'answered' | 'closed';

/** A `claim_fact` row: a worker's ClaimRow with the id of its batch (fact_batch) before its lines. */
type ClaimFactRow = [number, string, string, string, number, string];

/** Rows per INSERT statement: one statement call per this many rows costs far less than one per row. */
const ROWS_PER_INSERT = 64;

/** Inserts rows of `width` values into a table (inside the caller's transaction). */
type RowInserter = (rows: readonly (readonly unknown[])[]) => void;

/**
 * Inserts rows ROWS_PER_INSERT at a time through one multi-row INSERT (the rest one by one): a million claim lines
 * are a million rows, and a statement call per row was most of the main thread's writing time.
 */
function rowInserter(db: Database.Database, table: string, width: number): RowInserter {
  const tuple = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  const one = db.prepare(`INSERT INTO ${table} VALUES ${tuple}`);
  const many = db.prepare(`INSERT INTO ${table} VALUES ${Array.from({ length: ROWS_PER_INSERT }, () => tuple).join(', ')}`);
  const values: unknown[] = new Array<unknown>(width * ROWS_PER_INSERT);
  return (rows) => {
    let r = 0;
    for (; r + ROWS_PER_INSERT <= rows.length; r += ROWS_PER_INSERT) {
      for (let k = 0; k < ROWS_PER_INSERT; k++) {
        const row = rows[r + k] as readonly unknown[];
        for (let c = 0; c < width; c++) {
          values[k * width + c] = row[c];
        }
      }
      many.run(values);
    }
    for (; r < rows.length; r++) {
      one.run(rows[r]);
    }
  };
}

/**
 * The facts of one run's claims and a history of earlier services, kept in a temporary SQLite file, and the
 * cross-claim findings they give. Synchronous like better-sqlite3, except loadHistory, which streams a file.
 * Use: `add(facts)` for every claim (any order; `claimOrder` must be unique), `loadHistory(path)` for each history
 * file, then iterate `findings()` once, then `close()`.
 */
export class CrossClaimStore {
  private readonly dir: string | undefined;
  private readonly db: Database.Database;
  private readonly batchSize: number;
  private readonly checks: readonly RuleId[] | undefined;
  private state: State = 'open';
  private claims: ClaimFactRow[] = [];
  private limits: LimitRow[] = [];
  /** fact_batch rows of the buffered claims: id, the batch's MUE indices as mue_def ids (JSON). */
  private batches: [number, string][] = [];
  /** Pack rules whose procedures are in rule_span already (a few dozen). */
  private readonly spans = new Set<string>();
  /**
   * mue_def and rule_span rows not yet written: written with the claims that name them, in `flush`'s transaction (one
   * commit each, outside it, was a synced commit per new MUE edit: 214 per 200,000 bench lines).
   */
  private newMues: [number, string][] = [];
  private newSpans: [string, string, string][] = [];
  private readonly insertClaim: RowInserter;
  private readonly insertBatch: Database.Statement;
  /** The next fact_batch id: each added batch's MUE indices map to mue_def ids through its row. */
  private nextBatch: number;
  private readonly countPatient: Database.Statement;
  private readonly expandClaims: Database.Statement;
  private readonly insertLimit: RowInserter;
  private readonly insertSpan: Database.Statement;
  private readonly insertHistory: Database.Statement;
  private readonly insertMue: Database.Statement;
  /**
   * The MUE edits the lines carry, each stored once in mue_def and referred to by id: nearly every line of a claim
   * file carries one (its JSON was 21 MB per 200,000 lines, most of the main thread's insert time).
   */
  private readonly mueIds = new Map<string, number>();

  /**
   * Creates the temporary database.
   * @param options - directory, batch size and checks
   */
  constructor(options: CrossClaimStoreOptions = {}) {
    // Step 1: defaults and validation.
    const batchSize = options.batchSize ?? 10_000;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new RangeError(`Expected the "batchSize" option to be a positive integer, got ${String(batchSize)}`);
    }
    this.batchSize = batchSize;
    this.checks = options.checks;
    // Step 2: a scratch database (no journal, no fsync: a crash loses the run's batch checks, which a rerun redoes),
    // or the run's own file (WAL, each commit synced: neither a killed process nor a machine crash loses a committed
    // batch, and a run's checkpoint is written after `flush()` commits; a commit per `batchSize` rows and checkpoint).
    this.dir = options.path === undefined ? mkdtempSync(join(options.dir ?? tmpdir(), 'cross-claim-')) : undefined;
    const existed = options.path !== undefined && existsSync(options.path);
    this.db = new Database(options.path ?? join(this.dir ?? '', 'facts.sqlite'));
    try {
      this.db.pragma(options.path === undefined ? 'journal_mode = OFF' : 'journal_mode = WAL');
      this.db.pragma(options.path === undefined ? 'synchronous = OFF' : 'synchronous = FULL');
      this.db.pragma('temp_store = FILE');
      this.db.pragma('cache_size = -16000');
      if (!existed) {
        this.db.exec(SCHEMA);
      }
      this.insertClaim = rowInserter(this.db, 'claim_fact', 6);
      this.insertBatch = this.db.prepare('INSERT INTO fact_batch (id, mue_ids) VALUES (?, ?)');
      this.expandClaims = this.db.prepare(EXPAND_CLAIMS);
      this.nextBatch = ((this.db.prepare('SELECT max(id) AS n FROM fact_batch').get() as { n: number | null }).n ?? 0) + 1;
      this.countPatient = this.db.prepare(COUNT_PATIENT);
      this.insertLimit = rowInserter(this.db, 'limit_row', 10);
      this.insertSpan = this.db.prepare('INSERT OR IGNORE INTO rule_span VALUES (?, ?, ?)');
      this.insertMue = this.db.prepare('INSERT INTO mue_def (id, body) VALUES (?, ?)');
      for (const r of this.db.prepare('SELECT id, body FROM mue_def').all() as { id: number; body: string }[]) {
        this.mueIds.set(mueKey(JSON.parse(r.body) as CrossClaimMue), r.id);
      }
      this.insertHistory = this.db.prepare('INSERT INTO history VALUES (?, ?, ?, ?)');
    } catch (err) {
      this.db.close();
      if (this.dir !== undefined) {
        rmSync(this.dir, { recursive: true, force: true });
      }
      throw err;
    }
  }

  /**
   * Forgets the facts of claims from `claimOrder` on, and the history and answers: a resumed run re-adds those
   * claims and reloads its history file.
   */
  truncateFrom(claimOrder: number): void {
    this.expectOpen('truncateFrom');
    this.flush();
    const orphans = (this.db.prepare(CLAIMS_WITHOUT_BATCH).get() as { n: number }).n;
    if (orphans > 0) {
      throw new ScrubberError(
        'CONFIG',
        `${this.db.name}: ${String(orphans)} claims of the cross-claim store have lost their batch row (a damaged file): scrub without --resume to start again`,
      );
    }
    this.db.transaction(() => {
      for (const table of ['claim_fact', 'service', 'limit_row']) {
        this.db.prepare(`DELETE FROM ${table} WHERE claim_order >= ?`).run(claimOrder);
      }
      // History services (claim order -1) and the answering phase's tables are made again by findings(); the
      // patients' counts and the lines (pruned by an answering phase that had begun), from the claims kept.
      this.db.exec(
        'DELETE FROM service WHERE claim_order < 0; DELETE FROM history; DELETE FROM answer; ' +
          'DROP TABLE IF EXISTS mue_claim; DROP TABLE IF EXISTS line_multi; DROP INDEX IF EXISTS service_key; ' +
          'DELETE FROM patient; DELETE FROM line; ' +
          'INSERT INTO patient SELECT patient, min(claim_order), count(*) FROM claim_fact GROUP BY patient',
      );
      this.db.exec(EXPAND_MULTI_CLAIMS);
    })();
    for (const r of this.db.prepare('SELECT DISTINCT rule_key AS k FROM rule_span').all() as { k: string }[]) {
      this.spans.add(r.k);
    }
  }

  private enabled(id: RuleId): boolean {
    return this.checks === undefined || this.checks.includes(id);
  }

  private expectOpen(method: string): void {
    if (this.state !== 'open') {
      throw new TypeError(
        `CrossClaimStore.${method}() called after ${this.state === 'closed' ? 'close()' : 'findings()'}`,
      );
    }
  }

  /**
   * Adds the facts of one claim (a claim without a patient id adds nothing; report its `notChecked` entries with
   * the claim's result).
   */
  add(facts: CrossClaimFacts): void {
    this.expectOpen('add');
    const writer = new FactsBatchWriter();
    writer.add(facts);
    this.addBatch(writer.batch());
  }

  /**
   * Adds the facts of a chunk's claims, as a worker gathered them (FactsBatchWriter). Rows are written when the
   * buffer holds `batchSize` of them.
   */
  addBatch(batch: FactsBatch): void {
    this.expectOpen('addBatch');
    if (batch.claims.length > 0) {
      const batchId = this.nextBatch++;
      this.batches.push([batchId, JSON.stringify(batch.mues.map((m) => this.mueIdOf(m)))]);
      for (const [claimOrder, claimId, patient, setting, lines] of batch.claims) {
        this.claims.push([claimOrder, claimId, patient, setting, batchId, lines]);
      }
    }
    for (const row of batch.limits) {
      this.limits.push(row);
    }
    for (const [ruleKey, procedures] of batch.rules) {
      if (!this.spans.has(ruleKey)) {
        this.spans.add(ruleKey);
        for (const p of procedures) {
          const span = spanOf(p);
          this.newSpans.push([ruleKey, span.from, span.to]);
        }
      }
    }
    if (this.claims.length + this.limits.length >= this.batchSize) {
      this.flush();
    }
  }

  /** The id of an MUE edit in mue_def, stored on first sight. */
  private mueIdOf(mue: CrossClaimMue): number {
    const key = mueKey(mue);
    let id = this.mueIds.get(key);
    if (id === undefined) {
      id = this.mueIds.size + 1;
      this.newMues.push([id, JSON.stringify(mue)]);
      this.mueIds.set(key, id);
    }
    return id;
  }

  /** Writes the buffered rows in one transaction (before a checkpoint: the facts of every claim written so far). */
  flush(): void {
    const { claims, limits, batches, newMues, newSpans } = this;
    if (claims.length === 0 && limits.length === 0 && newMues.length === 0 && newSpans.length === 0) {
      return;
    }
    this.claims = [];
    this.limits = [];
    this.batches = [];
    this.newMues = [];
    this.newSpans = [];
    this.db.transaction(() => {
      for (const [id, body] of newMues) {
        this.insertMue.run(id, body);
      }
      for (const [ruleKey, from, to] of newSpans) {
        this.insertSpan.run(ruleKey, from, to);
      }
      for (const [id, mueIds] of batches) {
        this.insertBatch.run(id, mueIds);
      }
      this.insertClaim(claims);
      this.insertLimit(limits);
      // Lines become rows when a claim's patient has another claim (the first one's too, when this is the second).
      const expand: number[] = [];
      for (const [claimOrder, , patient] of claims) {
        const seen = this.countPatient.get(patient, claimOrder) as { claims: number; firstOrder: number };
        if (seen.claims === 2) {
          expand.push(seen.firstOrder);
        }
        if (seen.claims >= 2) {
          expand.push(claimOrder);
        }
      }
      if (expand.length > 0) {
        this.expandClaims.run(JSON.stringify(expand));
      }
    })();
  }

  /**
   * Loads a history file of earlier services: CSV with a header row naming `patientId`, `dateOfService` (ISO) and
   * `procedureCode` (other columns are ignored). Its services count toward frequency limits only: a history line is
   * never itself reported, nor taken for a duplicate (the file has no modifiers).
   * @param path - the CSV file
   * @returns rows loaded and rejected (a row without a patient id, date or code, or with a date that is not ISO)
   * @throws ScrubberError INPUT_FORMAT when the file cannot be read as CSV or lacks a column
   */
  async loadHistory(path: string): Promise<HistoryLoad> {
    this.expectOpen('loadHistory');
    let loaded = 0;
    let rejectedCount = 0;
    const rejected: RejectedHistoryRow[] = [];
    let batch: [string, string, string, number][] = [];
    const write = this.db.transaction((rows: readonly [string, string, string, number][]) => {
      for (const r of rows) {
        this.insertHistory.run(r);
      }
    });
    let header: string[] | undefined;
    const parser = parse({
      // The header is checked as it is read, rows or none ("a header of other columns and no rows" loads nothing,
      // and a file without its header would read its first row as one).
      columns: (names: string[]) => {
        header = historyHeader(names);
        const problem = historyHeaderProblem(path, header);
        if (problem !== undefined) {
          throw new ScrubberError('INPUT_FORMAT', problem);
        }
        return header;
      },
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    });
    // pipeline() destroys the parser with the file's error (a missing file), so the loop below throws it.
    pipeline(createReadStream(path), parser, () => undefined);
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: Record<string, string | undefined>;
        info: { lines: number };
      }>) {
        const line = info.lines;
        const patient = record['patientId'] ?? '';
        const date = record['dateOfService'] ?? '';
        const code = normaliseCode(record['procedureCode'] ?? '');
        const reason =
          patient === ''
            ? 'no patientId'
            : code === ''
              ? 'no procedureCode'
              : IsoDate.safeParse(date).success
                ? undefined
                : // Not the cell's text: in a row shifted by a column it is a member id or name (never in a log).
                  'dateOfService is not a YYYY-MM-DD date';
        if (reason !== undefined) {
          rejectedCount++;
          if (rejected.length < MAX_REJECTED) {
            rejected.push({ line, reason });
          }
          continue;
        }
        batch.push([patient, date, code, line]);
        loaded++;
        if (batch.length >= this.batchSize) {
          write(batch);
          batch = [];
        }
      }
    } catch (err) {
      if (err instanceof ScrubberError) {
        throw err;
      }
      throw historyReadError(path, err);
    }
    write(batch);
    const problem = historyHeaderProblem(path, header);
    if (problem !== undefined) {
      throw new ScrubberError('INPUT_FORMAT', problem);
    }
    return { loaded, rejectedCount, rejected };
  }

  /**
   * Answers the batch checks over everything added and loaded; call once, after the last `add` and `loadHistory`.
   * @returns the findings, by claim order, then line, then check (duplicate, MUE, frequency); iterate them to the
   *   end (or call `return()`) before `close()`
   */
  findings(): IterableIterator<CrossClaimFinding> {
    this.expectOpen('findings');
    this.flush();
    this.state = 'answered';
    // Duplicates and MUE sums need two claims of one patient with the code on the date: the other lines go first, so
    // the window queries sort only what can match (on a 10M-line run of one claim per patient, the answering phase
    // took 110 s before any such step). One transaction: a crash leaves the whole table or the kept lines.
    this.db.transaction(() => {
      if (this.enabled('batch.frequency')) {
        this.db.exec(EXPAND_LIMITED_SINGLE_CLAIMS);
        this.db.exec(SERVICE_INDEX);
        this.db.exec(RUN_SERVICES);
      }
      for (const sql of KEEP_MULTI_CLAIM_LINES) {
        this.db.exec(sql);
      }
    })();
    if (this.enabled('batch.duplicate')) {
      this.db.exec(DUPLICATES);
    }
    if (this.enabled('batch.mue')) {
      this.db.exec(MUE_CLAIMS);
      this.db.exec(MUE_INDEX);
      this.db.exec(MUES);
    }
    if (this.enabled('batch.frequency')) {
      this.db.exec(HISTORY_SERVICES);
      this.db.exec(SERVICE_INDEX);
      this.db.exec(FREQUENCIES);
    }
    const rows = this.db
      .prepare('SELECT claim_order AS claimOrder, kind, body FROM answer ORDER BY claim_order, line_number, kind, seq')
      .iterate() as IterableIterator<{ claimOrder: number; kind: number; body: string }>;
    return (function* (): IterableIterator<CrossClaimFinding> {
      for (const r of rows) {
        yield { claimOrder: r.claimOrder, finding: render(r.kind, r.body) };
      }
    })();
  }

  /** Closes the database and removes its file. */
  close(): void {
    if (this.state === 'closed') {
      return;
    }
    this.state = 'closed';
    this.claims = [];
    this.limits = [];
    this.batches = [];
    this.db.close();
    if (this.dir !== undefined) {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** An answer row's body (JSON built by SQLite) as its finding. */
function render(kind: number, body: string): Finding {
  switch (kind) {
    case DUPLICATE:
      return duplicateFinding(JSON.parse(body) as DuplicateAnswer);
    case MUE: {
      const a = JSON.parse(body) as MueAnswer & { lines: number[] };
      return mueFinding({ ...a, lines: a.lines.sort((x, y) => x - y) });
    }
    case FREQUENCY: {
      const a = JSON.parse(body) as Omit<FrequencyAnswer, 'earlier'> & {
        earlier: { date: string; claimId: string | null; lineNumber: number }[];
      };
      return frequencyFinding({
        ...a,
        earlier: a.earlier.map((s) => ({
          date: s.date,
          claim: s.claimId === null ? undefined : { claimId: s.claimId, lineNumber: s.lineNumber },
        })),
      });
    }
    default:
      throw new RangeError(`unknown cross-claim answer kind ${String(kind)}`);
  }
}
