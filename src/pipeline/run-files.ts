// The files a scrub run keeps in --out, named once for the run (run-scrub.ts) and for `scrub merge`
// (merge-shards.ts): the per-claim reports with their headers, the shard index, and the run's own state files.
import { existsSync } from 'node:fs';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorCode, OutputError, ScrubberError } from '../errors.js';
import { CLAIM_COLUMNS, csvHeader, FINDING_COLUMNS, REJECTED_COLUMNS, SHARD_INDEX_COLUMNS } from '../reports/rows.js';
import type { ReportText } from '../workers/messages.js';

/** The reports appended claim by claim, and the shard index written beside them in a `--shard` run. */
export const REPORTS = {
  findingsCsv: { file: 'findings.csv', header: csvHeader(FINDING_COLUMNS) },
  findingsNdjson: { file: 'findings.ndjson', header: '' },
  claimsCsv: { file: 'claims.csv', header: csvHeader(CLAIM_COLUMNS) },
  rejectedCsv: { file: 'rejected.csv', header: csvHeader(REJECTED_COLUMNS) },
  shardIndex: { file: 'shard-index.csv', header: csvHeader(SHARD_INDEX_COLUMNS) },
} as const;

/** The checkpoint: a run holding one has not finished. */
export const CHECKPOINT = '.scrub-checkpoint.json';
/** The cross-claim facts of the run, kept beside the checkpoint so a resumed run has those of the claims done. */
export const CROSS_CLAIM_DB = '.scrub-cross-claim.sqlite';
/**
 * The claims of the run as it goes on, one claim frame each (see ClaimFrame): claims.csv and shard-index.csv are
 * written from it at the end, when the cross-claim findings that count in a claim's status are known.
 */
export const CLAIMS_PART = '.scrub-claims.part';
/** The shard index's rows of cross-claim findings while claims.csv is written (they go after the claims' rows). */
export const BATCH_INDEX_PART = '.scrub-batch-index.part';
/** The file a finished shard run writes beside its reports. */
export const SHARD_MANIFEST = 'shard.json';
/**
 * The key of the run whose reports --out holds, written when it has finished (before its checkpoint goes): a
 * `--resume` after the end (a Kubernetes pod started again) keeps them instead of scrubbing the night again.
 */
export const FINISHED = '.scrub-finished';

/**
 * Whether a file name is one a run or a merge writes in --out (its reports, summary, page, 277CAs, manifest, and the
 * claims part files a run killed in its last step may leave).
 */
export function isRunReport(name: string): boolean {
  return (
    name === 'summary.json' ||
    name === 'report.html' ||
    name === SHARD_MANIFEST ||
    name === FINISHED ||
    name === CLAIMS_PART ||
    name === BATCH_INDEX_PART ||
    Object.values(REPORTS).some((r) => r.file === name) ||
    /^(277ca-.*\.x12|warnings-.*\.csv)$/.test(name)
  );
}

/**
 * Removes the reports of an earlier run from --out, before a fresh run or a merge writes its own: none may be left
 * behind that this one would not write again (yesterday's 277CA beside tonight's, a findings.ndjson of a run with
 * another --format).
 * @throws OutputError when one cannot be removed
 */
export async function removeEarlierReports(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    if (isRunReport(name)) {
      try {
        await rm(join(outDir, name), { force: true });
      } catch (e) {
        throw new OutputError(`cannot replace ${join(outDir, name)}: ${errorCode(e)}`, { cause: e });
      }
    }
  }
}

/** Bytes gathered before a report file writes them (fewer, larger writes). */
const GATHER_BYTES = 1 << 20;

/**
 * A report file open for appending, with its length (the bytes written). Text and bytes are appended at once
 * (`append`) or gathered (`gather`, `add`) and written a MiB at a time and at `flush`.
 */
export class ReportFile {
  private gathered: Buffer[] = [];
  private text = '';
  private pending = 0;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    public length: number,
  ) {}

  static async open(path: string, truncateTo: number | undefined, header: string): Promise<ReportFile> {
    try {
      if (truncateTo === undefined) {
        const handle = await open(path, 'w');
        const file = new ReportFile(path, handle, 0);
        await file.append(header);
        return file;
      }
      if (!existsSync(path)) {
        throw new ScrubberError(
          'CONFIG',
          `${path}, a report the checkpoint has written ${String(truncateTo)} bytes of, is missing: scrub without --resume to start again`,
        );
      }
      const handle = await open(path, 'r+');
      const size = (await handle.stat()).size;
      if (size < truncateTo) {
        await handle.close();
        throw new ScrubberError(
          'CONFIG',
          `${path} is shorter (${String(size)} bytes) than the checkpoint wrote (${String(truncateTo)}): the reports were changed since; scrub without --resume to start again`,
        );
      }
      await handle.truncate(truncateTo);
      return new ReportFile(path, handle, truncateTo);
    } catch (e) {
      if (e instanceof ScrubberError) {
        throw e;
      }
      throw new OutputError(`cannot write ${path}: ${errorCode(e)}`, { cause: e });
    }
  }

  /** Writes what was gathered, then `text`. */
  async append(text: ReportText): Promise<void> {
    this.gather(text);
    await this.flush();
  }

  /** Gathers text or bytes (UTF-8) to write after what was gathered before. */
  gather(data: ReportText): void {
    if (typeof data === 'string') {
      this.text += data;
    } else {
      this.textToBytes();
      this.gathered.push(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    this.pending += data.length;
  }

  /** Whether a MiB or more is gathered (a caller that gathers in a loop flushes then). */
  get full(): boolean {
    return this.pending >= GATHER_BYTES;
  }

  /** Gathers, and writes once a MiB is gathered. */
  async add(data: ReportText): Promise<void> {
    this.gather(data);
    if (this.full) {
      await this.flush();
    }
  }

  /** Writes everything gathered. */
  async flush(): Promise<void> {
    this.textToBytes();
    if (this.gathered.length === 0) {
      return;
    }
    const bytes = this.gathered.length === 1 ? (this.gathered[0] as Buffer) : Buffer.concat(this.gathered);
    this.gathered = [];
    this.pending = 0;
    try {
      await this.handle.write(bytes, 0, bytes.length, this.length);
    } catch (e) {
      throw new OutputError(`cannot write ${this.path}: ${errorCode(e)}`, { cause: e });
    }
    this.length += bytes.length;
  }

  /**
   * Writes everything gathered and waits until the file's bytes are on disk (fsync), so that a checkpoint naming
   * them holds after a machine crash too (see {@link replaceDurably}).
   */
  async sync(): Promise<void> {
    await this.flush();
    try {
      await this.handle.datasync();
    } catch (e) {
      throw new OutputError(`cannot write ${this.path}: ${errorCode(e)}`, { cause: e });
    }
  }

  private textToBytes(): void {
    if (this.text !== '') {
      this.gathered.push(Buffer.from(this.text, 'utf8'));
      this.text = '';
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

// A run resumes from its checkpoint after a killed process, and after a machine that stopped (a power cut, a
// preempted cloud VM: a night's batch often runs on one): what the checkpoint names must then be on disk, not only in
// the page cache the crash took. Report files are synced before the checkpoint that names their lengths is written,
// the checkpoint and the marker of a finished run are replaced whole (a synced temporary file renamed, the folder
// synced), and the reports are synced before that marker says the run has finished.

/**
 * Syncs a folder, so that a file renamed into it stays renamed after a crash. Where a folder cannot be synced
 * (Windows, file systems that refuse it) this is skipped: the rename is as durable as the platform makes it.
 */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (e) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP', 'EBADF'].includes(errorCode(e))) {
      throw e;
    }
  } finally {
    await handle?.close();
  }
}

/**
 * Writes a whole file in place of the one at `path` durably: the text to a temporary file beside it, synced, renamed
 * over it, the folder synced. After a crash the file is the old one or the new one, never a part.
 * @throws OutputError naming `path` when it cannot be written
 */
export async function replaceDurably(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    await syncDir(dirname(path));
  } catch (e) {
    throw new OutputError(`cannot write ${path}: ${errorCode(e)}`, { cause: e });
  }
}

/**
 * Syncs the reports a run has written in --out (the summary's list), before the run is marked finished. Each is
 * opened for writing, as Windows needs to sync a file; no other file in --out is touched.
 * @throws OutputError naming the file that cannot be synced
 */
export async function syncReports(outDir: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const path = join(outDir, name);
    try {
      const handle = await open(path, 'r+');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch (e) {
      throw new OutputError(`cannot write ${path}: ${errorCode(e)}`, { cause: e });
    }
  }
}
