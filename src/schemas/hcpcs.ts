// One record of the CMS HCPCS Level II contractor file (HCPCS2019_recordlayout.txt), field by field: the shape the
// HCPCS loader parses and stores in `hcpcs_code`, and the procedure queries read back.

/** One 320-column record. Continuation records (RIC 4 and 8) carry only code, sequence and description text. */
export interface HcpcsRecord {
  /** RIC: 3 procedure, 4 procedure continuation, 7 modifier, 8 modifier continuation. */
  readonly recordId: '3' | '4' | '7' | '8';
  /** The procedure code (RIC 3/4) or the two-character modifier (RIC 7/8). */
  readonly code: string;
  readonly sequence: number;
  readonly longDescription: string;
  readonly shortDescription: string;
  readonly pricingIndicators: string[];
  readonly multiplePricingIndicator: string | null;
  readonly cimReferences: string[];
  readonly mcmReferences: string[];
  readonly statute: string | null;
  readonly labCertifications: string[];
  readonly crossReferences: string[];
  /** C carrier judgment, D special coverage instructions, I not payable, M non-covered, S non-covered by statute. */
  readonly coverage: string | null;
  readonly ascGroup: string | null;
  readonly ascEffectiveDate: string | null;
  readonly mogGroup: string | null;
  readonly mogPolicyIndicator: string | null;
  readonly mogEffectiveDate: string | null;
  readonly processingNote: string | null;
  readonly betos: string | null;
  readonly typesOfService: string[];
  readonly anesthesiaBaseUnits: number | null;
  readonly addedDate: string | null;
  readonly actionEffectiveDate: string | null;
  readonly terminationDate: string | null;
  readonly actionCode: string | null;
}
