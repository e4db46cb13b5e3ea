// Faults of an input's byte stream that the readers tell apart from a cut.

/**
 * A fault found after every byte of an input's data was delivered whole (bytes after a gzip's last member that are
 * no member: gzip-members.ts). The readers take their last record, line or segment as whole (after a cut they
 * reject its claim: the cut may have taken its rest), then pass the fault on: the input is still reported with it.
 */
export class FaultAfterData extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultAfterData';
  }
}

/** A source's chunks up to a FaultAfterData, which ends them as the source's end would (see {@link dataOf}). */
export interface DataChunks {
  readonly chunks: AsyncIterable<Buffer>;
  /** Throws the FaultAfterData that ended the chunks, if one did: a reader calls it once its last record is read. */
  passOn(): void;
}

/**
 * A source read by a reader of records, lines or segments: a FaultAfterData ends its chunks like the end of the
 * data (the reader reads its last record as whole), and `passOn()` then throws it. Any other fault is thrown where
 * it is met, as before.
 */
export function dataOf(source: AsyncIterable<Buffer>): DataChunks {
  let after: FaultAfterData | undefined;
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of source) {
        yield chunk;
      }
    } catch (e) {
      if (!(e instanceof FaultAfterData)) {
        throw e;
      }
      after = e;
    }
  }
  return {
    chunks: chunks(),
    passOn: () => {
      if (after !== undefined) {
        throw after;
      }
    },
  };
}
