// `--group-by claimId` (issue 12 §2): a CSV whose rows of one claim are not adjacent is gathered through a temporary
// SQLite file, so memory stays bounded by a batch of rows whatever the file size. Claims come out in the order their
// first row appears, each with its rows in file order; a record whose claim id cannot be read is a claim of its own.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimOfRecord, type CsvRowGroup } from '../readers/claims/csv-claims.js';
import type { CsvRecord } from '../readers/claims/csv-records.js';

/** Rows buffered before one insert transaction. */
const BATCH = 5000;

/** The name prefix of a gatherer's scratch folder (a run removes those a killed run left in its --out folder). */
export const GATHER_DIR_PREFIX = '.scrub-group-by-';

/** Gathers the records of a CSV by claim id. */
export class ClaimGatherer {
  private readonly dir: string;
  private readonly db: Database.Database;
  private buffer: [string, number, number, string, string | null][] = [];
  private seq = 0;
  private readonly insertClaim;
  private readonly insertRow;

  /**
   * @param idColumn - the claimId column
   * @param parent - where the scratch folder goes: a scrub run's --out folder, so the claim rows (patient data) a
   *   killed run leaves sit with its reports and the next run removes them, not in the system's temp folder
   */
  constructor(
    private readonly idColumn: number,
    parent: string = tmpdir(),
  ) {
    this.dir = mkdtempSync(join(parent, GATHER_DIR_PREFIX));
    this.db = new Database(join(this.dir, 'rows.sqlite'));
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(`
      CREATE TABLE claim (claim_id TEXT PRIMARY KEY, first INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE row (claim_id TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL, text TEXT NOT NULL, problem TEXT);`);
    this.insertClaim = this.db.prepare('INSERT OR IGNORE INTO claim VALUES (?, ?)');
    this.insertRow = this.db.prepare('INSERT INTO row VALUES (?, ?, ?, ?, ?)');
  }

  /** Adds a record (the header excluded). */
  add(record: CsvRecord): void {
    const seq = this.seq++;
    const id = claimOfRecord(record, this.idColumn);
    // A record without a readable id is a claim of its own (keyed so it cannot meet a real id); an unreadable one
    // with a readable id stays with its claim, which is then rejected whole (as without --group-by).
    const key = id === undefined || id === '' ? `\u0000${String(seq)}` : id;
    this.buffer.push([key, seq, record.line, record.text, record.problem ?? null]);
    if (this.buffer.length >= BATCH) {
      this.flush();
    }
  }

  private flush(): void {
    const rows = this.buffer;
    this.buffer = [];
    this.db.transaction(() => {
      for (const r of rows) {
        this.insertClaim.run(r[0], r[1]);
        this.insertRow.run(...r);
      }
    })();
  }

  /** The claims, in the order of their first record, each with its records in file order. */
  *groups(): Generator<CsvRowGroup> {
    this.flush();
    this.db.exec('CREATE INDEX row_claim ON row (claim_id, seq)');
    const rows = this.db
      .prepare(
        `SELECT r.claim_id AS id, r.line, r.text, r.problem FROM claim c JOIN row r ON r.claim_id = c.claim_id
         ORDER BY c.first, r.seq`,
      )
      .iterate() as IterableIterator<{ id: string; line: number; text: string; problem: string | null }>;
    let current: CsvRowGroup | undefined;
    for (const r of rows) {
      const record: CsvRecord = r.problem === null ? { text: r.text, line: r.line } : { text: r.text, line: r.line, problem: r.problem };
      if (current !== undefined && current.claimId === r.id) {
        current.records.push(record);
        continue;
      }
      if (current !== undefined) {
        yield current;
      }
      current = { claimId: r.id.startsWith('\u0000') ? '' : r.id, records: [record] };
    }
    if (current !== undefined) {
      yield current;
    }
  }

  /** Removes the temporary file. */
  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
