// 277CA claim acknowledgement (issue 12 §4; domain.md §14): for an 837 input, one X12 005010X214 277 that answers
// every claim the way a payer's front-end edit would, plus warnings-<file>.csv, since a 277CA has no "accepted with
// warning" (X12 RFI 2203). A pure writer (Ack277caWriter / render277ca: envelope and claim acks in, text out, no
// clock, no I/O) and a streaming shell (write277caFromReports) that merge-joins the run's claims.csv, findings.csv
// and rejected.csv, all three in input order, holding one claim at a time:
//
//   claims.csv ──pass 1: has any claim of this file cross-claim findings?──> a second findings cursor
//   claims.csv ─┬─pass 2, row by row──> ClaimAck ──Ack277caWriter──> the claims' loops, then 277ca-<file>.x12 =
//               │                                 (AckTally: counts and charges for 2200B) head + claims + trailer
//   findings.csv┤  (errors/warnings/info counts say how many finding rows,    └──> warnings-<file>.csv
//   findings.csv┤   crossClaim how many of them follow every claim's own: a second cursor reads those,
//   rejected.csv┤   serviceLines how many rejected rows belong to the claim)
//   the 837    ─┘  (optional: its envelope first, then the claim at each row's CLM segment number)
//
// Decisions:
// - Status: clean and warnings claims are accepted, `STC*A2:20` (Acknowledgement/Acceptance into adjudication;
//   20 "Accepted for processing"), action WQ. A claim with error findings is rejected like one the reader refused:
//   an error is what a payer front end would reject, so `STC*A3:…` (Returned as unprocessable claim), action U.
//   The status is the claim's claims.csv status, cross-claim findings counted (units over a policy MUE summed with
//   the patient's other claims for the date, BATCH_MUE_EXCEEDED, reject the claim as its own MUE_EXCEEDED does).
//   A3 is the generic rejection category of the TR3 examples; A6/A7/A8 (missing/invalid/relational) are not used.
// - Status codes (external code list 508) per error finding: see FINDING_STATUS_CODES. 21 "Missing or invalid
//   information" and 732 "Information submitted inconsistent with billing guidelines" need a second code naming
//   the data, sent in STC10 (as the TR3 example `STC*A3:21:82…` / `STC*A3:122**U*******A3:153:82` does).
// - Free text: the error findings' `CODE - message` (or the reader's reasons) go in STC12, cut to its 264 chars.
//   The TR3 allows STC12 only with code 448, deactivated in 2012 (X12 RFI 1465), so a strict validator flags it;
//   `{ freeText: false }` leaves it out.
// - What the 837 says is repeated from the 837 itself (the `source` option, readX12AckItems): the reports hold no
//   patient, provider or charge. The envelope answers the 837's sender (answeringEnvelope); each claim, joined to
//   claims.csv by its CLM segment number, brings its billing provider (2100C; consecutive claims of one provider
//   share a 2000C), its patient's name with the subscriber's member id (2100D NM1*QC, as the submitter sent them),
//   CLM02 (STC04), its clearinghouse trace number (REF*D9) and an institutional claim's bill type (REF*BLT, from
//   CLM05), and its service dates (2200D DTP*472); a claim of another sender in the same file (a second
//   interchange or submitter) gets nothing of it. Without a source, or for a value the 837 lacks, 2100C and
//   2100D carry PROVIDER_PLACEHOLDER and PATIENT_PLACEHOLDER ('NOT REPORTED' / 'NOTREPORTED'; also for an id
//   shorter than NM109's 2 characters), STC04 is empty and DTP*472 is omitted.
// - Required elements the data may lack. STC04 (2200D): a claim whose CLM02 is empty or no amount (the reader
//   rejects it for that) is acknowledged with 0, so it counts in 2200B's totals (which are written only when every
//   claim's charge is known). DTP*472 (2200D) is left out for a claim with no readable service date (the reader
//   rejected it for its dates; its STC says so) rather than given a date the 837 does not hold: a strict X214
//   validator flags that claim's loop.
// - Delimiters in data: X12 forbids them. A 277CA answering an 837 is written with the 837's own delimiters, which
//   its ids cannot hold (answeringEnvelope; X12's usual ones when the 837's cannot be written with). Every delimiter
//   character in a value, and any other character outside printable ASCII, is replaced by `?` in ids (line breaks
//   and tabs by a space) and by a space in free text, and the value is cut to the element's maximum (TRN02: 50). A claim is never dropped for it: the ack must answer every claim. A blank
//   claim id (a claim rejected before CLM01 was read) becomes `NOCLAIMID-S<segment number>`.
//
// Sources: X12 005010X214 structure as encoded in stupidedi (kputnam/stupidedi, X214-HN277.rb); claim status
// category (507) and status code (508) texts and the TR3 examples as quoted in OpenDental/opendental
// (OpenDentBusiness/X12/X277.cs); X12 RFIs 1465 (STC12), 1942 (only A categories in batch), 2203 (no warnings).
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { ScrubberError } from '../errors.js';
import type { FindingCode } from '../findings/codes.js';
import type { X12AckClaim, X12AckEnvelope, X12AckItem, X12ClaimRepeats, X12Delimiters, X12Party } from '../schemas/x12-ack.js';
import { CLAIM_COLUMNS, FINDING_COLUMNS, REJECTED_COLUMNS, csvHeader, csvText } from './rows.js';

// ─── Types ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Health Care Claim Status Category Code (code list 507); a batch 277CA uses the A categories only (RFI 1942). */
export type ClaimStatusCategory = 'A0' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'A7' | 'A8';

/** One STC composite: category, status code (code list 508) and, where the code needs one, an entity code. */
export interface ClaimStatusCode {
  readonly category: ClaimStatusCategory;
  /** Claim status code, e.g. `20` accepted for processing, `476` missing or invalid units of service. */
  readonly code: string;
  /** Entity identifier code (`85` billing provider, `QC` patient, `PR` payer), when the code requires one. */
  readonly entity?: string | undefined;
}

/** How a claim is acknowledged; `accepted-with-warnings` is written exactly as `accepted` (no such 277CA status). */
export type ClaimAckStatus = 'accepted' | 'accepted-with-warnings' | 'rejected';

/**
 * The acknowledgement of one claim (one 2000D/2200D), with what it repeats of the 837 (X12ClaimRepeats): absent,
 * STC04 is empty, REF*D9, REF*BLT and DTP*472 are omitted, and 2100C and 2100D carry the envelope's provider or the
 * placeholders (a provider without an id too).
 */
export interface ClaimAck extends X12ClaimRepeats {
  /** The claim id as submitted (CLM01): TRN02. Delimiters are replaced (see the module header). */
  readonly claimId: string;
  readonly status: ClaimAckStatus;
  /**
   * STC composites, in order: three to an STC (STC01, STC10, STC11), in as many STC segments as needed; a 21 or 732
   * (which need a second code naming the data) shares its STC with the code after it. At least one for a rejected
   * claim; empty for an accepted one means `A2:20`.
   */
  readonly statusCodes: readonly ClaimStatusCode[];
  /** STC12 free-form text of the first STC, trimmed to 264 characters. */
  readonly freeText?: string | undefined;
}

/** A party named in the 277CA (NM1 of 2100A, 2100B or 2100C). */
export interface AckParty {
  /** NM103, organisation name, or a person's last name (max 60). */
  readonly name: string;
  /** A person's first name (NM104, max 35): the party is then written as a person (NM102 1). */
  readonly firstName?: string | undefined;
  /** NM109 (max 80): ETIN (qualifier 46) for the source and receiver; NPI (XX) or tax id (FI) for a provider. */
  readonly id: string;
}

/** The interchange, group and transaction data of one 277CA: all given by the caller, nothing read from a clock. */
export interface Ack277caEnvelope {
  /** ISA06, interchange sender id (1-15 characters, padded). */
  readonly senderId: string;
  /** ISA05 qualifier. @default 'ZZ' */
  readonly senderQualifier?: string | undefined;
  /** ISA08, interchange receiver id (1-15 characters, padded). */
  readonly receiverId: string;
  /** ISA07 qualifier. @default 'ZZ' */
  readonly receiverQualifier?: string | undefined;
  /** GS02 application sender code (2-15). @default senderId */
  readonly applicationSenderCode?: string | undefined;
  /** GS03 application receiver code (2-15). @default receiverId */
  readonly applicationReceiverCode?: string | undefined;
  /** ISA13 and IEA02: 1 to 999999999, written with 9 digits. */
  readonly interchangeControlNumber: number;
  /** GS06 and GE02: 1 to 999999999. */
  readonly groupControlNumber: number;
  /** ST02 and SE02: 4 to 9 digits. @default '0001' */
  readonly transactionControlNumber?: string | undefined;
  /** Creation date, `CCYYMMDD` (GS04, BHT04, ISA09 as YYMMDD, STC02, DTP*009). */
  readonly creationDate: string;
  /** Creation time, `HHMM` (ISA10, GS05, BHT05). */
  readonly creationTime: string;
  /** DTP*050, the date the 837 was received, `CCYYMMDD`. @default creationDate */
  readonly receiptDate?: string | undefined;
  /** ISA15. @default 'P' */
  readonly usage?: 'P' | 'T' | undefined;
  /** BHT03 and the 2200A TRN02 (max 30). @default `277CA` + the 9-digit interchange control number */
  readonly referenceId?: string | undefined;
  /** 2200B TRN02: the 837's batch id (its BHT03) when known (max 50). @default 'NOTREPORTED' */
  readonly batchId?: string | undefined;
  /** 2100A NM1*AY: the scrubber as information source (clearinghouse role). */
  readonly informationSource: AckParty;
  /** 2100B NM1*41: the submitter the acknowledgement goes to. */
  readonly informationReceiver: AckParty;
  /** 2100C NM1*85 of claims that name none (see ClaimAck.billingProvider). @default PROVIDER_PLACEHOLDER */
  readonly billingProvider?: (AckParty & { readonly qualifier: 'XX' | 'FI' }) | undefined;
  /**
   * The delimiters to write with (see usableDelimiters): answeringEnvelope gives the 837's own, which its ids cannot
   * hold, so TRN02 echoes CLM01 as sent. @default DEFAULT_DELIMITERS
   */
  readonly delimiters?: Ack277caDelimiters | undefined;
}

/** Claim counts and charges of the acknowledgement, for 2200B (QTY*90 / QTY*AA, STC04, AMT*YU / AMT*YY). */
export interface AckTotals {
  readonly accepted: number;
  readonly rejected: number;
  /**
   * The accepted claims' total charge (AMT*YU), `undefined` when a claim's charge is unknown: a sum of some claims'
   * charges is never written as the batch's.
   */
  readonly acceptedAmount?: number | undefined;
  /** The rejected claims' total charge (AMT*YY), `undefined` when a claim's charge is unknown. */
  readonly rejectedAmount?: number | undefined;
}

// ─── Constants ──────────────────────────────────────────────────────────────────────────────────────────────────

/** The implementation guide: GS08 and ST03. */
export const X214_VERSION = '005010X214';

/** Written in 2100D when the 837 gives no patient name or member id (or is not read again): never invented. */
export const PATIENT_PLACEHOLDER = { lastName: 'NOT REPORTED', idQualifier: 'MI', id: 'NOTREPORTED' } as const;

/** Billing provider written in 2100C when the envelope names none. */
export const PROVIDER_PLACEHOLDER = { name: 'NOT REPORTED', qualifier: 'XX', id: 'NOTREPORTED' } as const;

/** warnings-<file>.csv: one row per warning finding of the file's claims. */
export const WARNING_COLUMNS = ['claimId', 'lineNumber', 'ruleId', 'code', 'severity', 'message', 'fix'] as const;

/** The delimiters a 277CA is written with: an ISA's, a repetition separator (ISA11) included. */
export type Ack277caDelimiters = X12Delimiters & { readonly repetition: string };

/** X12's usual delimiters. */
export const DEFAULT_DELIMITERS: Ack277caDelimiters = { element: '*', component: ':', repetition: '^', segment: '~' };

/**
 * Whether a 277CA can be written with these delimiters: four different printable ASCII characters that no element
 * the writer makes holds (letters, digits and space, the `-` of a date range, the `.` of an amount, the `?` that
 * stands for a replaced character).
 */
export function usableDelimiters(d: Ack277caDelimiters): boolean {
  const all = [d.element, d.component, d.repetition, d.segment];
  return new Set(all).size === 4 && all.every((c) => c.length === 1 && c > ' ' && c <= '~' && !/[0-9A-Za-z\-.?]/.test(c));
}

/** X12 element maximum lengths (005010X214). */
const MAX = { trn02: 50, stc12: 264, nm103: 60, nm104: 35, nm109: 80, bht03: 30, ref02: 50 } as const;

const ACCEPTED: ClaimStatusCode = { category: 'A2', code: '20' };
const REJECTING: ReadonlySet<ClaimStatusCategory> = new Set(['A3', 'A4', 'A6', 'A7', 'A8']);

// ─── Pure core ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Text made safe for an X12 data element: accents dropped, line breaks and tabs to spaces, the delimiters written
 * with and anything else outside printable ASCII replaced, trimmed and cut to `maxLength`.
 *
 * @param value - any text
 * @param maxLength - the element's maximum length
 * @param mode - `id`: a replaced character becomes `?`, so the change shows and ids stay apart; `text` (free-form
 *   prose): it becomes a space and runs of spaces collapse
 * @param delimiters - the delimiters the 277CA is written with
 * @returns the text as it can be written
 */
export function x12Text(
  value: string,
  maxLength: number,
  mode: 'id' | 'text' = 'id',
  delimiters: Ack277caDelimiters = DEFAULT_DELIMITERS,
): string {
  const { element, component, repetition, segment } = delimiters;
  const replacement = mode === 'id' ? '?' : ' ';
  let out = '';
  for (const ch of value.normalize('NFKD').replace(/\p{M}/gu, '')) {
    const c = ch.charCodeAt(0);
    if (ch === '\t' || ch === '\n' || ch === '\r') {
      out += ' ';
    } else if (c < 0x20 || c > 0x7e || ch === element || ch === component || ch === repetition || ch === segment) {
      out += replacement;
    } else {
      out += ch;
    }
  }
  out = (mode === 'text' ? out.replace(/ {2,}/g, ' ') : out).trim();
  return out.length > maxLength ? out.slice(0, maxLength).trimEnd() : out;
}

/** Segments written with some delimiters: trailing empty elements dropped (X12 forbids trailing separators). */
type SegmentWriter = (...elements: string[]) => string;

/** A segment writer: elements joined by the element separator, then the terminator and a line break. */
function segmentWriter(d: Ack277caDelimiters): SegmentWriter {
  return (...elements) => {
    let n = elements.length;
    while (n > 1 && elements[n - 1] === '') {
      n--;
    }
    return `${elements.slice(0, n).join(d.element)}${d.segment}\n`;
  };
}

function composite(s: ClaimStatusCode, d: Ack277caDelimiters): string {
  const c = d.component;
  return s.entity === undefined || s.entity === '' ? `${s.category}${c}${s.code}` : `${s.category}${c}${s.code}${c}${s.entity}`;
}

/** An X12 R (decimal) value: at most two decimals, no trailing zeros, no exponent. */
function amount(value: number, what: string): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e13) {
    throw new RangeError(`Expected ${what} to be a finite amount, got ${String(value)}`);
  }
  const cents = Math.round(value * 100);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const frac = String(abs % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac === '' ? `${sign}${whole}` : `${sign}${whole}.${frac}`;
}

function checkDate(value: string, what: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  const month = Number(m?.[2]);
  const day = Number(m?.[3]);
  if (m === null || month < 1 || month > 12 || day < 1 || day > 31) {
    throw new RangeError(`Expected ${what} to be a CCYYMMDD date, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** An id of fixed-width ISA or GS: within its length and free of delimiters, as given (no replacement). */
/** Whether an id can stand as it is in an ISA or GS element of `min` to `max` characters. */
function fitsId(v: string, min: number, max: number, d: Ack277caDelimiters): boolean {
  return v.length >= min && v.length <= max && x12Text(v, max, 'id', d) === v;
}

function checkId(value: string, min: number, max: number, what: string, d: Ack277caDelimiters): string {
  const v = value.trim();
  if (!fitsId(v, min, max, d)) {
    throw new RangeError(
      `Expected ${what} to be ${min}-${max} printable ASCII characters without the delimiters ${Object.values(d).join(' ')}, got ${JSON.stringify(value)}`,
    );
  }
  return v;
}

function checkControl(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1 || value > 999_999_999) {
    throw new RangeError(`Expected ${what} to be an integer from 1 to 999999999, got ${String(value)}`);
  }
  return value;
}

/**
 * A data element that must not be empty: the placeholder stands in when nothing writable is left, or less than the
 * element's minimum (NM109, an X12 identification code, holds 2 to 80 characters).
 */
function required(value: string, maxLength: number, placeholder: string, d: Ack277caDelimiters, minLength = 1): string {
  const v = x12Text(value, maxLength, 'id', d);
  return v.length < minLength ? placeholder : v;
}

/** NM109's minimum length (X12 element 67, Identification Code: AN 2-80). */
const NM109_MIN = 2;

interface NormalEnvelope {
  readonly delimiters: Ack277caDelimiters;
  readonly isa: string;
  readonly gs: string;
  readonly st02: string;
  readonly groupControlNumber: number;
  readonly interchangeControlNumber: number;
  readonly creationDate: string;
  readonly creationTime: string;
  readonly receiptDate: string;
  readonly referenceId: string;
  readonly batchId: string;
  readonly source: AckParty;
  readonly receiver: AckParty;
  readonly provider: AckParty & { readonly qualifier: string };
}

/** Defaults, validation and the fixed-width ISA: one pass over the envelope (misuse throws RangeError). */
function normalizeEnvelope(e: Ack277caEnvelope): NormalEnvelope {
  const d = e.delimiters ?? DEFAULT_DELIMITERS;
  if (!usableDelimiters(d)) {
    throw new RangeError(`Expected delimiters to be four different printable characters other than letters, digits, - . ?, got ${JSON.stringify(d)}`);
  }
  const seg = segmentWriter(d);
  const senderId = checkId(e.senderId, 1, 15, 'senderId', d);
  const receiverId = checkId(e.receiverId, 1, 15, 'receiverId', d);
  const senderQualifier = checkId(e.senderQualifier ?? 'ZZ', 2, 2, 'senderQualifier', d);
  const receiverQualifier = checkId(e.receiverQualifier ?? 'ZZ', 2, 2, 'receiverQualifier', d);
  const appSender = checkId(e.applicationSenderCode ?? senderId.padEnd(2, ' '), 2, 15, 'applicationSenderCode', d);
  const appReceiver = checkId(e.applicationReceiverCode ?? receiverId.padEnd(2, ' '), 2, 15, 'applicationReceiverCode', d);
  const icn = checkControl(e.interchangeControlNumber, 'interchangeControlNumber');
  const gcn = checkControl(e.groupControlNumber, 'groupControlNumber');
  const st02 = e.transactionControlNumber ?? '0001';
  if (!/^\d{4,9}$/.test(st02)) {
    throw new RangeError(`Expected transactionControlNumber to be 4 to 9 digits, got ${JSON.stringify(st02)}`);
  }
  const date = checkDate(e.creationDate, 'creationDate');
  if (!/^([01]\d|2[0-3])[0-5]\d$/.test(e.creationTime)) {
    throw new RangeError(`Expected creationTime to be HHMM, got ${JSON.stringify(e.creationTime)}`);
  }
  const usage = e.usage ?? 'P';
  if (usage !== 'P' && usage !== 'T') {
    throw new RangeError(`Expected usage to be 'P' or 'T', got ${JSON.stringify(usage)}`);
  }
  const icn9 = String(icn).padStart(9, '0');
  const isa = seg(
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    senderQualifier,
    senderId.padEnd(15, ' '),
    receiverQualifier,
    receiverId.padEnd(15, ' '),
    date.slice(2),
    e.creationTime,
    d.repetition,
    '00501',
    icn9,
    '0',
    usage,
    d.component,
  );
  const gs = seg('GS', 'HN', appSender, appReceiver, date, e.creationTime, String(gcn), 'X', X214_VERSION);
  const party = (p: AckParty, what: string): AckParty => {
    if (typeof p?.name !== 'string' || typeof p.id !== 'string') {
      throw new TypeError(`Expected ${what} to be { name: string, id: string }`);
    }
    const firstName = x12Text(p.firstName ?? '', MAX.nm104, 'id', d);
    return {
      name: required(p.name, MAX.nm103, 'NOT REPORTED', d),
      ...(firstName === '' ? {} : { firstName }),
      id: required(p.id, MAX.nm109, 'NOTREPORTED', d, NM109_MIN),
    };
  };
  const provider =
    e.billingProvider === undefined
      ? PROVIDER_PLACEHOLDER
      : { ...party(e.billingProvider, 'billingProvider'), qualifier: e.billingProvider.qualifier };
  if (provider.qualifier !== 'XX' && provider.qualifier !== 'FI') {
    throw new RangeError(
      `Expected billingProvider.qualifier to be 'XX' or 'FI', got ${JSON.stringify(provider.qualifier)}`,
    );
  }
  return {
    delimiters: d,
    isa,
    gs,
    st02,
    groupControlNumber: gcn,
    interchangeControlNumber: icn,
    creationDate: date,
    creationTime: e.creationTime,
    receiptDate: checkDate(e.receiptDate ?? date, 'receiptDate'),
    referenceId: required(e.referenceId ?? `277CA${icn9}`, MAX.bht03, `277CA${icn9}`, d),
    batchId: required(e.batchId ?? '', MAX.trn02, 'NOTREPORTED', d),
    source: party(e.informationSource, 'informationSource'),
    receiver: party(e.informationReceiver, 'informationReceiver'),
    provider,
  };
}

/**
 * The pure 277CA writer: `begin`, `claim` per claim and `end`, each returning text. It keeps the HL numbers and the
 * segment count for SE; nothing else, so a run of any size streams through it. `begin`'s text starts the
 * transaction, but it may be asked for after the claims (its totals, charges included, are known only then): the
 * caller puts it first.
 */
export class Ack277caWriter {
  private readonly env: NormalEnvelope;
  private readonly seg: SegmentWriter;
  /** Segments from ST on, for SE01. */
  private segments = 0;
  private nextHl = 3;
  /** The open 2000C: its HL number and its NM1*85 (consecutive claims of one provider share it). */
  private provider: { readonly hl: number; readonly nm1: string } | undefined;
  private state: 'open' | 'closed' = 'open';
  private begun = false;

  /**
   * @param envelope - the envelope data
   * @throws RangeError or TypeError when an envelope field is missing or malformed
   */
  constructor(envelope: Ack277caEnvelope) {
    this.env = normalizeEnvelope(envelope);
    this.seg = segmentWriter(this.env.delimiters);
  }

  /** A value made writable in an element of these delimiters (see x12Text). */
  private text(value: string, maxLength: number, mode: 'id' | 'text' = 'id'): string {
    return x12Text(value, maxLength, mode, this.env.delimiters);
  }

  private required(value: string, maxLength: number, placeholder: string, minLength = 1): string {
    return required(value, maxLength, placeholder, this.env.delimiters, minLength);
  }

  private out(...segs: string[]): string {
    this.segments += segs.length;
    return segs.join('');
  }

  /**
   * ISA, GS, ST, BHT and the 2000A and 2000B loops: the text that starts the transaction, asked for before or after
   * the claims, once, before `end`.
   * @param totals - the claim counts (QTY*90 / QTY*AA when above 0) and charges (STC04 when both are known, AMT*YU /
   *   AMT*YY when known and the count is above 0)
   */
  begin(totals: AckTotals): string {
    if (this.begun || this.state !== 'open') {
      throw new TypeError('begin() may be called once, before end()');
    }
    for (const k of ['accepted', 'rejected'] as const) {
      const v = totals[k];
      if (!Number.isInteger(v) || v < 0) {
        throw new RangeError(`Expected totals.${k} to be a non-negative integer, got ${String(v)}`);
      }
    }
    const { acceptedAmount, rejectedAmount } = totals;
    const yu = acceptedAmount === undefined ? undefined : amount(acceptedAmount, 'totals.acceptedAmount');
    const yy = rejectedAmount === undefined ? undefined : amount(rejectedAmount, 'totals.rejectedAmount');
    const submitted =
      acceptedAmount === undefined || rejectedAmount === undefined
        ? ''
        : amount(acceptedAmount + rejectedAmount, 'the total charge');
    this.begun = true;
    const e = this.env;
    const head = e.isa + e.gs;
    return (
      head +
      this.out(
        this.seg('ST', '277', e.st02, X214_VERSION),
        this.seg('BHT', '0085', '08', e.referenceId, e.creationDate, e.creationTime, 'TH'),
        // 2000A information source: the scrubber, in a clearinghouse's role (AY).
        this.seg('HL', '1', '', '20', '1'),
        this.seg('NM1', 'AY', '2', e.source.name, '', '', '', '', '46', e.source.id),
        this.seg('TRN', '1', e.referenceId),
        this.seg('DTP', '050', 'D8', e.receiptDate),
        this.seg('DTP', '009', 'D8', e.creationDate),
        // 2000B information receiver; 2200B: the batch was received (A1:19, entity AY: the source acknowledges).
        this.seg('HL', '2', '1', '21', '1'),
        // 1000A's submitter may be a person (NM102 1, with a first name).
        this.seg('NM1', '41', e.receiver.firstName === undefined ? '2' : '1', e.receiver.name, e.receiver.firstName ?? '', '', '', '', '46', e.receiver.id),
        this.seg('TRN', '2', e.batchId),
        this.seg('STC', composite({ category: 'A1', code: '19', entity: 'AY' }, e.delimiters), e.creationDate, 'WQ', submitted),
        ...(totals.accepted > 0 ? [this.seg('QTY', '90', String(totals.accepted))] : []),
        ...(totals.rejected > 0 ? [this.seg('QTY', 'AA', String(totals.rejected))] : []),
        ...(totals.accepted > 0 && yu !== undefined ? [this.seg('AMT', 'YU', yu)] : []),
        ...(totals.rejected > 0 && yy !== undefined ? [this.seg('AMT', 'YY', yy)] : []),
        // 2000C billing provider loops come with the claims (claim()), or one without claims at the end (end()).
      )
    );
  }

  /** The NM1*85 of a claim's billing provider: its own when it names one with an NPI or tax id, else the envelope's. */
  private providerNm1(p: X12Party | undefined): string {
    if (p !== undefined && (p.qualifier === 'XX' || p.qualifier === 'FI') && this.text(p.id, MAX.nm109).length >= NM109_MIN) {
      const person = p.entity === '1';
      return this.seg(
        'NM1',
        '85',
        person ? '1' : '2',
        this.required(p.name, MAX.nm103, 'NOT REPORTED'),
        person ? this.text(p.firstName ?? '', MAX.nm104) : '',
        '',
        '',
        '',
        p.qualifier,
        this.text(p.id, MAX.nm109),
      );
    }
    const e = this.env.provider;
    return this.seg('NM1', '85', '2', e.name, '', '', '', '', e.qualifier, e.id);
  }

  /**
   * One claim: a 2000C HL and NM1*85 when its billing provider is not the previous claim's, then 2000D HL, 2100D
   * NM1*QC, 2200D TRN*2, STC, DTP*472.
   * @throws RangeError for a rejected claim without status codes, a category that contradicts the status, or a
   *   malformed service date or charge
   */
  claim(ack: ClaimAck): string {
    if (this.state !== 'open') {
      throw new TypeError('claim() must come before end()');
    }
    const rejected = ack.status === 'rejected';
    const codes = ack.statusCodes.length === 0 && !rejected ? [ACCEPTED] : ack.statusCodes;
    if (codes.length === 0) {
      throw new RangeError(`Expected statusCodes of rejected claim ${JSON.stringify(ack.claimId)} to be non-empty`);
    }
    for (const c of codes) {
      if (REJECTING.has(c.category) !== rejected) {
        throw new RangeError(
          `Expected ${rejected ? 'a rejecting' : 'an accepting'} category for claim ${JSON.stringify(ack.claimId)}, got ${c.category}`,
        );
      }
      if (!/^[0-9A-Z]{1,30}$/.test(c.code) || (c.entity !== undefined && !/^[0-9A-Z]{2,3}$/.test(c.entity))) {
        throw new RangeError(`Expected an X12 status code and entity code, got ${JSON.stringify(c)}`);
      }
    }
    const e = this.env;
    const charge = ack.totalCharge === undefined ? '' : amount(ack.totalCharge, 'totalCharge');
    const action = rejected ? 'U' : 'WQ';
    const stcs: string[] = [];
    for (const [c1, c10, c11] of stcGroups(codes)) {
      const text = stcs.length === 0 && ack.freeText !== undefined ? this.text(ack.freeText, MAX.stc12, 'text') : '';
      const tail = c10 === undefined && text === '' ? [] : ['', '', '', '', '', c10 ? composite(c10, e.delimiters) : ''];
      const tail2 = c11 === undefined && text === '' ? [] : [c11 ? composite(c11, e.delimiters) : '', text];
      stcs.push(this.seg('STC', composite(c1, e.delimiters), e.creationDate, action, charge, ...tail, ...tail2));
    }
    const nm1 = this.providerNm1(ack.billingProvider);
    const head: string[] = [];
    if (this.provider?.nm1 !== nm1) {
      this.provider = { hl: this.nextHl++, nm1 };
      head.push(this.seg('HL', String(this.provider.hl), '2', '19', '1'), nm1);
    }
    const hl = this.nextHl++;
    const patient = ack.patient;
    return this.out(
      ...head,
      this.seg('HL', String(hl), String(this.provider.hl), 'PT'),
      this.seg(
        'NM1',
        'QC',
        '1',
        this.required(patient?.name ?? '', MAX.nm103, PATIENT_PLACEHOLDER.lastName),
        this.text(patient?.firstName ?? '', MAX.nm104),
        '',
        '',
        '',
        PATIENT_PLACEHOLDER.idQualifier,
        this.required(patient?.id ?? '', MAX.nm109, PATIENT_PLACEHOLDER.id, NM109_MIN),
      ),
      this.seg('TRN', '2', this.required(ack.claimId, MAX.trn02, 'NOCLAIMID')),
      ...stcs,
      ...this.refSegment('D9', ack.clearinghouseTrace),
      ...this.refSegment('BLT', ack.billType),
      ...(ack.serviceDate === undefined ? [] : [this.serviceDateSegment(ack.serviceDate)]),
    );
  }

  /** A 2200D REF with its value made writable, or none when there is no value left to write. */
  private refSegment(qualifier: 'D9' | 'BLT', value: string | undefined): string[] {
    const v = this.text(value ?? '', MAX.ref02);
    return v === '' ? [] : [this.seg('REF', qualifier, v)];
  }

  private serviceDateSegment(value: string): string {
    const [from = '', to, extra] = value.split('-');
    if (extra !== undefined) {
      throw new RangeError(`Expected serviceDate to be CCYYMMDD or CCYYMMDD-CCYYMMDD, got ${JSON.stringify(value)}`);
    }
    checkDate(from, 'serviceDate');
    return to === undefined
      ? this.seg('DTP', '472', 'D8', from)
      : this.seg('DTP', '472', 'RD8', `${from}-${checkDate(to, 'serviceDate (end)')}`);
  }

  /** SE, GE and IEA with their counts and control numbers. */
  end(): string {
    if (this.state !== 'open' || !this.begun) {
      throw new TypeError('end() must come after begin(), once');
    }
    this.state = 'closed';
    const e = this.env;
    // A file without claims still has its 2000C, with no child (HL04 0).
    const empty = this.provider === undefined ? this.out(this.seg('HL', String(this.nextHl++), '2', '19', '0'), this.providerNm1(undefined)) : '';
    const se = empty + this.seg('SE', String(this.segments + 1), e.st02);
    this.segments++;
    return (
      se +
      this.seg('GE', '1', String(e.groupControlNumber)) +
      this.seg('IEA', '1', String(e.interchangeControlNumber).padStart(9, '0'))
    );
  }
}

/** Status codes that need a second one naming the data they are about (the code after them in a claim's list). */
const NEEDS_DATA: ReadonlySet<string> = new Set(['21', '732']);

/**
 * A claim's status codes three to an STC (STC01, STC10, STC11), in order; a 21 or 732 goes to the next STC rather
 * than be parted from the code after it.
 */
function stcGroups(codes: readonly ClaimStatusCode[]): [ClaimStatusCode, ClaimStatusCode?, ClaimStatusCode?][] {
  const groups: [ClaimStatusCode, ClaimStatusCode?, ClaimStatusCode?][] = [];
  let group: ClaimStatusCode[] = [];
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] as ClaimStatusCode;
    const paired = NEEDS_DATA.has(c.code) && i + 1 < codes.length;
    if (group.length === 3 || (paired && group.length === 2)) {
      groups.push(group as [ClaimStatusCode]);
      group = [];
    }
    group.push(c);
    if (paired) {
      group.push(codes[++i] as ClaimStatusCode);
    }
  }
  if (group.length > 0) {
    groups.push(group as [ClaimStatusCode]);
  }
  return groups;
}

/**
 * The whole 277CA of a set of claim acknowledgements, as one string (tests, small files; streams use
 * {@link Ack277caWriter}).
 *
 * @param envelope - envelope data, never read from the clock
 * @param claims - the claims, in the order they are acknowledged
 * @returns the 277CA text, `~` and a line break after every segment
 */
export function render277ca(envelope: Ack277caEnvelope, claims: Iterable<ClaimAck>): string {
  const writer = new Ack277caWriter(envelope);
  const tally = new AckTally();
  let body = '';
  for (const c of claims) {
    body += writer.claim(c);
    tally.add(c);
  }
  return writer.begin(tally.totals()) + body + writer.end();
}

/** The totals of 2200B, added up claim by claim (charges in whole cents, so no float error builds up). */
class AckTally {
  private accepted = 0;
  private rejected = 0;
  private acceptedCents: number | undefined = 0;
  private rejectedCents: number | undefined = 0;

  add(ack: Pick<ClaimAck, 'status' | 'totalCharge'>): void {
    const cents = ack.totalCharge === undefined ? undefined : Math.round(ack.totalCharge * 100);
    if (ack.status === 'rejected') {
      this.rejected++;
      this.rejectedCents = cents === undefined || this.rejectedCents === undefined ? undefined : this.rejectedCents + cents;
    } else {
      this.accepted++;
      this.acceptedCents = cents === undefined || this.acceptedCents === undefined ? undefined : this.acceptedCents + cents;
    }
  }

  totals(): AckTotals {
    const amount = (cents: number | undefined): number | undefined => (cents === undefined ? undefined : cents / 100);
    return {
      accepted: this.accepted,
      rejected: this.rejected,
      acceptedAmount: amount(this.acceptedCents),
      rejectedAmount: amount(this.rejectedCents),
    };
  }
}

// ─── Findings and reasons to status codes ───────────────────────────────────────────────────────────────────────

// Claim status codes (code list 508) used here, with their official texts:
//   21 Missing or invalid information (needs a second code)    247 Line information
//   254 Principal diagnosis code      255 Diagnosis code          454 Procedure code for services rendered
//   474 Procedure code and patient gender mismatch             475 Procedure code not valid for patient age
//   476 Missing or invalid units of service                    477 Diagnosis code pointer is missing or invalid
//   481 Claim/submission format is invalid                     488 Diagnosis code(s) for the services rendered
//   509 External Cause of Injury Code                          538 Claim or Encounter Identifier
//   187 Date(s) of service            0 Cannot provide further status electronically
//   732 Information submitted inconsistent with billing guidelines (needs a second code)
//   735 This service/claim is included in the allowance for another service or claim
//   736 A related or qualifying service/claim has not been received/adjudicated
const INCONSISTENT_DX = ['732', '488'] as const;

/** Status codes (list 508) per error finding code; code.validity findings are resolved by what the code is. */
export const FINDING_STATUS_CODES: Readonly<Partial<Record<FindingCode, readonly string[]>>> = {
  // NCCI: units over the MUE; a pair not paid together (bundled); an add-on without its primary.
  MUE_EXCEEDED: ['476'],
  BATCH_MUE_EXCEEDED: ['476'],
  PTP_CONFLICT: ['735'],
  AOC_NO_PRIMARY: ['736'],
  // Medical necessity (NCD, LCD, policy packs): the diagnoses do not support the service.
  NCD_DENIED: INCONSISTENT_DX,
  NCD_NOT_SUPPORTING: INCONSISTENT_DX,
  NCD_NOT_LISTED: INCONSISTENT_DX,
  NCD_NOT_NECESSARY: INCONSISTENT_DX,
  LCD_NON_COVERED: INCONSISTENT_DX,
  LCD_NOT_LISTED: INCONSISTENT_DX,
  LCD_PAIRING_UNMET: INCONSISTENT_DX,
  POLICY_DX_NOT_COVERED: INCONSISTENT_DX,
  POLICY_DX_NOT_LISTED: INCONSISTENT_DX,
  POLICY_AGE: ['475'],
  POLICY_SEX: ['474'],
  // MCE edits: inconsistent with billing guidelines, and which data.
  MCE_AGE_CONFLICT: ['732', '255'],
  MCE_SEX_CONFLICT: ['732', '255'],
  MCE_MANIFESTATION_AS_PDX: ['732', '254'],
  MCE_E_CODE_AS_PDX: ['732', '254'],
  MCE_UNACCEPTABLE_PDX: ['732', '254'],
  MCE_REQUIRES_SDX: ['732', '255'],
  MCE_DUPLICATE_OF_PDX: ['732', '255'],
  MCE_NON_COVERED: ['732', '454'],
  MCE_WRONG_PROCEDURE: ['732', '509'],
  MCE_PROCEDURE_LOS: ['732', '454'],
  // Claim structure.
  CLAIM_POINTER_INVALID: ['477'],
  CLAIM_POINTER_REPEATED: ['477'],
  CLAIM_DUPLICATE_LINE: ['21', '247'],
  CLAIM_LINE_DATE_OUTSIDE: ['187'],
  CLAIM_TOO_MANY_DIAGNOSES: ['732', '255'],
};

/** Status codes for an error finding code not in the table: invalid information, inconsistent with guidelines. */
const UNMAPPED_FINDING = ['21', '732'] as const;

/**
 * The claim status codes (list 508) of one error finding, all under category A3.
 *
 * @param code - the finding code (`MUE_EXCEEDED`)
 * @param message - the finding message: tells a code-validity finding on a diagnosis from one on a procedure
 * @returns one or two codes; a second one names the data the first (21 or 732) is about
 */
export function statusCodesForFinding(code: string, message: string): ClaimStatusCode[] {
  let codes: readonly string[] | undefined = FINDING_STATUS_CODES[code as FindingCode];
  if (codes === undefined && code.startsWith('CODE_')) {
    // code.validity words its messages "Principal diagnosis X: …", "Diagnosis X: …", "Line N procedure X: …".
    codes = ['21', /^principal diagnosis\b/i.test(message) ? '254' : /^diagnosis\b/i.test(message) ? '255' : '454'];
  }
  return (codes ?? UNMAPPED_FINDING).map((c) => ({ category: 'A3', code: c }));
}

/**
 * The claim status codes of a claim the reader could not read, from its rejected.csv reason.
 *
 * @param reason - the reason as the reader or pipeline wrote it
 * @returns codes under category A3; 481 (submission format invalid) when nothing more specific fits
 */
export function statusCodesForRejection(reason: string): ClaimStatusCode[] {
  const codes = /validation engine failed|worker failed/i.test(reason)
    ? ['0'] // the scrubber failed, not the claim: no status to give
    : /CLM01|claim id/i.test(reason)
      ? ['21', '538']
      : /date of service|DTP\*(472|434)/i.test(reason)
        ? ['187']
        : /principal diagnos/i.test(reason)
          ? ['21', '254']
          : /diagnos|\bHI\d*\b/i.test(reason)
            ? ['21', '255']
            : /\bunits\b/i.test(reason)
              ? ['476']
              : /service line|\bLX\d*\b|\bSV[12]\d*\b/i.test(reason)
                ? ['21', '247']
                : ['481'];
  return codes.map((c) => ({ category: 'A3', code: c }));
}

// ─── Streaming shell over the run's reports ─────────────────────────────────────────────────────────────────────

/** Options of {@link write277caFromReports}. */
export interface Write277caOptions {
  /** Write the findings' codes and messages in STC12 (see the module header on RFI 1465). @default true */
  readonly freeText?: boolean | undefined;
  /** The name the two files carry (`277ca-<name>.x12`, `warnings-<name>.csv`). @default the input's base name */
  readonly name?: string | undefined;
  /**
   * The 837 itself, read again (readX12AckItems): its envelope answers the submitter (see answeringEnvelope), and
   * each claim's billing provider, patient, total charge and service dates fill its 2000C, 2100D, STC04 and DTP*472.
   * It must be the file the reports are of: a claim missing from it or with another id fails with AckSourceError
   * (as does a read error), before anything is renamed into place.
   */
  readonly source?: AsyncIterable<X12AckItem> | undefined;
}

/** The 837 given as a 277CA's source could not be read again, or is not the file the reports are of. */
export class AckSourceError extends Error {
  override readonly name = 'AckSourceError';
}

/**
 * The envelope of a 277CA that answers an 837: addressed back to its sender (ISA and GS ids swapped), its batch
 * id (BHT03) in 2200B, the 837's receiver (1000B) as the information source and its submitter (1000A) as the
 * information receiver. A value that cannot stand in its element (an id too long, or with delimiters) keeps
 * `base`'s.
 */
export function answeringEnvelope(base: Ack277caEnvelope, e: X12AckEnvelope): Ack277caEnvelope {
  const d = delimitersAnswering(e, base.delimiters ?? DEFAULT_DELIMITERS);
  const fits = (v: string, min: number, max: number): boolean => fitsId(v, min, max, d);
  const pick = (v: string, min: number, max: number, fallback: string | undefined): string | undefined =>
    fits(v, min, max) ? v : fallback;
  const party = (p: X12Party | undefined, fallback: AckParty): AckParty =>
    p === undefined || p.name === '' || p.id === ''
      ? fallback
      : { name: p.name, ...(p.entity === '1' && p.firstName !== undefined ? { firstName: p.firstName } : {}), id: p.id };
  const fromUs = fits(e.receiverId, 1, 15) && fits(e.receiverQualifier, 2, 2);
  const toThem = fits(e.senderId, 1, 15) && fits(e.senderQualifier, 2, 2);
  const senderId = fromUs ? e.receiverId : base.senderId;
  const receiverId = toThem ? e.senderId : base.receiverId;
  // GS02/GS03 hold 2-15 characters: the 837's GS codes swapped, else the ISA ids when they are that long, else the
  // given envelope's (a 1-character ISA id or a file without GS).
  return {
    ...base,
    senderId,
    senderQualifier: fromUs ? e.receiverQualifier : base.senderQualifier,
    receiverId,
    receiverQualifier: toThem ? e.senderQualifier : base.receiverQualifier,
    applicationSenderCode: pick(e.applicationReceiver, 2, 15, pick(senderId, 2, 15, base.applicationSenderCode ?? base.senderId)),
    applicationReceiverCode: pick(e.applicationSender, 2, 15, pick(receiverId, 2, 15, base.applicationReceiverCode ?? base.receiverId)),
    batchId: e.batchId === undefined || e.batchId === '' ? base.batchId : e.batchId,
    informationSource: party(e.receiver, base.informationSource),
    informationReceiver: party(e.submitter, base.informationReceiver),
    delimiters: d,
  };
}

/**
 * The delimiters of a 277CA answering an 837: the 837's own (its first interchange's), whose values cannot hold them,
 * so ids such as CLM01 are echoed as sent; an 837 without a repetition separator (ISA11 `U`) gets `^`, or another
 * of the usual ones that is free; `fallback` when the 837's cannot be written with (see usableDelimiters).
 */
function delimitersAnswering(e: X12AckEnvelope, fallback: Ack277caDelimiters): Ack277caDelimiters {
  const theirs = e.delimiters;
  if (theirs === undefined) {
    return fallback;
  }
  const { element, component, segment } = theirs;
  for (const repetition of theirs.repetition === undefined ? ['^', '*', ':', '~', '|'] : [theirs.repetition]) {
    const d = { element, component, repetition, segment };
    if (usableDelimiters(d)) {
      return d;
    }
  }
  return fallback;
}

/** A pull cursor over an 837's acknowledgement items, for the merge-join with claims.csv (by CLM segment number). */
class AckSourceCursor {
  private readonly it: AsyncIterator<X12AckItem>;
  private held: X12AckClaim | undefined;
  private ended = false;
  envelope: X12AckEnvelope | undefined;

  constructor(
    source: AsyncIterable<X12AckItem>,
    private readonly file: string,
  ) {
    this.it = source[Symbol.asyncIterator]();
  }

  private async next(): Promise<X12AckItem | undefined> {
    if (this.ended) {
      return undefined;
    }
    let r: IteratorResult<X12AckItem>;
    try {
      r = await this.it.next();
    } catch (e) {
      throw new AckSourceError(`${this.file}: cannot be read again: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    if (r.done === true) {
      this.ended = true;
      return undefined;
    }
    return r.value;
  }

  /** Reads up to the first claim: the envelope comes before it. */
  async start(): Promise<void> {
    for (let item = await this.next(); item !== undefined; item = await this.next()) {
      if (item.kind === 'envelope') {
        this.envelope ??= item.envelope;
      } else {
        this.held = item.claim;
        return;
      }
    }
  }

  /**
   * The claim at CLM segment `segNo`, which must carry `claimId` (claims between are passed over). The error names
   * segments, not claim ids: a note goes to the terminal and the run's log.
   */
  async at(segNo: number, claimId: string): Promise<X12AckClaim> {
    for (;;) {
      const c = this.held;
      if (c === undefined) {
        const item = await this.next();
        if (item === undefined) {
          throw new AckSourceError(`${this.file} has no claim at segment ${String(segNo)}: it is not the file the reports are of`);
        }
        if (item.kind === 'claim') {
          this.held = item.claim;
        }
        continue;
      }
      if (c.segNo > segNo) {
        throw new AckSourceError(`${this.file} has no claim at segment ${String(segNo)}: it is not the file the reports are of`);
      }
      this.held = undefined;
      if (c.segNo === segNo) {
        if (c.claimId !== claimId) {
          throw new AckSourceError(
            `${this.file}: the claim at segment ${String(segNo)} has another id than the reports give it: it is not the file the reports are of`,
          );
        }
        return c;
      }
    }
  }

  /** Reads to the end (a source may check the whole file's digest there). */
  async finish(): Promise<void> {
    while ((await this.next()) !== undefined) {
      // passed over
    }
  }

  async close(): Promise<void> {
    await this.it.return?.(undefined).catch(() => undefined);
  }
}

/**
 * What the 277CA repeats of a claim of the 837's sender. STC04 is required: a claim whose CLM02 is empty or no
 * amount (the reader rejected it for that) charged 0.
 */
function repeatsOf(claim: X12AckClaim): X12ClaimRepeats {
  const { totalCharge, serviceDate, billType, clearinghouseTrace, billingProvider, patient } = claim;
  return { totalCharge: totalCharge ?? 0, serviceDate, billType, clearinghouseTrace, billingProvider, patient };
}

/** What {@link write277caFromReports} wrote. */
export interface Write277caResult {
  /** `<outDir>/277ca-<basename>.x12` */
  readonly ackFile: string;
  /** `<outDir>/warnings-<basename>.csv` */
  readonly warningsFile: string;
  /** Claims acknowledged (the input file's rows of claims.csv). */
  readonly claims: number;
  /**
   * Claims of another sender or submitter than the file's first (a second interchange or 1000A): acknowledged to the
   * first, without their provider, patient, charge or dates (one 277CA answers one sender).
   */
  readonly otherSender: number;
}

type Row = Record<string, string>;

/** Most error findings and reasons kept per claim for its status codes and free text (a claim's own rows only). */
const MAX_KEPT_PER_CLAIM = 50;

/** Rows of a report as objects keyed by its header, which must hold `columns`. */
async function* csvRows(path: string, columns: readonly string[]): AsyncGenerator<Row> {
  const parser = parse({
    columns: (header: string[]) => {
      const missing = columns.filter((c) => !header.includes(c));
      if (missing.length > 0) {
        throw new ScrubberError('INPUT_FORMAT', `${path}: header lacks ${missing.join(', ')}`);
      }
      return header;
    },
    skip_empty_lines: true,
  });
  const source = createReadStream(path);
  source.on('error', (err) => parser.destroy(err));
  parser.on('close', () => source.destroy());
  source.pipe(parser);
  for await (const row of parser as AsyncIterable<Row>) {
    yield row;
  }
}

/** A pull cursor over a report, for the merge-join. */
class Cursor {
  private readonly it: AsyncIterator<Row>;
  private rowNo = 1;
  /** A row read ahead (skipToCrossClaim). */
  private held: Row | undefined;
  constructor(
    readonly path: string,
    columns: readonly string[],
  ) {
    this.it = csvRows(path, columns)[Symbol.asyncIterator]();
  }

  /** The next row, which must belong to the claim `file`/`claimId` (the reports are in the same claim order). */
  async take(file: string, claimId: string, claimsRow: number, part?: 'own' | 'cross-claim'): Promise<Row> {
    const held = this.held;
    this.held = undefined;
    const r = held === undefined ? await this.it.next() : { done: false as const, value: held };
    this.rowNo++;
    if (r.done === true) {
      throw outOfStep(this.path, `it ends before the rows of claims.csv row ${claimsRow}`);
    }
    if (r.value.file !== file || r.value.claimId !== claimId) {
      throw outOfStep(this.path, `row ${this.rowNo} is not of claims.csv row ${claimsRow} (${file}, ${claimId})`);
    }
    // findings.csv: a claim's own findings come first and its cross-claim ones (rule batch.*) after every claim's own.
    if (part !== undefined && (r.value.ruleId ?? '').startsWith('batch.') !== (part === 'cross-claim')) {
      throw outOfStep(this.path, `row ${this.rowNo} is not one of claims.csv row ${claimsRow}'s ${part} findings`);
    }
    return r.value;
  }

  /** Moves past every claim's own rows of findings.csv, to its first cross-claim finding (see crossClaimRows). */
  async skipToCrossClaim(): Promise<void> {
    for (;;) {
      const r = await this.it.next();
      if (r.done === true) {
        return;
      }
      if ((r.value.ruleId ?? '').startsWith('batch.')) {
        this.held = r.value;
        return;
      }
      this.rowNo++;
    }
  }

  /**
   * The rows after every claim's own: the scrubber's cross-claim findings (rule `batch.*`), written after all
   * per-claim findings; any other row belongs to no claim of claims.csv and fails.
   */
  async *crossClaimRows(): AsyncGenerator<Row> {
    for (;;) {
      const r = await this.it.next();
      if (r.done === true) {
        return;
      }
      this.rowNo++;
      if (!(r.value.ruleId ?? '').startsWith('batch.')) {
        await this.it.return?.();
        throw outOfStep(this.path, `row ${this.rowNo} belongs to no claim of claims.csv`);
      }
      yield r.value;
    }
  }

  /** Fails when rows are left: they belong to no claim of claims.csv. */
  async expectEnd(): Promise<void> {
    const r = this.held === undefined ? await this.it.next() : { done: false as const };
    if (r.done !== true) {
      await this.it.return?.();
      throw outOfStep(this.path, `row ${this.rowNo + 1} belongs to no claim of claims.csv`);
    }
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

function outOfStep(path: string, detail: string): ScrubberError {
  return new ScrubberError('INPUT_FORMAT', `${path} is out of step with claims.csv: ${detail}`);
}

function count(row: Row, column: string, claimsRow: number, path: string): number {
  const v = row[column] ?? '';
  if (!/^\d+$/.test(v)) {
    throw new ScrubberError(
      'INPUT_FORMAT',
      `${path}: row ${claimsRow}: ${column} is not a count: ${JSON.stringify(v)}`,
    );
  }
  return Number(v);
}

/** Appends text to a stream, waiting for 'drain' when its buffer is full; rethrows the stream's error. */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (stream.errored !== null) {
    throw stream.errored;
  }
  if (text !== '' && !stream.write(text)) {
    await once(stream, 'drain');
  }
}

/** Stops a stream after a failure and waits until its file is closed (its own error is then of no interest). */
/** Writes `head`, the text of the file `body` and `tail` to `path` (a 277CA's claims are written before its head). */
async function assemble(path: string, head: string, body: string, tail: string): Promise<void> {
  const out = createWriteStream(path, { encoding: 'latin1' });
  out.on('error', () => undefined);
  try {
    await write(out, head);
    await pipeline(createReadStream(body), out, { end: false });
    await write(out, tail);
    out.end();
    await finished(out);
  } catch (err) {
    await discard(out);
    throw err;
  }
}

async function discard(stream: WriteStream): Promise<void> {
  stream.destroy();
  await finished(stream).catch(() => undefined);
}

/**
 * The status codes of a claim's errors or reasons, each one's group (a code, or a 21 / 732 and the code naming its
 * data) once: deduplicated by group, so a data code is never dropped from its pair for having come before.
 */
function dedupe(groups: readonly (readonly ClaimStatusCode[])[]): ClaimStatusCode[] {
  const seen = new Set<string>();
  const codes: ClaimStatusCode[] = [];
  for (const group of groups) {
    const key = group.map((c) => composite(c, DEFAULT_DELIMITERS)).join('+');
    if (!seen.has(key)) {
      seen.add(key);
      codes.push(...group);
    }
  }
  return codes;
}

/**
 * Writes the 277CA and the warnings report of one 837 input from the run's claims.csv, findings.csv and
 * rejected.csv in `outDir`, streaming: claims.csv is read twice (counts, then claims), findings.csv once for the
 * claims' own rows and, when this file's claims have cross-claim findings, once more for those (a second cursor),
 * rejected.csv once; only one claim's rows are held. Files are written under a temporary name and renamed when complete.
 *
 * @param outDir - the run's report directory
 * @param inputFile - the 837 input, exactly as the reports' `file` column names it
 * @param envelope - envelope data; `batchId` defaults to the input's base name
 * @param options - see {@link Write277caOptions}
 * @returns the two files written and the number of claims acknowledged
 * @throws ScrubberError INPUT_FORMAT when a report is missing a column or the reports are out of step;
 *   RangeError for a malformed envelope
 */
export async function write277caFromReports(
  outDir: string,
  inputFile: string,
  envelope: Ack277caEnvelope,
  options: Write277caOptions = {},
): Promise<Write277caResult> {
  const name = options.name ?? basename(inputFile);
  const ackFile = join(outDir, `277ca-${name}.x12`);
  const warningsFile = join(outDir, `warnings-${name}.csv`);
  const claimsPath = join(outDir, 'claims.csv');
  const findingsPath = join(outDir, 'findings.csv');
  const rejectedPath = join(outDir, 'rejected.csv');
  const freeText = options.freeText ?? true;
  const source = options.source === undefined ? undefined : new AckSourceCursor(options.source, inputFile);
  try {
    await source?.start();
  } catch (e) {
    await source?.close();
    throw e;
  }
  const base = { ...envelope, batchId: envelope.batchId ?? name };
  const writer = new Ack277caWriter(source?.envelope === undefined ? base : answeringEnvelope(base, source.envelope));

  // Pass 1: whether any of this file's claims has cross-claim findings.
  let crossClaim = false;
  for await (const row of csvRows(claimsPath, CLAIM_COLUMNS)) {
    if (row.file === inputFile && row.crossClaim !== '0') {
      crossClaim = true;
      break;
    }
  }

  // Pass 2: merge-join claims with their findings and rejected records, writing the claims as we go; the head of
  // the transaction, with the totals, is written last, before them (assemble).
  const ackTmp = `${ackFile}.tmp`;
  const bodyTmp = `${ackFile}.claims.tmp`;
  const warnTmp = `${warningsFile}.tmp`;
  const ack = createWriteStream(bodyTmp, { encoding: 'latin1' });
  const warn = createWriteStream(warnTmp, { encoding: 'utf8' });
  // Errors surface through write() and finished(); a listener keeps one from also being an uncaught exception.
  const ignore = (): void => undefined;
  ack.on('error', ignore);
  warn.on('error', ignore);
  const findings = new Cursor(findingsPath, FINDING_COLUMNS);
  // A claim's cross-claim findings come after every claim's own in findings.csv, in claim order: a second cursor
  // walks them beside the first.
  const batch = crossClaim ? new Cursor(findingsPath, FINDING_COLUMNS) : undefined;
  const rejects = existsSync(rejectedPath) ? new Cursor(rejectedPath, REJECTED_COLUMNS) : undefined;
  let claims = 0;
  let otherSender = 0;
  const tally = new AckTally();
  try {
    await batch?.skipToCrossClaim();
    await write(warn, csvHeader(WARNING_COLUMNS));
    let claimsRow = 1;
    for await (const row of csvRows(claimsPath, CLAIM_COLUMNS)) {
      claimsRow++;
      const file = row.file ?? '';
      const claimId = row.claimId ?? '';
      const mine = file === inputFile;
      const status = row.status ?? '';
      if (status !== 'clean' && status !== 'warnings' && status !== 'errors' && status !== 'rejected') {
        throw new ScrubberError(
          'INPUT_FORMAT',
          `${claimsPath}: row ${claimsRow}: unknown status ${JSON.stringify(status)}`,
        );
      }
      const errors: { code: string; message: string }[] = [];
      const warnings: string[][] = [];
      const nFindings = ['errors', 'warnings', 'info'].reduce((n, c) => n + count(row, c, claimsRow, claimsPath), 0);
      const nCrossClaim = count(row, 'crossClaim', claimsRow, claimsPath);
      if (nCrossClaim > nFindings) {
        throw new ScrubberError(
          'INPUT_FORMAT',
          `${claimsPath}: row ${claimsRow}: more cross-claim findings than findings`,
        );
      }
      // The claim's own findings, then its cross-claim ones: both count in its status.
      for (let i = 0; i < nFindings; i++) {
        const own = i < nFindings - nCrossClaim;
        if (!own && batch === undefined) {
          if (mine) {
            throw outOfStep(
              findingsPath,
              `claims.csv row ${claimsRow} has cross-claim findings the first pass did not count`,
            );
          }
          continue;
        }
        const f = own
          ? await findings.take(file, claimId, claimsRow, 'own')
          : await (batch as Cursor).take(file, claimId, claimsRow, 'cross-claim');
        if (!mine) {
          continue;
        }
        if (f.severity === 'error' && errors.length < MAX_KEPT_PER_CLAIM) {
          errors.push({ code: f.code ?? '', message: f.message ?? '' });
        } else if (f.severity === 'warning') {
          warnings.push(WARNING_COLUMNS.map((c) => f[c] ?? ''));
        }
      }
      const reasons: string[] = [];
      if (status === 'rejected' && rejects !== undefined) {
        const nRejected = count(row, 'serviceLines', claimsRow, claimsPath);
        for (let i = 0; i < nRejected; i++) {
          const r = await rejects.take(file, claimId, claimsRow);
          const reason = r.reason ?? '';
          if (mine && reasons.length < MAX_KEPT_PER_CLAIM && !reasons.includes(reason)) {
            reasons.push(reason);
          }
        }
      }
      if (!mine) {
        continue;
      }
      claims++;
      const id = claimId.trim() === '' ? `NOCLAIMID-S${row.line ?? ''}` : claimId;
      const from = source === undefined ? undefined : await source.at(Number(row.line), claimId);
      // Another sender's claims in the same file (a second interchange or submitter) are acknowledged without their
      // data: this acknowledgement goes to the first.
      const otherSenders = from !== undefined && from.sender !== source?.envelope?.sender;
      otherSender += otherSenders ? 1 : 0;
      const repeated: X12ClaimRepeats = from === undefined || otherSenders ? {} : repeatsOf(from);
      const claimAck: ClaimAck =
        status === 'clean' || status === 'warnings'
          ? { claimId: id, status: status === 'clean' ? 'accepted' : 'accepted-with-warnings', statusCodes: [ACCEPTED], ...repeated }
          : status === 'errors'
            ? {
                claimId: id,
                status: 'rejected',
                statusCodes: dedupe(errors.map((e) => statusCodesForFinding(e.code, e.message))),
                freeText: freeText ? errors.map((e) => `${e.code} - ${e.message}`).join('; ') : undefined,
                ...repeated,
              }
            : {
                claimId: id,
                status: 'rejected',
                statusCodes: dedupe(
                  reasons.length === 0 ? [statusCodesForRejection('')] : reasons.map(statusCodesForRejection),
                ),
                freeText: freeText && reasons.length > 0 ? reasons.join('; ') : undefined,
                ...repeated,
              };
      if (claimAck.statusCodes.length === 0) {
        // claims.csv says errors, yet none of the claim's finding rows is an error: the reports disagree.
        throw outOfStep(findingsPath, `claims.csv row ${claimsRow} has status errors but no error finding`);
      }
      await write(ack, writer.claim(claimAck));
      tally.add(claimAck);
      await write(warn, csvText(warnings));
    }
    // What is left of findings.csv after every claim's own rows must be cross-claim findings; the second cursor
    // has read this file's (and must be at the end), or else none may be this file's.
    for await (const f of findings.crossClaimRows()) {
      if (batch === undefined && f.file === inputFile) {
        throw outOfStep(findingsPath, 'a cross-claim finding of a claim claims.csv counts none for');
      }
    }
    await batch?.expectEnd();
    await rejects?.expectEnd();
    await source?.finish();
    ack.end();
    warn.end();
    await Promise.all([finished(ack), finished(warn)]);
    await assemble(ackTmp, writer.begin(tally.totals()), bodyTmp, writer.end());
    await rename(ackTmp, ackFile);
    await rename(warnTmp, warningsFile);
    await Promise.all([findings.close(), batch?.close(), rejects?.close(), source?.close()]);
  } catch (err) {
    await Promise.all([discard(ack), discard(warn), findings.close(), batch?.close(), rejects?.close(), source?.close()]);
    await Promise.all([rm(ackTmp, { force: true }), rm(bodyTmp, { force: true }), rm(warnTmp, { force: true })]);
    throw err;
  }
  await rm(bodyTmp, { force: true });
  return { ackFile, warningsFile, claims, otherSender };
}
