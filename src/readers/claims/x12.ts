// X12 837P / 837I claim reader (issue 12 §2; docs domain.md §14): segments from the tokenizer are assembled claim
// by claim (one 2300 CLM with its 2400 lines, read against the 2000A/B/C context it sits in) into the claim model,
// checked with the Claim schema. A claim with a malformed segment is rejected whole, one record per service line;
// envelope faults (wrong SE/GE/IEA counts, a file ending mid-transaction) are rejected items of their own, and every
// complete claim before them is still yielded. Memory holds one claim, never the file.
//
//   bytes ──X12Tokenizer──> segments ──X12ClaimAssembler──> ReadClaim | ReadRejected
import { createHash } from 'node:crypto';
import { BillType, type IcdType, parseClaim } from '../../schemas/claim.js';
import type { RejectedRecord } from '../../schemas/scrub.js';
import { CLAIM_CHARGE, isDecimal, MAX_LINE_NUMBER_DIGITS, MAX_UNITS_CHARS } from './decimal.js';
import { nothingToCheck, rejectedRecord, type ReadItem } from './types.js';
import { readX12Batches, type X12Segment } from './x12-segments.js';
import { utf8OfLatin1 } from './utf8.js';

/** A reason to reject a claim, at a segment; `line` is the index of the service line it belongs to, if any. */
interface Problem {
  readonly segNo: number;
  readonly reason: string;
  readonly line?: number | undefined;
}

/** A 2400 service line as read so far. */
interface LineDraft {
  readonly lxSegNo: number | undefined;
  lineNumber: number | undefined;
  svSegNo: number | undefined;
  kind: 'SV1' | 'SV2' | undefined;
  procedureCode: string | undefined;
  modifiers: string[];
  units: number | undefined;
  placeOfService: string | undefined;
  pointers: number[] | undefined;
  revenueCode: string | undefined;
  dateFrom: string | undefined;
  dateTo: string | undefined;
}

interface DiagnosisDraft {
  /** 1-based position among the claim's diagnoses as submitted: what SV107 pointers count. */
  readonly ordinal: number;
  readonly code: string;
  readonly principal: boolean;
  readonly icd: IcdType;
  readonly poa: string;
}

interface Address {
  readonly state: string;
  readonly zip: string;
  readonly country: string;
}

/** A 2300 claim as read so far. */
interface ClaimDraft {
  readonly segNo: number;
  readonly claimId: string | undefined;
  /** CLM05-1: place of service (837P) or facility type code (837I). */
  readonly facilityCode: string;
  /** CLM05-3: the claim frequency code (837I: the type of bill's last digit). */
  readonly frequency: string;
  readonly diagnoses: DiagnosisDraft[];
  /** 837I HI BBR/BBQ (ICD-10-PCS) procedures, in HI order. */
  readonly procedures: ProcedureDraft[];
  dateFrom: string | undefined;
  dateTo: string | undefined;
  dateQualifier: string | undefined;
  readonly lines: LineDraft[];
  readonly problems: Problem[];
  /** The entity of the claim's last NM1 (2310x/2330x loops). */
  entity: string;
  /** 2310C service facility address (837P). */
  facility: Address | undefined;
}

interface ProcedureDraft {
  readonly segNo: number;
  readonly code: string;
  readonly principal: boolean;
  readonly date: string | undefined;
  /** Why the composite cannot be read: a problem of the claim only if it is an 837I's (an 837P has no such HI). */
  readonly problem?: string;
}

interface Demographics {
  readonly segNo: number;
  readonly format: string;
  readonly birthDate: string;
  readonly sex: string;
}

interface Person {
  memberId: string;
  last: string;
  first: string;
  demographics: Demographics | undefined;
  /** 2010BA / 2010CA N4: where a DME claim's beneficiary lives (the DME MAC is chosen by it). */
  address: Address | undefined;
}

/** The 2000A/2000B/2000C context the current claim sits in. */
interface Hierarchy {
  level: string;
  entity: string;
  billing: Address | undefined;
  /** 2000A PRV*BI*PXC: the billing provider's taxonomy code. */
  taxonomy: string;
  payer: string;
  subscriber: Person | undefined;
  patient: Person | undefined;
}

interface Transaction {
  readonly segNo: number;
  readonly setId: string;
  readonly control: string;
  /** From ST03 or GS08; undefined when neither names 005010X222 or X223 (then each claim's lines decide). */
  readonly claimType: 'professional' | 'institutional' | undefined;
  readonly skip: boolean;
  /**
   * Segments after no ST (a damaged or missing one), read as a transaction so that none of their claims is lost:
   * each is rejected whole, and the stretch ends at the next SE or envelope segment without faults of its own.
   */
  readonly orphan?: boolean;
}

interface Group {
  readonly segNo: number;
  readonly control: string;
  readonly version: string;
  transactions: number;
}

interface Interchange {
  readonly segNo: number;
  readonly control: string;
  groups: number;
}

/**
 * HI qualifiers read as diagnoses, in the order the 837P diagnosis pointers count them: ICD-10-CM ABK principal /
 * ABF other, ICD-9-CM BK / BF. Admitting (ABJ/BJ), reason for visit (APR/PR) and external cause (ABN/BN) codes are
 * left out: they are no pointer targets, and with them an 837I could exceed the model's 25 diagnoses.
 */
const ICD10_PRINCIPAL = { principal: true, icd: 'ICD-10 CM' } as const;
const ICD10_OTHER = { principal: false, icd: 'ICD-10 CM' } as const;
const ICD9_PRINCIPAL = { principal: true, icd: 'ICD-9 CM' } as const;
const ICD9_OTHER = { principal: false, icd: 'ICD-9 CM' } as const;

/** What an HI qualifier makes of its code: ABK/BK principal, ABF/BF other diagnoses; undefined for the rest. */
function diagnosisKind(qualifier: string): { readonly principal: boolean; readonly icd: IcdType } | undefined {
  switch (qualifier) {
    case 'ABK':
      return ICD10_PRINCIPAL;
    case 'ABF':
      return ICD10_OTHER;
    case 'BK':
      return ICD9_PRINCIPAL;
    case 'BF':
      return ICD9_OTHER;
    default: {
      // Any case: `abk` was passed over as an unknown qualifier, and the claim's diagnoses vanished without a word.
      // (Upper-cased only here: most HI composites carry other qualifiers, read once.)
      const upper = qualifier.toUpperCase();
      return upper === qualifier ? undefined : diagnosisKind(upper);
    }
  }
}

/** Component separators looked for when the declared one is absent from a composite (messy senders). */
const FALLBACK_COMPONENT_SEPARATORS = [':', '>', '^'] as const;


/**
 * The pure assembler core: feed it the segments of a file in order; it appends each finished claim or rejected
 * item to `out`. Holds the envelope and loop context and the one claim being read.
 */
export class X12ClaimAssembler {
  private interchange: Interchange | undefined;
  private group: Group | undefined;
  private txn: Transaction | undefined;
  private claim: ClaimDraft | undefined;
  private hierarchy: Hierarchy = emptyHierarchy();
  private outsideReported = false;
  private lastSegNo = 0;

  /** @param file - the file name, for provenance */
  constructor(private readonly file: string) {}

  /**
   * Reads one segment.
   * @param seg - the next segment of the file
   * @param out - receives the items this segment finishes
   */
  push(seg: X12Segment, out: ReadItem[]): void {
    this.lastSegNo = seg.segNo;
    switch (seg.id) {
      case 'ISA':
        this.onIsa(seg, out);
        return;
      case 'GS':
        this.onGs(seg, out);
        return;
      case 'ST':
        this.onSt(seg, out);
        return;
      case 'SE':
        this.onSe(seg, out);
        return;
      case 'GE':
        this.onGe(seg, out);
        return;
      case 'IEA':
        this.onIea(seg, out);
        return;
      default:
        break;
    }
    let txn = this.txn;
    if (txn === undefined) {
      if (seg.id === 'TA1') {
        return;
      }
      if (!this.outsideReported) {
        this.outsideReported = true;
        this.fault(
          seg.segNo,
          `segment ${seg.id.slice(0, 8)} outside a transaction set (no ST before it): its claims are rejected up to the next SE or ST`,
          out,
        );
      }
      txn = { segNo: seg.segNo, setId: '', control: '', claimType: claimTypeOf(this.group?.version ?? ''), skip: false, orphan: true };
      this.txn = txn;
      this.hierarchy = emptyHierarchy();
    }
    if (txn.skip) {
      return;
    }
    if (seg.id === 'HL') {
      this.finishClaim(out);
      this.onHl(seg);
    } else if (seg.id === 'CLM') {
      this.finishClaim(out);
      this.onClm(seg);
    } else if (this.claim !== undefined) {
      this.claimSegment(this.claim, seg);
    } else {
      this.contextSegment(seg);
    }
  }

  /**
   * Ends the file: a transaction, group or interchange still open means the file was truncated, or that its
   * segments do not end with the terminator the ISA declares (`unterminated` says so, from the tokenizer).
   * @param out - receives the items the end finishes
   * @param unterminated - the tokenizer's diagnosis of a last segment without its terminator
   * @param cut - why the bytes end here when they failed part way (a gzip or ZIP member cut short)
   */
  end(out: ReadItem[], unterminated?: string, cut?: string): void {
    const at = Math.max(this.lastSegNo, 1);
    const why = cut ?? (unterminated === undefined ? 'truncated' : `truncated, or ${unterminated}`);
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `the file ends inside transaction set ${t.control} (ST at segment ${t.segNo}) before its SE: ${why}`,
        at,
        out,
      );
    } else if (this.group !== undefined) {
      const g = this.group;
      this.fault(
        at,
        `the file ends inside functional group ${g.control} (GS at segment ${g.segNo}) before its GE: ${why}`,
        out,
      );
    } else if (this.interchange !== undefined) {
      const i = this.interchange;
      this.fault(
        at,
        `the file ends inside interchange ${i.control} (ISA at segment ${i.segNo}) before its IEA: ${why}`,
        out,
      );
    }
    this.txn = undefined;
    this.group = undefined;
    this.interchange = undefined;
  }

  // ---- envelope ------------------------------------------------------------------------------------------------

  private onIsa(seg: X12Segment, out: ReadItem[]): void {
    const open = this.interchange;
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `transaction set ${t.control} (ST at segment ${t.segNo}) has no SE before the ISA at segment ${seg.segNo}`,
        seg.segNo - 1,
        out,
      );
    } else if (open !== undefined) {
      this.fault(
        seg.segNo - 1,
        `interchange ${open.control} (ISA at segment ${open.segNo}) has no IEA before the ISA at segment ${seg.segNo}`,
        out,
      );
    }
    this.group = undefined;
    this.interchange = { segNo: seg.segNo, control: el(seg, 13).trim(), groups: 0 };
  }

  private onGs(seg: X12Segment, out: ReadItem[]): void {
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `transaction set ${t.control} (ST at segment ${t.segNo}) has no SE before the GS at segment ${seg.segNo}`,
        seg.segNo - 1,
        out,
      );
    } else if (this.group !== undefined) {
      const g = this.group;
      this.fault(
        seg.segNo - 1,
        `functional group ${g.control} (GS at segment ${g.segNo}) has no GE before the GS at segment ${seg.segNo}`,
        out,
      );
    }
    if (this.interchange !== undefined) {
      this.interchange.groups++;
    }
    this.group = { segNo: seg.segNo, control: el(seg, 6).trim(), version: el(seg, 8).trim(), transactions: 0 };
  }

  private onSt(seg: X12Segment, out: ReadItem[]): void {
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `transaction set ${t.control} (ST at segment ${t.segNo}) has no SE before the ST at segment ${seg.segNo}`,
        seg.segNo - 1,
        out,
      );
    }
    if (this.group !== undefined) {
      this.group.transactions++;
    }
    const setId = el(seg, 1).trim();
    const version = el(seg, 3).trim() || (this.group?.version ?? '');
    const skip = setId !== '837';
    this.txn = { segNo: seg.segNo, setId, control: el(seg, 2).trim(), claimType: claimTypeOf(version), skip };
    this.hierarchy = emptyHierarchy();
    this.outsideReported = false;
    if (skip) {
      this.fault(seg.segNo, `transaction set ${setId || '(no ST01)'} is not an 837 claim: skipped up to its SE`, out);
    }
  }

  private onSe(seg: X12Segment, out: ReadItem[]): void {
    const t = this.txn;
    if (t === undefined) {
      this.fault(seg.segNo, 'SE without an ST', out);
      return;
    }
    this.finishClaim(out);
    this.txn = undefined;
    if (t.orphan === true) {
      // Its SE counts from an ST that is not there: the stretch's fault is said already.
      return;
    }
    this.checkTrailer(seg, out, {
      trailer: 'SE',
      counted: 'segments',
      opener: `transaction set ${t.control} (ST at segment ${t.segNo})`,
      count: seg.segNo - t.segNo + 1,
      control: ['ST02', t.control],
    });
  }

  private onGe(seg: X12Segment, out: ReadItem[]): void {
    const g = this.group;
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `transaction set ${t.control} (ST at segment ${t.segNo}) has no SE before the GE at segment ${seg.segNo}`,
        seg.segNo - 1,
        out,
      );
    }
    if (g === undefined) {
      this.fault(seg.segNo, 'GE without a GS', out);
      return;
    }
    this.group = undefined;
    this.checkTrailer(seg, out, {
      trailer: 'GE',
      counted: 'transaction sets',
      opener: `functional group ${g.control} (GS at segment ${g.segNo})`,
      count: g.transactions,
      control: ['GS06', g.control],
    });
  }

  private onIea(seg: X12Segment, out: ReadItem[]): void {
    const i = this.interchange;
    if (this.txn !== undefined) {
      const t = this.txn;
      this.abandonTransaction(
        `transaction set ${t.control} (ST at segment ${t.segNo}) has no SE before the IEA at segment ${seg.segNo}`,
        seg.segNo - 1,
        out,
      );
    } else if (this.group !== undefined) {
      const g = this.group;
      this.fault(
        seg.segNo - 1,
        `functional group ${g.control} (GS at segment ${g.segNo}) has no GE before the IEA at segment ${seg.segNo}`,
        out,
      );
    }
    this.group = undefined;
    if (i === undefined) {
      this.fault(seg.segNo, 'IEA without an ISA', out);
      return;
    }
    this.interchange = undefined;
    this.checkTrailer(seg, out, {
      trailer: 'IEA',
      counted: 'functional groups',
      opener: `interchange ${i.control} (ISA at segment ${i.segNo})`,
      count: i.groups,
      control: ['ISA13', i.control],
    });
  }

  /**
   * An SE, GE or IEA against what it closes: element 1 must give the count, element 2 the opener's control number;
   * a mismatch is a fault at the trailer (the claims before it stand).
   */
  private checkTrailer(
    seg: X12Segment,
    out: ReadItem[],
    t: { trailer: string; counted: string; opener: string; count: number; control: readonly [string, string] },
  ): void {
    const problems: string[] = [];
    const said = el(seg, 1).trim();
    if (said !== String(t.count)) {
      problems.push(`${t.trailer}01 says ${said === '' ? 'nothing' : said} ${t.counted}, ${t.opener} has ${t.count}`);
    }
    const control = el(seg, 2).trim();
    const [openerElement, expected] = t.control;
    if (control !== expected) {
      problems.push(`${t.trailer}02 control number '${control}' differs from ${openerElement} '${expected}'`);
    }
    if (problems.length > 0) {
      this.fault(seg.segNo, problems.join('; '), out);
    }
  }

  /** Closes an open transaction that never got its SE: its unfinished claim is rejected, or a fault stands alone. */
  private abandonTransaction(reason: string, atSegNo: number, out: ReadItem[]): void {
    if (this.txn?.orphan === true) {
      // A stretch after no ST, ended by an envelope segment: its claim is rejected already, its fault said.
      this.finishClaim(out);
      this.txn = undefined;
      return;
    }
    const claim = this.claim;
    const skipped = this.txn?.skip === true;
    if (claim !== undefined) {
      claim.problems.push({ segNo: Math.max(atSegNo, claim.segNo), reason: `${reason}; the claim may be incomplete` });
      this.finishClaim(out);
    }
    // The file's own fault too, whether or not it cut a claim: a file cut inside a claim is as truncated as one cut
    // between claims (it was a rejected claim only, with no file-structure problem and no word of the truncation).
    if (!skipped) {
      this.fault(Math.max(atSegNo, 1), reason, out);
    }
    this.txn = undefined;
  }

  private fault(segNo: number, reason: string, out: ReadItem[]): void {
    out.push({
      kind: 'rejected',
      file: this.file,
      claimId: undefined,
      records: [{ file: this.file, line: segNo, reason }],
      structural: true,
    });
  }

  // ---- 2000A/B/C context -----------------------------------------------------------------------------------------

  private onHl(seg: X12Segment): void {
    const h = this.hierarchy;
    const level = el(seg, 3).trim();
    h.level = level;
    h.entity = '';
    if (level === '20') {
      this.hierarchy = { ...emptyHierarchy(), level };
    } else if (level === '22') {
      h.payer = '';
      h.subscriber = newPerson();
      h.patient = undefined;
    } else if (level === '23') {
      h.patient = newPerson();
    } else {
      // A level this reader does not know: the claims under it are no subscriber's or patient's it read before (they
      // took the previous patient's identity when a wrapped line broke HL03).
      h.subscriber = newPerson();
      h.patient = undefined;
    }
  }

  /** A segment between an HL and the next CLM: billing provider, subscriber, payer and patient data. */
  private contextSegment(seg: X12Segment): void {
    const h = this.hierarchy;
    switch (seg.id) {
      case 'NM1': {
        h.entity = el(seg, 1).trim();
        if (h.entity === 'IL' && h.subscriber !== undefined) {
          setName(h.subscriber, seg);
        } else if (h.entity === 'QC' && h.patient !== undefined) {
          setName(h.patient, seg);
        } else if (h.entity === 'PR') {
          h.payer = utf8OfLatin1(el(seg, 9).trim());
        }
        return;
      }
      case 'N4':
        if (h.entity === '85' && h.level === '20') {
          h.billing = addressOf(seg);
        } else if (h.entity === 'IL' && h.subscriber !== undefined) {
          h.subscriber.address = addressOf(seg);
        } else if (h.entity === 'QC' && h.patient !== undefined) {
          h.patient.address = addressOf(seg);
        }
        return;
      case 'PRV':
        if (h.level === '20' && el(seg, 1).trim() === 'BI' && el(seg, 2).trim() === 'PXC') {
          h.taxonomy = el(seg, 3).trim().toUpperCase();
        }
        return;
      case 'DMG': {
        const person = h.level === '23' ? h.patient : h.level === '22' ? h.subscriber : undefined;
        if (person !== undefined) {
          person.demographics = {
            segNo: seg.segNo,
            format: el(seg, 1).trim(),
            birthDate: el(seg, 2).trim(),
            sex: el(seg, 3).trim().toUpperCase(),
          };
        }
        return;
      }
      default:
        return;
    }
  }

  // ---- 2300 claim / 2400 lines -------------------------------------------------------------------------------------

  private onClm(seg: X12Segment): void {
    const id = utf8OfLatin1(el(seg, 1).trim());
    const problems: Problem[] = [];
    if (this.txn?.orphan === true) {
      problems.push({ segNo: seg.segNo, reason: 'the claim is outside a transaction set: no ST before it (a damaged or missing ST)' });
    }
    if (id === '') {
      problems.push({ segNo: seg.segNo, reason: 'CLM01 (patient control number, the claim id) is empty' });
    }
    // The total charge is required: a payer's front end refuses a claim without one, and the 277CA repeats it.
    const charge = el(seg, 2).trim();
    if (!CLAIM_CHARGE.test(charge)) {
      problems.push({
        segNo: seg.segNo,
        reason: charge === '' ? 'CLM02 (total claim charge) is empty' : `CLM02 (total claim charge) '${charge}' is not an amount`,
      });
    }
    const clm05 = el(seg, 5);
    const separator = separatorOf(clm05, seg.delimiters.component);
    this.claim = {
      segNo: seg.segNo,
      claimId: id === '' ? undefined : id,
      facilityCode: componentAt(clm05, separator, 0).trim(),
      frequency: componentAt(clm05, separator, 2).trim(),
      diagnoses: [],
      procedures: [],
      dateFrom: undefined,
      dateTo: undefined,
      dateQualifier: undefined,
      lines: [],
      problems,
      entity: '',
      facility: undefined,
    };
  }

  private claimSegment(claim: ClaimDraft, seg: X12Segment): void {
    switch (seg.id) {
      case 'HI':
        readDiagnoses(claim, seg);
        return;
      case 'DTP':
        readDate(claim, seg);
        return;
      case 'LX': {
        const raw = el(seg, 1).trim();
        const n = isDecimal(raw, false) && raw.length <= MAX_LINE_NUMBER_DIGITS ? Number(raw) : 0;
        claim.lines.push(newLine(seg.segNo, n >= 1 ? n : undefined));
        claim.entity = '';
        if (n < 1) {
          claim.problems.push({
            segNo: seg.segNo,
            reason: `LX01 line number '${raw}' is not a positive integer`,
            line: claim.lines.length - 1,
          });
        }
        return;
      }
      case 'SV1':
        readSv1(claim, seg);
        return;
      case 'SV2':
        readSv2(claim, seg);
        return;
      case 'NM1':
        claim.entity = el(seg, 1).trim();
        return;
      case 'N4':
        if (claim.entity === '77' && claim.lines.length === 0) {
          claim.facility = addressOf(seg);
        }
        return;
      default:
        return;
    }
  }

  /** Builds the open claim (if any) into a ReadClaim or a ReadRejected and appends it to `out`. */
  private finishClaim(out: ReadItem[]): void {
    const d = this.claim;
    if (d === undefined) {
      return;
    }
    this.claim = undefined;
    const built = this.buildClaim(d);
    if (built.problems.length > 0) {
      out.push(this.rejectClaim(d, built.problems));
      return;
    }
    const parsed = parseClaim(built.claim);
    if (parsed.success) {
      const empty = nothingToCheck(parsed.data);
      if (empty !== undefined) {
        out.push(this.rejectClaim(d, [{ segNo: d.segNo, reason: empty }]));
        return;
      }
      const revenueOnlyLines = d.lines.filter((l) => l.procedureCode === undefined).length;
      out.push({
        kind: 'claim',
        claim: parsed.data,
        file: this.file,
        line: d.segNo,
        inputLines: Math.max(d.lines.length, 1),
        ...(revenueOnlyLines > 0 ? { revenueOnlyLines } : {}),
      });
      return;
    }
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const lineIndex = path[0] === 'lines' && typeof path[1] === 'number' ? built.lineDrafts[path[1]] : undefined;
    const line = lineIndex === undefined ? undefined : d.lines[lineIndex];
    out.push(
      this.rejectClaim(d, [
        {
          segNo: line?.svSegNo ?? line?.lxSegNo ?? d.segNo,
          reason: `claim schema: ${path.map(String).join('.') || 'claim'}: ${issue?.message ?? 'invalid claim'}`,
          line: lineIndex,
        },
      ]),
    );
  }

  /** The claim model object for a draft (checked by the caller), or the problems that stop it. */
  private buildClaim(d: ClaimDraft): { claim: Record<string, unknown>; lineDrafts: number[]; problems: Problem[] } {
    const problems = d.problems;
    const h = this.hierarchy;
    // 1. claim type: from the implementation guide (ST03/GS08), else from the kind of service lines.
    const firstKind = d.lines.find((l) => l.kind !== undefined)?.kind;
    const claimType =
      this.txn?.claimType ?? (firstKind === 'SV1' ? 'professional' : firstKind === 'SV2' ? 'institutional' : undefined);
    const expected = claimType === 'institutional' ? 'SV2' : 'SV1';
    // 2. diagnoses: principal first, then the others in order; one code set. A principal submitted after other
    //    codes moves first, and the line pointers follow their codes.
    let principalCount = 0;
    let principalsFirst = true;
    for (const x of d.diagnoses) {
      if (x.principal) {
        principalsFirst &&= principalCount === x.ordinal - 1;
        principalCount++;
      }
    }
    if (principalCount > 1) {
      problems.push({ segNo: d.segNo, reason: `the claim has ${principalCount} principal diagnoses (HI ABK/BK)` });
    }
    const ordered = principalsFirst
      ? d.diagnoses
      : [...d.diagnoses.filter((x) => x.principal), ...d.diagnoses.filter((x) => !x.principal)];
    const icdType = ordered[0]?.icd;
    if (ordered.some((x) => x.icd !== icdType)) {
      problems.push({ segNo: d.segNo, reason: 'the claim mixes ICD-10-CM (ABK/ABF) and ICD-9-CM (BK/BF) diagnoses' });
    }
    const diagnoses = ordered.map((x) =>
      claimType === 'institutional' && x.poa !== '' ? { code: x.code, poa: x.poa } : { code: x.code },
    );
    // Principals submitted after other codes move first: the line pointers follow their codes.
    const moved = principalsFirst ? undefined : new Map(ordered.map((x, i) => [x.ordinal, i + 1]));
    // 3. service lines.
    if (d.lines.length === 0) {
      problems.push({ segNo: d.segNo, reason: 'the claim has no service lines (LX with SV1 or SV2)' });
    }
    const lines: Record<string, unknown>[] = [];
    const lineDrafts: number[] = [];
    let previous = 0;
    let highest = 0;
    d.lines.forEach((l, i) => {
      const lineNumber = l.lineNumber ?? previous + 1;
      previous = lineNumber;
      highest = Math.max(highest, lineNumber);
      if (l.kind === undefined) {
        problems.push({
          segNo: l.lxSegNo ?? d.segNo,
          reason: `service line ${lineNumber} has no SV1 or SV2 segment`,
          line: i,
        });
        return;
      }
      if (claimType !== undefined && l.kind !== expected) {
        const form = claimType === 'professional' ? 'a professional (837P)' : 'an institutional (837I)';
        problems.push({
          segNo: l.svSegNo ?? d.segNo,
          reason: `${l.kind} in ${form} transaction; ${expected} expected`,
          line: i,
        });
        return;
      }
      if (l.procedureCode === undefined) {
        // An 837I line with a revenue code and no HCPCS (room and board): nothing for the engine to check.
        return;
      }
      const pos =
        l.placeOfService ?? (claimType === 'professional' && d.facilityCode !== '' ? d.facilityCode : undefined);
      // Optional keys are set only when present (exactOptionalPropertyTypes downstream).
      const line: Record<string, unknown> = {
        lineNumber,
        procedureCode: l.procedureCode,
        modifiers: l.modifiers,
        units: l.units,
      };
      if (l.dateFrom !== undefined) {
        line['dateOfService'] = l.dateFrom;
      }
      if (l.pointers !== undefined) {
        line['diagnosisPointers'] = moved === undefined ? l.pointers : l.pointers.map((p) => moved.get(p) ?? p);
      }
      if (pos !== undefined) {
        line['placeOfService'] = pos;
      }
      if (l.revenueCode !== undefined) {
        line['revenueCode'] = l.revenueCode;
      }
      lines.push(line);
      lineDrafts.push(i);
    });
    if (claimType === undefined && d.lines.length > 0) {
      problems.push({
        segNo: d.segNo,
        reason: 'neither ST03/GS08 (005010X222A1 or X223A2) nor SV1/SV2 tell 837P from 837I',
      });
    }
    // 3b. 837I ICD-10-PCS procedures (HI BBR/BBQ) are lines after the service lines, as the CSV contract has them
    //     (one row each, no revenue code): the MCE's procedure edits read them there. The principal comes first.
    if (claimType === 'institutional' && d.procedures.length > 0) {
      for (const x of d.procedures) {
        if (x.problem !== undefined) {
          problems.push({ segNo: x.segNo, reason: x.problem });
        }
      }
      if (d.procedures.filter((x) => x.principal).length > 1) {
        problems.push({ segNo: d.segNo, reason: 'the claim has more than one principal procedure (HI BBR)' });
      }
      const procedures = [...d.procedures.filter((x) => x.principal), ...d.procedures.filter((x) => !x.principal)];
      // Numbered after the highest service line number (LX numbers may come out of order).
      let next = highest;
      for (const x of procedures) {
        next++;
        lines.push({
          lineNumber: next,
          procedureCode: x.code,
          modifiers: [],
          units: 1,
          ...(x.date === undefined ? {} : { dateOfService: x.date }),
        });
      }
    }
    // 4. dates: the claim's DTP*434/472, else the span of its line dates.
    let from: string | undefined = d.dateFrom;
    let to: string | undefined = d.dateTo;
    if (d.dateFrom === undefined) {
      let first: string | undefined;
      let last: string | undefined;
      for (const l of d.lines) {
        if (l.dateFrom !== undefined) {
          first = first === undefined || l.dateFrom < first ? l.dateFrom : first;
          const end = l.dateTo ?? l.dateFrom;
          last = last === undefined || end > last ? end : last;
        }
      }
      from = first;
      to = last === first ? undefined : last;
    }
    if (from === undefined) {
      problems.push({
        segNo: d.segNo,
        reason: 'no date of service: no DTP*434/472 on the claim and none on its lines',
      });
    }
    // 5. patient (2000C if there is one, else the subscriber) and provider.
    const person = h.patient ?? h.subscriber;
    const patient: Record<string, unknown> = {};
    const memberId = h.subscriber?.memberId ?? '';
    if (h.patient !== undefined) {
      if (memberId !== '') {
        // A dependent has no member id of its own: the subscriber's, with a digest of the dependent's name, keeps
        // dependents apart for cross-claim checks without carrying the name into the claim (or any report).
        const digest = createHash('sha256')
          .update(`${h.patient.last.toUpperCase()}\t${h.patient.first.toUpperCase()}`)
          .digest('hex')
          .slice(0, 12);
        patient['id'] = `${memberId}/${digest}`;
      }
    } else if (memberId !== '') {
      patient['id'] = memberId;
    }
    const dmg = person?.demographics;
    if (dmg !== undefined) {
      if (dmg.birthDate !== '') {
        const birth =
          (dmg.format === 'D8' || dmg.format === '') && dmg.birthDate.length === 8 ? isoOfD8(dmg.birthDate) : undefined;
        if (birth === undefined) {
          problems.push({ segNo: dmg.segNo, reason: 'DMG02 birth date is not a valid D8 (CCYYMMDD) date' });
        } else {
          patient['birthDate'] = birth;
        }
      }
      if (dmg.sex !== '') {
        patient['sex'] = dmg.sex;
      }
    }
    const provider: Record<string, unknown> = {};
    // A DME supplier bills on the 837P; its taxonomy (2000A PRV) says so, and picks the DME tables and DME MAC. The
    // DME MAC is the beneficiary's (domain.md section 12: 2010CA, else 2010BA), a practitioner's Part B contractor the
    // service facility's (2310C) or else the billing provider's.
    const dme = claimType === 'professional' && isDmeSupplierTaxonomy(h.taxonomy);
    const address = dme
      ? (h.patient?.address ?? h.subscriber?.address ?? h.billing)
      : claimType === 'professional' && d.facility !== undefined
        ? d.facility
        : h.billing;
    if (claimType !== undefined) {
      provider['type'] = dme ? 'DME' : claimType === 'professional' ? 'Physician' : 'Facility';
    }
    if (address !== undefined && (address.country === '' || address.country === 'US')) {
      if (address.state !== '') {
        provider['state'] = address.state.toUpperCase();
      }
      if (address.zip !== '') {
        provider['zip'] = address.zip;
      }
    }
    const claim: Record<string, unknown> = { claimId: d.claimId, claimType: dme ? 'dme' : claimType };
    if (patient['id'] !== undefined || patient['birthDate'] !== undefined || patient['sex'] !== undefined) {
      claim['patient'] = patient;
    }
    if (provider['type'] !== undefined || provider['state'] !== undefined || provider['zip'] !== undefined) {
      claim['provider'] = provider;
    }
    if (h.payer !== '') {
      claim['payerCode'] = h.payer;
    }
    claim['dateOfServiceFrom'] = from;
    if (to !== undefined) {
      claim['dateOfServiceTo'] = to;
    }
    // 837I: the type of bill is the facility type code (two digits) and the frequency code when there is one; a
    // facility code of another shape is left out, not guessed.
    const billType = /^\d{2}$/.test(d.facilityCode) ? `${d.facilityCode}${d.frequency.toUpperCase()}` : '';
    if (claimType === 'institutional' && BillType.safeParse(billType).success) {
      claim['billType'] = billType;
    }
    if (icdType !== undefined) {
      claim['icdType'] = icdType;
    }
    claim['diagnoses'] = diagnoses;
    claim['lines'] = lines;
    return { claim, lineDrafts, problems };
  }

  /** One rejected record per service line (at its SV1/SV2, else its LX), or one at the CLM for a line-less claim. */
  private rejectClaim(d: ClaimDraft, problems: readonly Problem[]): ReadItem {
    const first = problems[0] as Problem;
    const more =
      problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    const whole = `claim rejected whole: segment ${first.segNo}: ${first.reason}${more}`;
    const record = (line: number, reason: string): RejectedRecord => rejectedRecord(this.file, line, d.claimId, reason);
    const records: RejectedRecord[] = [];
    if (d.lines.length === 0) {
      records.push(record(d.segNo, `segment ${first.segNo}: ${first.reason}${more}`));
    }
    // A line's own problem is its record's reason, with the claim's own first problem beside it (a truncated file
    // must say so even when the line it cut short has a problem of its own).
    const claimWide = problems.find((p) => p.line === undefined);
    const also = claimWide === undefined ? '' : `; and the claim's: segment ${claimWide.segNo}: ${claimWide.reason}`;
    d.lines.forEach((l, i) => {
      const own = problems.find((p) => p.line === i);
      records.push(
        record(l.svSegNo ?? l.lxSegNo ?? d.segNo, own === undefined ? whole : `segment ${own.segNo}: ${own.reason}${also}`),
      );
    });
    return { kind: 'rejected', file: this.file, claimId: d.claimId, records, line: d.segNo };
  }
}

// ---- segment readers ---------------------------------------------------------------------------------------------

function readDiagnoses(claim: ClaimDraft, seg: X12Segment): void {
  const count = seg.elementCount;
  for (let i = 1; i <= count; i++) {
    const value = seg.element(i);
    if (value === '') {
      continue;
    }
    const sep = separatorOf(value, seg.delimiters.component);
    const qualifier = componentAt(value, sep, 0).trim();
    const kind = diagnosisKind(qualifier);
    if (kind === undefined) {
      const principal = procedureKind(qualifier);
      if (principal !== undefined) {
        readIcdProcedure(claim, seg, i, qualifier, principal, value, sep);
      }
      // ABJ/BJ admitting, APR/PR reason for visit, ABN/BN external cause, value/occurrence codes.
      continue;
    }
    const code = componentAt(value, sep, 1).trim();
    if (code === '') {
      claim.problems.push({ segNo: seg.segNo, reason: `HI${pad2(i)} ${qualifier} has no diagnosis code` });
      continue;
    }
    claim.diagnoses.push({
      ordinal: claim.diagnoses.length + 1,
      code,
      principal: kind.principal,
      icd: kind.icd,
      poa: componentAt(value, sep, 8).trim().toUpperCase(),
    });
  }
}

/**
 * Whether an HI qualifier is an ICD-10-PCS procedure's (BBR principal, BBQ other). ICD-9-CM procedures (BR/BQ, before
 * 2015-10-01) are left out: their 3-4 digit codes read as two code sets (CODE_AMBIGUOUS) on a line, which has no
 * place for the code set the qualifier names.
 */
function procedureKind(qualifier: string): boolean | undefined {
  const q = qualifier.toUpperCase();
  return q === 'BBR' ? true : q === 'BBQ' ? false : undefined;
}

/** An HI procedure composite: code (component 2), date format D8 (3) and date (4). */
function readIcdProcedure(
  claim: ClaimDraft,
  seg: X12Segment,
  i: number,
  qualifier: string,
  principal: boolean,
  value: string,
  sep: string,
): void {
  const code = componentAt(value, sep, 1).trim().toUpperCase();
  const base = { segNo: seg.segNo, code, principal, date: undefined };
  if (code === '') {
    claim.procedures.push({ ...base, problem: `HI${pad2(i)} ${qualifier} has no procedure code` });
    return;
  }
  const format = componentAt(value, sep, 2).trim().toUpperCase();
  const when = componentAt(value, sep, 3).trim();
  let date: string | undefined;
  if (when !== '' || format !== '') {
    date = format === 'D8' && when.length === 8 ? isoOfD8(when) : undefined;
    if (date === undefined) {
      claim.procedures.push({
        ...base,
        problem: `HI${pad2(i)} ${qualifier} procedure date '${when}' is not a valid D8 (CCYYMMDD) date`,
      });
      return;
    }
  }
  claim.procedures.push({ ...base, date });
}

function readDate(claim: ClaimDraft, seg: X12Segment): void {
  const qualifier = el(seg, 1).trim();
  const line = claim.lines[claim.lines.length - 1];
  const wanted = qualifier === '472' || (line === undefined && qualifier === '434');
  if (!wanted) {
    return;
  }
  const range = rangeOf(el(seg, 2).trim(), el(seg, 3).trim());
  if (typeof range === 'string') {
    claim.problems.push({
      segNo: seg.segNo,
      reason: `DTP*${qualifier}: ${range}`,
      line: line === undefined ? undefined : claim.lines.length - 1,
    });
    return;
  }
  if (line !== undefined) {
    line.dateFrom = range.from;
    line.dateTo = range.to;
  } else if (qualifier === '434' || claim.dateQualifier !== '434') {
    // The statement period (434) wins over a claim-level service date (472).
    claim.dateFrom = range.from;
    claim.dateTo = range.to;
    claim.dateQualifier = qualifier;
  }
}

/** The open service line for an SV1/SV2 (its index): the LX's, or a new one when the SV has no LX of its own. */
function serviceLine(claim: ClaimDraft, seg: X12Segment): number {
  let line = claim.lines[claim.lines.length - 1];
  if (line === undefined || line.kind !== undefined) {
    line = newLine(undefined, undefined);
    claim.lines.push(line);
  }
  line.kind = seg.id === 'SV1' ? 'SV1' : 'SV2';
  line.svSegNo = seg.segNo;
  claim.entity = '';
  return claim.lines.length - 1;
}

function readSv1(claim: ClaimDraft, seg: X12Segment): void {
  const index = serviceLine(claim, seg);
  const line = claim.lines[index] as LineDraft;
  readProcedure(claim, index, seg, 1);
  // SV103 MJ: SV104 counts anesthesia minutes, not services; the edits count services (an MUE of 1 is one anesthesia
  // service, whatever its minutes), so the line is one unit (45 minutes were 45 units against an MUE of 1).
  const minutes = el(seg, 3).trim().toUpperCase() === 'MJ';
  line.units = unitsOf(claim, index, seg, 4);
  if (minutes && line.units !== undefined) {
    line.units = 1;
  }
  const pos = el(seg, 5).trim();
  line.placeOfService = pos === '' ? undefined : pos;
  const pointers = el(seg, 7);
  if (pointers !== '') {
    const list = pointersOf(pointers, separatorOf(pointers, seg.delimiters.component));
    if (list === undefined) {
      lineProblem(claim, index, seg, `SV107 diagnosis pointers '${pointers.trim()}' are not positive integers`);
    } else {
      line.pointers = list.length > 0 ? list : undefined;
    }
  }
}

function readSv2(claim: ClaimDraft, seg: X12Segment): void {
  const index = serviceLine(claim, seg);
  const line = claim.lines[index] as LineDraft;
  const revenue = el(seg, 1).trim();
  if (revenue === '') {
    lineProblem(claim, index, seg, 'SV201 revenue code is empty');
  }
  line.revenueCode = revenue === '' ? undefined : revenue;
  // SV202-1 says what the code is: HC a HCPCS/CPT code; HP a HIPPS rate code (SNF, home health and IRF claims
  // carry one on revenue codes 0022-0024), ER, IV or WK others: no procedure code to check, a revenue-only line.
  const sv202 = el(seg, 2);
  const qualifier = componentAt(sv202, separatorOf(sv202, seg.delimiters.component), 0).trim().toUpperCase();
  if (sv202.trim() !== '' && (qualifier === 'HC' || qualifier === '')) {
    readProcedure(claim, index, seg, 2);
  }
  line.units = unitsOf(claim, index, seg, 5);
}

function lineProblem(claim: ClaimDraft, index: number, seg: X12Segment, reason: string): void {
  claim.problems.push({ segNo: seg.segNo, reason, line: index });
}

/** A procedure composite `HC:code:mod1:…:mod4` (any qualifier) at element `at` of an SV1/SV2. */
function readProcedure(claim: ClaimDraft, index: number, seg: X12Segment, at: number): void {
  const line = claim.lines[index] as LineDraft;
  const value = el(seg, at);
  const sep = separatorOf(value, seg.delimiters.component);
  const code = componentAt(value, sep, 1).trim();
  if (code === '') {
    lineProblem(claim, index, seg, `${seg.id}${pad2(at)} has no procedure code (composite '${value.trim()}')`);
    return;
  }
  line.procedureCode = code;
  const first = sep === '' ? -1 : value.indexOf(sep);
  const second = first < 0 ? -1 : value.indexOf(sep, first + 1);
  if (second < 0) {
    return;
  }
  const parts = value.slice(second + 1).split(sep);
  for (let i = 0; i < 4 && i < parts.length; i++) {
    const mod = (parts[i] as string).trim().toUpperCase();
    if (mod !== '') {
      line.modifiers.push(mod);
    }
  }
}

/** SV107 pointers (`1:2:3`) read digit by digit; undefined when one is not a positive integer. */
function pointersOf(value: string, sep: string): number[] | undefined {
  const list: number[] = [];
  const sepCode = sep === '' ? -1 : sep.charCodeAt(0);
  let n = 0;
  let digits = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : sepCode;
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      digits++;
    } else if (c === sepCode || i === value.length) {
      if (digits > 0) {
        if (n < 1) {
          return undefined;
        }
        list.push(n);
      }
      n = 0;
      digits = 0;
    } else if (c !== 32) {
      return undefined;
    }
  }
  return list;
}

function unitsOf(claim: ClaimDraft, index: number, seg: X12Segment, at: number): number | undefined {
  const t = el(seg, at).trim();
  if (t === '') {
    lineProblem(claim, index, seg, `${seg.id}${pad2(at)} units are missing`);
    return undefined;
  }
  if (!isDecimal(t, true) || t.length > MAX_UNITS_CHARS) {
    lineProblem(claim, index, seg, `${seg.id}${pad2(at)} units '${t.slice(0, MAX_UNITS_CHARS + 1)}' are not a number of at most ${MAX_UNITS_CHARS} characters`);
    return undefined;
  }
  return Number(t);
}

// ---- small helpers -------------------------------------------------------------------------------------------

function el(seg: X12Segment, i: number): string {
  return seg.element(i);
}

function pad2(i: number): string {
  return i < 10 ? `0${i}` : String(i);
}

/**
 * The component separator a composite uses: the declared one (ISA16); when that is absent and exactly one of `:`,
 * `>` and `^` appears, that one (senders that ignore their own ISA16: `SV1*HC>99213` under ISA16 `:`); else `''`.
 */
export function separatorOf(value: string, declared: string): string {
  if (value.includes(declared)) {
    return declared;
  }
  let found = '';
  for (const sep of FALLBACK_COMPONENT_SEPARATORS) {
    if (sep !== declared && value.includes(sep)) {
      if (found !== '') {
        return '';
      }
      found = sep;
    }
  }
  return found;
}

/** Component `index` (0-based) of a composite, `''` when absent; with no separator the value is component 0. */
export function componentAt(value: string, sep: string, index: number): string {
  if (sep === '') {
    return index === 0 ? value : '';
  }
  let start = 0;
  for (let k = 0; k < index; k++) {
    const next = value.indexOf(sep, start);
    if (next < 0) {
      return '';
    }
    start = next + 1;
  }
  const end = value.indexOf(sep, start);
  return end < 0 ? value.slice(start) : value.slice(start, end);
}

/** CCYYMMDD (at `at` in `text`) to `YYYY-MM-DD` when it is a real calendar date. */
function isoOfD8(text: string, at = 0): string | undefined {
  if (text.length < at + 8) {
    return undefined;
  }
  let y = 0;
  let m = 0;
  let d = 0;
  for (let i = 0; i < 8; i++) {
    const c = text.charCodeAt(at + i) - 48;
    if (c < 0 || c > 9) {
      return undefined;
    }
    if (i < 4) {
      y = y * 10 + c;
    } else if (i < 6) {
      m = m * 10 + c;
    } else {
      d = d * 10 + c;
    }
  }
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
    return undefined;
  }
  return text.slice(at, at + 4) + '-' + text.slice(at + 4, at + 6) + '-' + text.slice(at + 6, at + 8);
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) {
    return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  }
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

export interface DateRange {
  readonly from: string;
  readonly to: string | undefined;
}

/** The last date value read and its range: a claim's lines, and the claims of a file, repeat their dates. */
let lastDates: { readonly value: string; readonly range: DateRange } = { value: '', range: { from: '', to: undefined } };

/** A D8 date or RD8 range, by the value's shape (the qualifier is often wrong); a string says what is wrong. */
export function rangeOf(format: string, value: string): DateRange | string {
  if (value === lastDates.value && value !== '') {
    return lastDates.range;
  }
  const range = readRange(format, value);
  if (typeof range !== 'string') {
    lastDates = { value, range };
  }
  return range;
}

function readRange(format: string, value: string): DateRange | string {
  if (value === '') {
    return 'the date is empty';
  }
  if (value.length === 8) {
    const from = isoOfD8(value);
    return from === undefined
      ? `date '${value}' is not a valid ${format || 'D8'} (CCYYMMDD) date`
      : { from, to: undefined };
  }
  const from = value.length === 17 && value.charCodeAt(8) === 45 /* - */ ? isoOfD8(value) : undefined;
  const to = from === undefined ? undefined : isoOfD8(value, 9);
  if (from === undefined || to === undefined) {
    return `date range '${value}' is not a valid RD8 (CCYYMMDD-CCYYMMDD) range`;
  }
  if (to < from) {
    return `date range '${value}' ends before it starts`;
  }
  return { from, to: to === from ? undefined : to };
}

function addressOf(seg: X12Segment): Address {
  return { state: el(seg, 2).trim(), zip: el(seg, 3).trim(), country: el(seg, 4).trim() };
}

function setName(person: Person, seg: X12Segment): void {
  person.last = utf8OfLatin1(el(seg, 3).trim());
  person.first = utf8OfLatin1(el(seg, 4).trim());
  const id = el(seg, 9).trim();
  if (id !== '') {
    person.memberId = utf8OfLatin1(id);
  }
}

function newPerson(): Person {
  return { memberId: '', last: '', first: '', demographics: undefined, address: undefined };
}

function newLine(lxSegNo: number | undefined, lineNumber: number | undefined): LineDraft {
  return {
    lxSegNo,
    lineNumber,
    svSegNo: undefined,
    kind: undefined,
    procedureCode: undefined,
    modifiers: [],
    units: undefined,
    placeOfService: undefined,
    pointers: undefined,
    revenueCode: undefined,
    dateFrom: undefined,
    dateTo: undefined,
  };
}

function emptyHierarchy(): Hierarchy {
  return { level: '', entity: '', billing: undefined, taxonomy: '', payer: '', subscriber: undefined, patient: undefined };
}

/** The claim form an implementation guide names: 005010X222A1 professional, 005010X223A2 institutional. */
/**
 * Whether a billing provider taxonomy (NUCC) is a DME supplier's: Durable Medical Equipment & Medical Supplies (332B…,
 * its specialisations included) or Prosthetic/Orthotic Supplier (335E00000X).
 */
function isDmeSupplierTaxonomy(taxonomy: string): boolean {
  return /^332B[0-9A-Z]{5}X$/.test(taxonomy) || taxonomy === '335E00000X';
}

function claimTypeOf(version: string): 'professional' | 'institutional' | undefined {
  if (version.includes('X222')) {
    return 'professional';
  }
  if (version.includes('X223')) {
    return 'institutional';
  }
  return undefined;
}

/**
 * Reads the claims of an X12 837P/837I file, in file order: each claim in the claim model (schema-checked), or
 * rejected whole with one record per service line; envelope faults (SE/GE/IEA counts, truncation) as rejected items
 * of their own. Streams: memory holds one chunk and one claim.
 *
 * How the 837 maps onto the model:
 * - claim type from ST03 (else GS08): X222 professional / Physician, X223 institutional / Facility; with neither,
 *   the claim's SV1 or SV2 lines decide.
 * - diagnoses: HI ABK/BK (principal, first) then ABF/BF in order; SV107 pointers count the same order. ABJ/BJ
 *   admitting, APR/PR reason-for-visit and ABN/BN external-cause codes are not diagnoses here (they are never
 *   pointer targets). POA (HI component 9) is kept on 837I claims only.
 * - 837I ICD-10-PCS procedures: HI BBR/BBQ become lines numbered after the highest LX number, principal first,
 *   units 1, dated by their D8 component when given (the CSV contract's one row per procedure). ICD-9-CM BR/BQ are
 *   left out (see procedureKind).
 * - composites: split on ISA16; when it is absent and exactly one of `:` `>` `^` appears, on that one.
 * - patient: the 2000C patient when there is one (id `memberId/` + 12 hex of a SHA-256 of the name: no name is
 *   kept), else the subscriber (id = member id);
 *   birth date and sex from that person's DMG.
 * - provider address: 837P the 2310C service facility, else the 2010AA billing provider; 837I the billing
 *   provider (domain.md §12); a foreign address (N4-04 not US) gives none.
 * - place of service: SV105, else CLM05-1 on 837P; none on 837I, where CLM05-1 and CLM05-3 are the type of bill
 *   (`billType`).
 * - dates: the claim's DTP*434 (else 472) range, else the span of its line dates; a line without DTP*472 has none.
 * - an 837I line with a revenue code and no HCPCS (SV202) counts in `inputLines` but is not a model line.
 * @param source - the file's bytes (ASCII or UTF-8, BOM accepted)
 * @param file - the file name, for provenance
 * @throws ScrubberError INPUT_FORMAT when the input is UTF-16, binary, or does not open with an ISA
 */
export async function* readX12Claims(source: AsyncIterable<Buffer>, file: string): AsyncGenerator<ReadItem> {
  for await (const batch of readX12ClaimBatches(source, file)) {
    yield* batch;
  }
}

/**
 * {@link readX12Claims} a chunk at a time: the items each chunk of the file finishes, in file order (never an empty
 * batch). A file's claims cost one step of the async iteration per chunk instead of one per claim.
 * @param source - the file's bytes (ASCII or UTF-8, BOM accepted)
 * @param file - the file name, for provenance
 * @throws ScrubberError INPUT_FORMAT when the input is UTF-16, binary, or does not open with an ISA
 */
export function readX12ClaimBatches(source: AsyncIterable<Buffer>, file: string): AsyncGenerator<ReadItem[]> {
  const assembler = new X12ClaimAssembler(file);
  return readX12Batches<ReadItem>(
    source,
    file,
    (segment, out) => assembler.push(segment, out),
    (out, tokenizer, cut) => assembler.end(out, tokenizer.unterminated, cut),
  );
}
