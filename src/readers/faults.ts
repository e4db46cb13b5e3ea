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
