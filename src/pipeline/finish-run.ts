// The last reports of a scrub run, written from the closed per-claim reports and the summary: a 277CA and a
// warnings report per 837 input, summary.json and report.html. One step for a run and for `scrub merge`.
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errorCode, OutputError } from '../errors.js';
import { openBytes, type ByteLocation } from '../readers/byte-source.js';
import type { ClaimInput } from '../readers/claims/detect.js';
import { readX12AckItems } from '../readers/claims/x12-ack.js';
import { AckSourceError, write277caFromReports, type Ack277caEnvelope } from '../reports/ack-277ca.js';
import { renderHtmlReport } from '../reports/html-report.js';
import type { InputFormat, ScrubSummary } from '../schemas/scrub.js';
import type { X12AckItem } from '../schemas/x12-ack.js';

/** An input as the last step needs it: its name in the reports, format, and the name of its 277CA files. */
export interface FinishInput {
  readonly name: string;
  /** `undefined` for a file that is not a claim file (see ClaimInput.error). */
  readonly format?: InputFormat | undefined;
  /** `277ca-<ackName>.x12` and `warnings-<ackName>.csv` (X12 inputs). */
  readonly ackName: string;
  /** The X12 input's ISA15 (see ClaimInput.usage). */
  readonly usage?: 'P' | 'T' | undefined;
  /** Where the input is: its 277CA reads the 837 again for the parties, charges and dates it repeats. */
  readonly location?: ByteLocation | undefined;
}

/**
 * The names of the inputs' 277CA files: the file's base name (with the ZIP member's); two X12 inputs with one base
 * name (d1/x.837, d2/x.837) get their position in front, so neither is lost.
 */
export function finishInputs(inputs: readonly ClaimInput[]): FinishInput[] {
  const base = inputs.map((i) => basename(i.location.path) + (i.location.member === undefined ? '' : `-${basename(i.location.member)}`));
  const x12 = inputs.map((input, i) => ({ input, own: base[i] ?? '' })).filter((x) => x.input.format === 'x12');
  return inputs.map((input, i) => {
    const own = base[i] ?? '';
    const at = x12.findIndex((x) => x.input === input);
    const twins = x12.filter((x) => x.own === own).length;
    return {
      name: input.name,
      format: input.format,
      ackName: at >= 0 && twins > 1 ? `${String(at + 1)}-${own}` : own,
      ...(input.usage === undefined ? {} : { usage: input.usage }),
      location: input.location,
    };
  });
}

/**
 * The interchange and group control number of the 277CA of a run's `i`-th X12 input (1 to 999,999,999): the minute
 * the run started times 1,000, plus `i`. A resumed run keeps its start and a merge takes its earliest shard's, so
 * their acknowledgements are the same; tonight's do not repeat last night's (a receiver takes a repeated interchange
 * control number from one sender for a duplicate). The numbers come round again after about 694 days.
 */
export function ackControlNumber(startedAt: string, i: number): number {
  const minutes = Math.floor(Date.parse(startedAt) / 60_000);
  const base = Number.isFinite(minutes) ? (minutes % 1_000_000) * 1000 : 0;
  return ((base + i) % 999_999_999) + 1;
}

/**
 * An 837's acknowledgement items, read again from where the run read it; fails at the end when its bytes are not
 * the ones the run scrubbed (`sha256`, the summary's digest of the input).
 */
async function* ackItemsOf(location: ByteLocation, name: string, sha256: string): AsyncGenerator<X12AckItem> {
  const opened = await openBytes(location);
  try {
    yield* readX12AckItems(opened.stream, name);
    if (opened.storedSha256() !== sha256) {
      throw new Error(`its content is not the one scrubbed (SHA-256 ${opened.storedSha256()}, the run read ${sha256})`);
    }
  } finally {
    await opened.close();
  }
}

/**
 * Writes the 277CA and warnings report of each X12 input (added to `summary.reports`) unless `acks` is off, then
 * summary.json and report.html.
 * @throws OutputError when a file cannot be written
 */
export async function finishRun(
  outDir: string,
  inputs: readonly FinishInput[],
  summary: ScrubSummary,
  options: {
    readonly csv: boolean;
    readonly note: (text: string) => void;
    /** Write the 277CA and warnings reports (a shard leaves them to `scrub merge`: a shard's would list some claims). */
    readonly acks: boolean;
  },
): Promise<void> {
  const x12Inputs = options.acks ? inputs.filter((i) => i.format === 'x12') : [];
  if (x12Inputs.length > 0 && !options.csv) {
    options.note('no 277CA: the acknowledgement is built from findings.csv, which --format without csv does not write');
  } else {
    const created = summary.startedAt.replace(/[-:]/g, '');
    for (const [i, input] of x12Inputs.entries()) {
      // The scrubber's own names stand in for what the 837 does not give (or when it cannot be read again).
      const envelope: Ack277caEnvelope = {
        senderId: 'CLAIMSCRUBBER',
        receiverId: 'SUBMITTER',
        interchangeControlNumber: ackControlNumber(summary.startedAt, i),
        groupControlNumber: ackControlNumber(summary.startedAt, i),
        usage: input.usage,
        creationDate: created.slice(0, 8),
        creationTime: created.slice(9, 13),
        informationSource: { name: 'CLAIM SCRUBBER', id: 'CLAIMSCRUBBER' },
        informationReceiver: { name: 'SUBMITTER', id: 'SUBMITTER' },
      };
      const write = (source?: AsyncIterable<X12AckItem>): ReturnType<typeof write277caFromReports> =>
        write277caFromReports(outDir, input.name, envelope, { name: input.ackName, source });
      try {
        const digest = summary.inputs.find((s) => s.name === input.name)?.sha256;
        let written: Awaited<ReturnType<typeof write277caFromReports>> | undefined;
        const without = 'its 277CA names no billing provider, patient, charge or service date';
        if (input.location === undefined) {
          options.note(`${input.name}: ${without} (where the 837 was read is not recorded: a shard of an older version)`);
        } else if (digest === undefined) {
          options.note(`${input.name}: ${without} (the 837 was not read to its end)`);
        } else {
          try {
            written = await write(ackItemsOf(input.location, input.name, digest));
          } catch (e) {
            // A value of the 837 the writer cannot use (RangeError) is no reason to lose the acknowledgement either.
            if (!(e instanceof AckSourceError) && !(e instanceof RangeError)) {
              throw e;
            }
            options.note(`${e instanceof AckSourceError ? e.message : `${input.name}: ${e.message}`}; ${without}`);
          }
        }
        const { ackFile, warningsFile } = written ?? (await write());
        if (written !== undefined && written.otherSender > 0) {
          options.note(
            `${input.name}: ${written.otherSender} claim(s) of another sender or submitter than its first are acknowledged in ${basename(ackFile)} to the first, without their billing provider, patient, charge or service date (one 277CA answers one sender)`,
          );
        }
        summary.reports.push(basename(ackFile), basename(warningsFile));
      } catch (e) {
        throw new OutputError(`cannot write the 277CA of ${input.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
  }
  try {
    await writeFile(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    await writeFile(join(outDir, 'report.html'), renderHtmlReport(summary));
  } catch (e) {
    throw new OutputError(`cannot write the summary: ${errorCode(e)}`, { cause: e });
  }
}
