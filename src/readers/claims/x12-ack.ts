// What a 277CA answering an 837 repeats from it (issue 12 §4; domain.md §14): the interchange's parties, the
// batch id, and per claim its billing provider, patient, total charge and service dates. The scrub itself needs
// none of these, so the claim reader leaves them out of the claim model; the acknowledgement reads the file again
// with this scanner, which walks the same segments (the same tokenizer, so the same segment numbers) and keeps
// only those values. A claim is named by its CLM segment number, as claims.csv names it.
import type { X12AckEnvelope, X12AckItem, X12Party } from '../../schemas/x12-ack.js';
import { CLAIM_CHARGE } from './decimal.js';
import { utf8OfLatin1 } from './utf8.js';
import { readX12Batches, type X12Segment } from './x12-segments.js';
import { componentAt, rangeOf, separatorOf } from './x12.js';

interface ClaimDraft {
  readonly segNo: number;
  readonly claimId: string;
  readonly sender: string;
  readonly totalCharge: number | undefined;
  readonly billType: string | undefined;
  readonly billingProvider: X12Party | undefined;
  readonly patient: X12Party | undefined;
  clearinghouseTrace: string | undefined;
  /** Whether an LX was read: REF segments after it are the lines'. */
  inLines: boolean;
  statement: string | undefined;
  first: string | undefined;
  last: string | undefined;
}

/**
 * An institutional claim's bill type: CLM05-1 (facility type, 2 characters) and CLM05-3 (frequency, 1), when CLM05-2
 * says they are a bill type (`A`, as an 837I writes `13:A:1`); `undefined` for a professional claim (`B`, a place
 * of service) or a composite that does not read. Its components are split as the claim reader splits them.
 */
function billTypeOf(seg: X12Segment): string | undefined {
  const clm05 = el(seg, 5);
  const sep = separatorOf(clm05, seg.delimiters.component);
  const [facility, qualifier, frequency] = [0, 1, 2].map((i) => componentAt(clm05, sep, i).trim()) as [string, string, string];
  return qualifier.toUpperCase() === 'A' && /^[0-9A-Z]{2}$/i.test(facility) && /^[0-9A-Z]$/i.test(frequency)
    ? `${facility}${frequency}`.toUpperCase()
    : undefined;
}

/** A person of whom the 837 gives no name yet (an HL 22 or 23 before its NM1). */
const UNNAMED: X12Party = { entity: '1', name: '', qualifier: '', id: '' };

function el(seg: X12Segment, i: number): string {
  return utf8OfLatin1(seg.element(i).trim());
}

function partyOf(seg: X12Segment): X12Party {
  const firstName = el(seg, 4);
  return {
    entity: el(seg, 2) === '1' ? '1' : '2',
    name: el(seg, 3),
    ...(firstName === '' ? {} : { firstName }),
    qualifier: el(seg, 8),
    id: el(seg, 9),
  };
}

/** An ISO day as X12 writes it (CCYYMMDD). */
const d8 = (iso: string): string => iso.replace(/-/g, '');

/**
 * Scans an 837's segments for what its 277CA repeats: one `envelope` item before the first claim (when the file
 * opens with an ISA), then one `claim` item per CLM, in file order. Nothing is checked or rejected here: the scrub
 * already did that, and the acknowledgement only takes what reads.
 */
export class X12AckScanner {
  private envelope: {
    senderQualifier: string;
    senderId: string;
    receiverQualifier: string;
    receiverId: string;
    applicationSender: string;
    applicationReceiver: string;
    batchId?: string | undefined;
    submitter?: X12Party | undefined;
    receiver?: X12Party | undefined;
    delimiters: X12AckEnvelope['delimiters'];
  } | undefined;
  /** ISA06 of the interchange being read, and the 1000A submitter id of its transaction. */
  private isaSender = '';
  private submitter = '';
  private envelopeSent = false;
  private interchanges = 0;
  private level = '';
  /** The entity of the last NM1 before the claim (a REF*EI is the billing provider's only after its NM1*85). */
  private entity = '';
  private provider: X12Party | undefined;
  private subscriber: X12Party | undefined;
  private patient: X12Party | undefined;
  private claim: ClaimDraft | undefined;

  /** Reads one segment; adds the items it completes to `out`, in order. */
  segment(seg: X12Segment, out: X12AckItem[]): void {
    switch (seg.id) {
      case 'ISA':
        this.close(out);
        this.interchanges++;
        this.isaSender = el(seg, 6);
        if (this.interchanges === 1) {
          this.envelope = {
            senderQualifier: el(seg, 5),
            senderId: el(seg, 6),
            receiverQualifier: el(seg, 7),
            receiverId: el(seg, 8),
            applicationSender: '',
            applicationReceiver: '',
            delimiters: seg.delimiters,
          };
        }
        return;
      case 'GS':
        this.close(out);
        if (this.interchanges === 1 && this.envelope !== undefined && this.envelope.applicationSender === '') {
          this.envelope.applicationSender = el(seg, 2);
          this.envelope.applicationReceiver = el(seg, 3);
        }
        return;
      case 'ST':
      case 'SE':
      case 'GE':
      case 'IEA':
        this.close(out);
        if (seg.id === 'ST') {
          // Its own 1000A NM1*41 names the transaction's submitter.
          this.submitter = '';
        }
        this.level = '';
        this.provider = undefined;
        this.subscriber = undefined;
        this.patient = undefined;
        return;
      case 'BHT':
        if (this.envelope !== undefined && this.envelope.batchId === undefined && !this.envelopeSent) {
          this.envelope.batchId = el(seg, 3);
        }
        return;
      case 'HL':
        this.close(out);
        this.level = el(seg, 3);
        this.entity = '';
        // As the claim reader does: a subscriber or patient level starts a new person, whose name the NM1 gives (an
        // HL 23 without NM1*QC has none); a level it does not know starts an unknown subscriber, so no claim under it
        // takes the previous claim's patient.
        if (this.level === '20') {
          this.provider = undefined;
          this.subscriber = undefined;
          this.patient = undefined;
        } else if (this.level === '22') {
          this.subscriber = UNNAMED;
          this.patient = undefined;
        } else if (this.level === '23') {
          this.patient = UNNAMED;
        } else {
          this.subscriber = UNNAMED;
          this.patient = undefined;
        }
        return;
      case 'NM1':
        this.nm1(seg);
        return;
      case 'LX':
        if (this.claim !== undefined) {
          this.claim.inLines = true;
        }
        return;
      case 'REF':
        // The claim's clearinghouse trace number (2300 REF*D9): the 277CA gives it back.
        if (this.claim !== undefined && !this.claim.inLines && el(seg, 1) === 'D9') {
          this.claim.clearinghouseTrace ??= el(seg, 2);
          return;
        }
        // An atypical billing provider without an NPI is named by its tax id (2010AA REF*EI).
        if (
          this.claim === undefined &&
          this.level === '20' &&
          this.entity === '85' &&
          el(seg, 1) === 'EI' &&
          this.provider !== undefined &&
          this.provider.id === ''
        ) {
          this.provider = { ...this.provider, qualifier: 'FI', id: el(seg, 2) };
        }
        return;
      case 'CLM': {
        this.close(out);
        this.sendEnvelope(out);
        const charge = el(seg, 2);
        this.claim = {
          segNo: seg.segNo,
          claimId: el(seg, 1),
          sender: `${this.isaSender}\t${this.submitter}`,
          totalCharge: CLAIM_CHARGE.test(charge) ? Number(charge) : undefined,
          billType: billTypeOf(seg),
          billingProvider: this.provider,
          patient: this.patientOfClaim(),
          clearinghouseTrace: undefined,
          inLines: false,
          statement: undefined,
          first: undefined,
          last: undefined,
        };
        return;
      }
      case 'DTP':
        this.dtp(seg);
        return;
      default:
        return;
    }
  }

  /** Ends the input: adds the last claim's item, and the envelope when the file had no claim. */
  end(out: X12AckItem[]): void {
    this.close(out);
    this.sendEnvelope(out);
  }

  private sendEnvelope(out: X12AckItem[]): void {
    const e = this.envelope;
    if (!this.envelopeSent && e !== undefined) {
      out.push({ kind: 'envelope', envelope: { ...e, sender: `${e.senderId}\t${e.submitter?.id ?? ''}` } });
      this.envelopeSent = true;
    }
  }

  private nm1(seg: X12Segment): void {
    const entity = el(seg, 1);
    if (this.claim !== undefined) {
      return;
    }
    this.entity = entity;
    if (this.level === '') {
      if (entity === '41') {
        this.submitter = el(seg, 9);
      }
      if (this.envelope !== undefined && !this.envelopeSent) {
        if (entity === '41' && this.envelope.submitter === undefined) {
          this.envelope.submitter = partyOf(seg);
        } else if (entity === '40' && this.envelope.receiver === undefined) {
          this.envelope.receiver = partyOf(seg);
        }
      }
    } else if (entity === '85' && this.level === '20') {
      this.provider = partyOf(seg);
    } else if (entity === 'IL' && this.subscriber !== undefined) {
      this.subscriber = partyOf(seg);
    } else if (entity === 'QC' && this.patient !== undefined) {
      this.patient = partyOf(seg);
    }
  }

  private patientOfClaim(): X12Party | undefined {
    const person = this.patient ?? this.subscriber;
    if (person === undefined) {
      return undefined;
    }
    return { ...person, qualifier: 'MI', id: this.subscriber?.id ?? '' };
  }

  private dtp(seg: X12Segment): void {
    const c = this.claim;
    if (c === undefined) {
      return;
    }
    const qualifier = el(seg, 1);
    if (qualifier !== '434' && qualifier !== '472') {
      return;
    }
    // Read as the claim reader reads it (D8 or RD8 by the value's shape); what it refuses is left out.
    const range = rangeOf(el(seg, 2), el(seg, 3));
    if (typeof range === 'string') {
      return;
    }
    const from = d8(range.from);
    const to = d8(range.to ?? range.from);
    if (qualifier === '434') {
      c.statement ??= from === to ? from : `${from}-${to}`;
      return;
    }
    c.first = c.first === undefined || from < c.first ? from : c.first;
    c.last = c.last === undefined || to > c.last ? to : c.last;
  }

  private close(out: X12AckItem[]): void {
    const c = this.claim;
    if (c === undefined) {
      return;
    }
    this.claim = undefined;
    const range = c.first === undefined || c.last === undefined ? undefined : c.first === c.last ? c.first : `${c.first}-${c.last}`;
    const serviceDate = c.statement ?? range;
    out.push({
      kind: 'claim',
      claim: {
        segNo: c.segNo,
        claimId: c.claimId,
        sender: c.sender,
        ...(c.totalCharge === undefined ? {} : { totalCharge: c.totalCharge }),
        ...(serviceDate === undefined ? {} : { serviceDate }),
        ...(c.billType === undefined ? {} : { billType: c.billType }),
        ...(c.clearinghouseTrace === undefined || c.clearinghouseTrace === '' ? {} : { clearinghouseTrace: c.clearinghouseTrace }),
        ...(c.billingProvider === undefined ? {} : { billingProvider: c.billingProvider }),
        ...(c.patient === undefined ? {} : { patient: c.patient }),
      },
    });
  }
}

/**
 * The acknowledgement items of an 837 byte stream (see {@link X12AckScanner}).
 * @param source - the file's bytes
 * @param file - the file name, for error messages
 * @throws ScrubberError INPUT_FORMAT when the bytes are no X12 (as the claim reader would)
 */
export async function* readX12AckItems(source: AsyncIterable<Buffer>, file: string): AsyncGenerator<X12AckItem> {
  const scanner = new X12AckScanner();
  const batches = readX12Batches<X12AckItem>(
    source,
    file,
    (segment, out) => scanner.segment(segment, out),
    (out) => scanner.end(out),
  );
  for await (const batch of batches) {
    yield* batch;
  }
}
