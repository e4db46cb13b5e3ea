// What a 277CA repeats from the 837 it answers (src/readers/claims/x12-ack.ts reads it, src/reports/ack-277ca.ts
// writes it): the types between the two.

/** The delimiters an ISA declares (the 837 reader splits by them; a 277CA answering the 837 is written with them). */
export interface X12Delimiters {
  /** Element separator: the byte after `ISA`. */
  readonly element: string;
  /** Repetition separator (ISA11), when it is a punctuation character (5010); absent for 4010's `U`. */
  readonly repetition: string | undefined;
  /** Component (sub-element) separator: ISA16. */
  readonly component: string;
  /** Segment terminator: the character after ISA16. */
  readonly segment: string;
}

/** A party of an 837 (NM1): an organisation (`2`) or a person (`1`), with its id and the id's qualifier. */
export interface X12Party {
  readonly entity: '1' | '2';
  /** NM103: the organisation's name or the person's last name. */
  readonly name: string;
  /** NM104, a person's first name. */
  readonly firstName?: string | undefined;
  /** NM108 (`XX` NPI, `46` ETIN, `MI` member id), or `FI` for a billing provider named by its REF*EI tax id. */
  readonly qualifier: string;
  readonly id: string;
}

/** The first interchange's envelope and header parties: whom the 837 came from and whom it was sent to. */
export interface X12AckEnvelope {
  /** ISA05/ISA06: the interchange sender. */
  readonly senderQualifier: string;
  readonly senderId: string;
  /** ISA07/ISA08: the interchange receiver. */
  readonly receiverQualifier: string;
  readonly receiverId: string;
  /** GS02/GS03: application sender and receiver codes (empty when the file has no GS). */
  readonly applicationSender: string;
  readonly applicationReceiver: string;
  /** BHT03 of the first transaction: the submitter's batch id, which a 277CA returns in 2200B TRN02. */
  readonly batchId?: string | undefined;
  /** 1000A NM1*41, the submitter. */
  readonly submitter?: X12Party | undefined;
  /** 1000B NM1*40, the receiver. */
  readonly receiver?: X12Party | undefined;
  /** Who sent it: ISA06 and the 1000A submitter's id (see X12AckClaim.sender). */
  readonly sender: string;
  /** The first ISA's delimiters. */
  readonly delimiters?: X12Delimiters | undefined;
}

/**
 * What an acknowledgement repeats of a claim from the 837 itself (the reports hold none of it): the 277CA's 2100C,
 * 2100D, STC04, REF*D9, REF*BLT and DTP*472.
 */
export interface X12ClaimRepeats {
  /** CLM02, the total charge (STC04), when it is a plain decimal amount. */
  readonly totalCharge?: number | undefined;
  /**
   * `CCYYMMDD` or `CCYYMMDD-CCYYMMDD` (DTP*472): the 837I statement period (DTP*434), else the first to the last
   * service date of the claim and its lines (DTP*472); absent when no date reads.
   */
  readonly serviceDate?: string | undefined;
  /** An institutional claim's bill type (CLM05-1 facility type and CLM05-3 frequency, `131`), for REF*BLT. */
  readonly billType?: string | undefined;
  /** The clearinghouse trace number of the claim (2300 REF*D9), for REF*D9. */
  readonly clearinghouseTrace?: string | undefined;
  /** 2010AA NM1*85 of the 2000A loop the claim sits in (2100C NM1*85, NPI `XX` or tax id `FI`). */
  readonly billingProvider?: X12Party | undefined;
  /**
   * 2010CA NM1*QC when the patient is not the subscriber, else 2010BA NM1*IL; the id is the subscriber's (2100D
   * NM1*QC with `MI`).
   */
  readonly patient?: X12Party | undefined;
}

/** One 2300 claim as its acknowledgement repeats it. */
export interface X12AckClaim extends X12ClaimRepeats {
  /** The CLM segment's number in the file (claims.csv's `line` for an 837 claim). */
  readonly segNo: number;
  /** CLM01 as the claim reader reads it (trimmed; `''` when empty). */
  readonly claimId: string;
  /**
   * Who sent the claim: its interchange's ISA06 and its transaction's 1000A submitter id. A 277CA answers the sender
   * of the file's first claims (X12AckEnvelope.sender) and repeats only their claims' data: another sender's patients
   * are not theirs to read.
   */
  readonly sender: string;
}

export type X12AckItem =
  | { readonly kind: 'envelope'; readonly envelope: X12AckEnvelope }
  | { readonly kind: 'claim'; readonly claim: X12AckClaim };
