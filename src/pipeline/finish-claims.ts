// The end of a scrub run's claim reports (issue 12 §4, §5): the cross-claim findings are written after every claim's
// own, and each claim's claims.csv row is written with them counted in its status, in one pass in claim order:
//
//   CrossClaimStore.findings() (claim order) ──findings text──> findings.csv / findings.ndjson (appended)
//   .scrub-claims.part (claim frames, claim order) ──row bytes copied; + the claim's cross-claim counts──> claims.csv
//     ──with --shard──> shard-index.csv (part `claim` rows, then the `batch` rows gathered in .scrub-batch-index.part)
//
// The run's counts move with the claims whose status a cross-claim finding made worse, so summary.json, report.html
// and the 277CA agree with claims.csv. Nothing here is kept per claim past its row: memory stays flat.
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, OutputError, ScrubberError } from '../errors.js';
import {
  addSeverity,
  claimsCsvRow,
  csvText,
  findingJson,
  findingRow,
  FRAME,
  FRAME_CELLS,
  FRAME_HEADER_MAX,
  frameTally,
  readFrameHeader,
  rowTailLength,
  shardIndexRow,
  withCrossClaim,
  type ClaimFrame,
  type SeverityCounts,
} from '../reports/rows.js';
import { countFinding, moveClaimStatus, type ChunkStats, type ReportSelection } from '../workers/messages.js';
import type { CrossClaimFinding } from './cross-claim-store.js';
import { BATCH_INDEX_PART, REPORTS, ReportFile } from './run-files.js';

/** Bytes read from the claims part file at a time. */
const READ_BYTES = 1 << 20;

/**
 * The claim frames of a claims part file, one at a time in the order written. A frame is read without making strings
 * (`cells`, `row()`); `frame()` decodes the one a caller needs whole.
 *
 *   while (await reader.next()) ... reader.cells[FRAME.order], reader.row() (its claims.csv row's bytes)
 */
export class ClaimFrameReader {
  /** The current frame's header cells (FRAME order), after `next()` or `nextBuffered()` answered true. */
  readonly cells = new Float64Array(FRAME_CELLS);
  private buffer: Buffer = Buffer.alloc(0);
  /** Where the next frame starts in `buffer`. */
  private at = 0;
  /** Where the current frame's provider and row start in `buffer`. */
  private providerAt = 0;
  private rowAt = 0;
  private frames = 0;
  private position = 0;
  private ended = false;

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(path: string): Promise<ClaimFrameReader> {
    return new ClaimFrameReader(path, await open(path, 'r'));
  }

  /**
   * Moves to the next frame.
   * @returns false after the last
   * @throws ScrubberError INPUT_FORMAT when the file is not a sequence of whole frames
   */
  async next(): Promise<boolean> {
    while (!this.nextBuffered()) {
      if (this.ended) {
        if (this.at < this.buffer.length) {
          throw this.broken();
        }
        return false;
      }
      await this.fill();
    }
    return true;
  }

  /**
   * Moves to the next frame if the bytes read so far hold it whole (the fast path of a caller going frame by frame;
   * `next()` when this answers false).
   */
  nextBuffered(): boolean {
    const { buffer, at, cells } = this;
    const nl = buffer.indexOf(10, at);
    if (nl < 0 || nl - at > FRAME_HEADER_MAX) {
      if (buffer.length - at > FRAME_HEADER_MAX) {
        throw this.broken();
      }
      return false;
    }
    if (!readFrameHeader(buffer, at, nl, cells)) {
      throw this.broken();
    }
    const rowAt = nl + 1 + (cells[FRAME.providerBytes] as number);
    const end = rowAt + (cells[FRAME.rowBytes] as number);
    if (end > buffer.length) {
      return false;
    }
    // A row is copied as it stands: its head ends in a comma, and its tail is as long as the header's tally writes
    // it and ends the line.
    const tailAt = end - rowTailLength(cells);
    if (buffer[end - 1] !== 10 || tailAt !== rowAt + (cells[FRAME.headBytes] as number) || buffer[tailAt - 1] !== 44) {
      throw this.broken();
    }
    this.providerAt = nl + 1;
    this.rowAt = rowAt;
    this.at = end;
    this.frames++;
    return true;
  }

  /** The current frame's claims.csv row as its own findings make it (bytes shared with the reader's buffer). */
  row(): Buffer {
    return this.buffer.subarray(this.rowAt, this.at);
  }

  /** The current frame, decoded. */
  frame(): ClaimFrame {
    const { cells, buffer } = this;
    return {
      order: cells[FRAME.order] as number,
      bytes: [cells[FRAME.findingsCsv] as number, cells[FRAME.findingsNdjson] as number, cells[FRAME.rejected] as number],
      tally: frameTally(cells),
      provider: buffer.toString('utf8', this.providerAt, this.rowAt),
      head: buffer.toString('utf8', this.rowAt, this.rowAt + (cells[FRAME.headBytes] as number)),
    };
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** Reads on into a new buffer (rows handed out keep the old one). */
  private async fill(): Promise<void> {
    const read = Buffer.allocUnsafe(READ_BYTES);
    const { bytesRead } = await this.handle.read(read, 0, READ_BYTES, this.position);
    this.position += bytesRead;
    if (bytesRead === 0) {
      this.ended = true;
      return;
    }
    const left = this.buffer.length - this.at;
    this.buffer = left === 0 ? read.subarray(0, bytesRead) : Buffer.concat([this.buffer.subarray(this.at), read.subarray(0, bytesRead)]);
    this.at = 0;
  }

  private broken(): ScrubberError {
    return new ScrubberError(
      'INPUT_FORMAT',
      `${this.path}: claim ${String(this.frames + 1)} of the run's claims file is cut or malformed: scrub without --resume to start again`,
    );
  }
}

/** What {@link finishClaims} writes from and to. */
export interface FinishClaimsOptions {
  readonly outDir: string;
  /** The run's claims part file (CLAIMS_PART). */
  readonly claimsPart: string;
  /** The cross-claim findings in claim order; none when no cross-claim check ran. */
  readonly crossClaim: Iterable<CrossClaimFinding> | undefined;
  /** The input file of a claim, by its position in the run (the `file` of its findings rows). */
  readonly fileOf: (order: number) => string;
  readonly formats: ReportSelection;
  /** Write shard-index.csv (a `--shard` run). */
  readonly sharded: boolean;
  /** The run's findings reports, open for appending. */
  readonly findingsCsv: ReportFile | undefined;
  readonly findingsNdjson: ReportFile | undefined;
}

/**
 * Writes the cross-claim findings, claims.csv and (sharded) shard-index.csv from the claims part file; counts the
 * cross-claim findings in `stats` and moves the claims they made worse to their new status there.
 * @throws OutputError when a report cannot be written; ScrubberError INPUT_FORMAT when the part file is damaged or
 *   out of step with the cross-claim findings
 */
export async function finishClaims(options: FinishClaimsOptions, stats: ChunkStats): Promise<void> {
  const { outDir } = options;
  const opened: { close(): Promise<void> }[] = [];
  const openReport = async (path: string, header: string): Promise<ReportFile> => {
    const f = await ReportFile.open(path, undefined, header);
    opened.push(f);
    return f;
  };
  const batchIndexPath = join(outDir, BATCH_INDEX_PART);
  try {
    const claims = await openReport(join(outDir, REPORTS.claimsCsv.file), REPORTS.claimsCsv.header);
    const index = options.sharded
      ? await openReport(join(outDir, REPORTS.shardIndex.file), REPORTS.shardIndex.header)
      : undefined;
    const batchIndex = options.sharded ? await openReport(batchIndexPath, '') : undefined;
    const { findingsCsv, findingsNdjson } = options;

    const buffers = [claims, index, batchIndex, findingsCsv, findingsNdjson];
    const flushFull = async (): Promise<void> => {
      for (const buffer of buffers) {
        if (buffer?.full === true) {
          await buffer.flush();
        }
      }
    };

    // The claim frames in order; `current` says whether the reader is at one not yet written.
    const frames = await ClaimFrameReader.open(options.claimsPart);
    opened.push(frames);
    const { cells } = frames;
    let current = await frames.next();
    /** Moves past the frame written. */
    const nextFrame = async (): Promise<void> => {
      if (!frames.nextBuffered()) {
        await flushFull();
        current = await frames.next();
      }
    };
    /** Writes the current claim's row as it stands (it has no cross-claim finding): its bytes are copied. */
    const copyClaim = (): void => {
      const row = frames.row();
      claims.gather(row);
      index?.gather(
        shardIndexRow('claim', cells[FRAME.order] as number, [
          cells[FRAME.findingsCsv] as number,
          cells[FRAME.findingsNdjson] as number,
          row.length,
          cells[FRAME.rejected] as number,
        ]),
      );
    };
    /** Writes the current claim's row again with its cross-claim counts. */
    const writeClaim = (cross: SeverityCounts): void => {
      const f = frames.frame();
      const tally = withCrossClaim(f.tally, cross);
      const row = claimsCsvRow(f.head, tally);
      claims.gather(row);
      index?.gather(
        shardIndexRow('claim', f.order, [f.bytes[0], f.bytes[1], Buffer.byteLength(row, 'utf8'), f.bytes[2]]),
      );
      if (tally.status !== f.tally.status) {
        moveClaimStatus(stats, f.provider, f.tally.status, tally.status, tally.notChecked);
      }
    };
    /** Writes the claims before position `order` (they have no cross-claim finding); stops at the first after. */
    const writeClaimsBefore = async (order: number): Promise<void> => {
      while (current && (cells[FRAME.order] as number) < order) {
        copyClaim();
        await nextFrame();
      }
    };

    // One claim's cross-claim findings at a time, in claim order, as the store answers them.
    const claim = { order: -1, csv: '', ndjson: '', counts: { errors: 0, warnings: 0, info: 0 } };
    const endClaim = async (): Promise<void> => {
      if (claim.order < 0) {
        return;
      }
      await writeClaimsBefore(claim.order);
      if (!current || cells[FRAME.order] !== claim.order) {
        throw new ScrubberError(
          'INPUT_FORMAT',
          `${options.claimsPart}: no claim at position ${String(claim.order)}, which has cross-claim findings: scrub without --resume to start again`,
        );
      }
      findingsCsv?.gather(claim.csv);
      findingsNdjson?.gather(claim.ndjson);
      batchIndex?.gather(
        shardIndexRow('batch', claim.order, [
          Buffer.byteLength(claim.csv, 'utf8'),
          Buffer.byteLength(claim.ndjson, 'utf8'),
          0,
          0,
        ]),
      );
      writeClaim(claim.counts);
      await nextFrame();
      await flushFull();
    };
    for (const { claimOrder, finding } of options.crossClaim ?? []) {
      if (claimOrder !== claim.order) {
        await endClaim();
        claim.order = claimOrder;
        claim.csv = '';
        claim.ndjson = '';
        claim.counts = { errors: 0, warnings: 0, info: 0 };
      }
      const file = options.fileOf(claimOrder);
      countFinding(stats, finding);
      addSeverity(claim.counts, finding.severity);
      if (options.formats.csv) {
        claim.csv += csvText([findingRow(file, finding)]);
      }
      if (options.formats.ndjson) {
        claim.ndjson += `${findingJson(file, finding)}\n`;
      }
    }
    await endClaim();
    await writeClaimsBefore(Number.POSITIVE_INFINITY);
    for (const buffer of buffers) {
      await buffer?.flush();
    }
    if (index !== undefined && batchIndex !== undefined) {
      // The batch rows follow every claim row, as `scrub merge` reads them.
      for await (const chunk of createReadStream(batchIndexPath, {
        encoding: 'utf8',
        highWaterMark: 1 << 20,
      }) as AsyncIterable<string>) {
        await index.add(chunk);
      }
      await index.flush();
    }
  } finally {
    for (const f of opened) {
      await f.close();
    }
  }
  try {
    await rm(batchIndexPath, { force: true });
  } catch (e) {
    throw new OutputError(`cannot remove ${batchIndexPath}: ${errorCode(e)}`, { cause: e });
  }
}
