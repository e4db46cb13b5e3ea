// The end of a scrub run's claim reports (issue 12 §4, §5): the cross-claim findings are written after every claim's
// own, and each claim's claims.csv row is written with them counted in its status, in one pass in claim order:
//
//   CrossClaimStore.findings() (claim order) ──findings text──> findings.csv / findings.ndjson (appended)
//   .scrub-claims.part (claim frames, claim order) ──+ the claim's cross-claim counts──> claims.csv
//     ──with --shard──> shard-index.csv (part `claim` rows, then the `batch` rows gathered in .scrub-batch-index.part)
//
// The run's counts move with the claims whose status a cross-claim finding made worse, so summary.json, report.html
// and the 277CA agree with claims.csv. Nothing here is kept per claim past its row: memory stays flat.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, OutputError, ScrubberError } from '../errors.js';
import {
  addSeverity,
  claimFrameHeader,
  claimsCsvRow,
  csvText,
  findingJson,
  findingRow,
  shardIndexRow,
  withCrossClaim,
  type ClaimFrame,
  type SeverityCounts,
} from '../reports/rows.js';
import { countFinding, moveClaimStatus, type ChunkStats, type ReportSelection } from '../workers/messages.js';
import type { CrossClaimFinding } from './cross-claim-store.js';
import { BATCH_INDEX_PART, REPORTS, ReportFile } from './run-files.js';

/**
 * The claim frames of a claims part file, in the order written, a buffer's worth at a time.
 * @throws ScrubberError INPUT_FORMAT when the file is not a sequence of whole frames
 */
export async function* readClaimFrames(path: string): AsyncGenerator<ClaimFrame[]> {
  let buffer: Buffer = Buffer.alloc(0);
  let frames = 0;
  const broken = (): ScrubberError =>
    new ScrubberError(
      'INPUT_FORMAT',
      `${path}: claim ${String(frames + 1)} of the run's claims file is cut or malformed: scrub without --resume to start again`,
    );
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const batch: ClaimFrame[] = [];
    let at = 0;
    for (;;) {
      const nl = buffer.indexOf(10, at);
      if (nl < 0) {
        break;
      }
      const header = claimFrameHeader(buffer.toString('latin1', at, nl));
      if (header === undefined) {
        throw broken();
      }
      const providerEnd = nl + 1 + header.providerBytes;
      const end = providerEnd + header.headBytes;
      if (end > buffer.length) {
        break;
      }
      batch.push({
        ...header.frame,
        provider: buffer.toString('utf8', nl + 1, providerEnd),
        head: buffer.toString('utf8', providerEnd, end),
      });
      frames++;
      at = end;
    }
    buffer = buffer.subarray(at);
    yield batch;
  }
  if (buffer.length > 0) {
    throw broken();
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
  const opened: ReportFile[] = [];
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

    // The claim frames, a batch at a time; `batch[at]` is the next claim to write.
    const batches = readClaimFrames(options.claimsPart)[Symbol.asyncIterator]();
    let batch: ClaimFrame[] = [];
    let at = 0;
    let ended = false;
    /** Writes a claim's claims.csv row and index row, with its cross-claim counts. */
    const writeClaim = (f: ClaimFrame, cross: SeverityCounts | undefined): void => {
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
      for (;;) {
        for (let f = batch[at]; f !== undefined && f.order < order; f = batch[++at]) {
          writeClaim(f, undefined);
        }
        if (at < batch.length || ended) {
          return;
        }
        await flushFull();
        const next = await batches.next();
        if (next.done === true) {
          ended = true;
        } else {
          batch = next.value;
          at = 0;
        }
      }
    };

    // One claim's cross-claim findings at a time, in claim order, as the store answers them.
    const claim = { order: -1, csv: '', ndjson: '', counts: { errors: 0, warnings: 0, info: 0 } };
    const endClaim = async (): Promise<void> => {
      if (claim.order < 0) {
        return;
      }
      await writeClaimsBefore(claim.order);
      const f = batch[at];
      if (f?.order !== claim.order) {
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
      writeClaim(f, claim.counts);
      at++;
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
