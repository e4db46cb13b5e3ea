// Clinical abbreviations and synonyms a coder types (issue 13 §1): each word a search may contain, the phrases it
// stands for in the code sets' own wording, and where the meaning comes from. Reviewed list: an entry is added only
// with a source; the phrases are written as ICD-10-CM/PCS titles word them ("lower limb", not "lower extremity").
//
// Sources (public pages read 2026-11-25):
// - GLASS: glassboxmedicine.com/2018/10/20/introduction-to-medical-abbreviations (fx, COPD, MI, CHF, UTI, GERD,
//   CAD, ESRD, BPH, TIA, OSA, URI, PE, OA)
// - PMR: healthunlocked.com/pmrgcauk/posts/151898710/abbreviations (AF/Afib, CKD, CVA "a stroke", DM, DM1, DM2, DVT)
// - HTN: consensus.app/questions/hypertension-abbreviation ("hypertension, often abbreviated as HTN")
// - LIMB: waasps.com/what-does-rle-mean-in-medical-terms (RLE, LLE) and welly.it.com/does-lue-mean-left-upper-extremity
//   (LUE, RUE); ICD-10-CM titles say "lower limb" / "upper limb" (e.g. L03.116 "Cellulitis of left lower limb")
// - PCS: the ICD-10-PCS approach value 4 "Percutaneous Endoscopic" is the approach of laparoscopic procedures
//   (ICD-10-PCS Reference Manual, approach character; not re-read offline: confirm on the next manual update)
// - EZMED: ezmedlearning.com/blog/common-medical-abbreviations-list (SOB "shortness of breath")
// - LITFL: litfl.com/library/glossary-of-terms (AKI "acute kidney injury")
// - ELSEVIER: "Appendix 1 Medical abbreviations" (elsevier-elibrary.com), "AD(H)D attention deficit (hyperactivity)
//   disorder"; written as the ICD-10-CM title words it ("Attention-deficit hyperactivity disorder")
// - CMS: the code sets themselves (CMS short descriptions write "fx" for fracture, e.g. S72.001A "Fx unsp part of
//   neck of right femur, init"; the Index main term "Hypertension, hypertensive" pairs the two forms; the Index main
//   term "Cancer" says "see also Neoplasm, by site, malignant")

/** One synonym entry: the word typed, the phrases it stands for, and the source of the meaning. */
export interface Synonym {
  readonly term: string;
  readonly phrases: readonly string[];
  readonly source: 'GLASS' | 'PMR' | 'HTN' | 'LIMB' | 'PCS' | 'CMS' | 'EZMED' | 'LITFL' | 'ELSEVIER';
}

/** The reviewed list. The term itself is always searched too (an abbreviation can stand in a title: "GERD"). */
export const SYNONYMS: readonly Synonym[] = [
  { term: 'fx', phrases: ['fracture'], source: 'GLASS' },
  { term: 'htn', phrases: ['hypertension', 'hypertensive'], source: 'HTN' },
  { term: 'hypertensive', phrases: ['hypertension'], source: 'CMS' },
  { term: 'diabetic', phrases: ['diabetes'], source: 'CMS' },
  { term: 'dm', phrases: ['diabetes mellitus'], source: 'PMR' },
  { term: 'dm1', phrases: ['type 1 diabetes'], source: 'PMR' },
  { term: 'dm2', phrases: ['type 2 diabetes'], source: 'PMR' },
  { term: 'dmii', phrases: ['type 2 diabetes'], source: 'PMR' },
  { term: 't2dm', phrases: ['type 2 diabetes'], source: 'PMR' },
  { term: 'copd', phrases: ['chronic obstructive pulmonary disease'], source: 'GLASS' },
  { term: 'chf', phrases: ['congestive heart failure', 'heart failure'], source: 'GLASS' },
  { term: 'mi', phrases: ['myocardial infarction'], source: 'GLASS' },
  { term: 'ami', phrases: ['acute myocardial infarction'], source: 'GLASS' },
  // I21.4's own title: "Non-ST elevation (NSTEMI) myocardial infarction" (the acronym stands mid-title).
  { term: 'nstemi', phrases: ['non-st elevation myocardial infarction'], source: 'CMS' },
  { term: 'uti', phrases: ['urinary tract infection'], source: 'GLASS' },
  { term: 'uri', phrases: ['upper respiratory infection'], source: 'GLASS' },
  { term: 'cva', phrases: ['cerebrovascular accident', 'stroke', 'cerebral infarction'], source: 'PMR' },
  { term: 'ckd', phrases: ['chronic kidney disease'], source: 'PMR' },
  { term: 'esrd', phrases: ['end stage renal disease'], source: 'GLASS' },
  { term: 'afib', phrases: ['atrial fibrillation'], source: 'PMR' },
  { term: 'af', phrases: ['atrial fibrillation'], source: 'PMR' },
  { term: 'gerd', phrases: ['gastroesophageal reflux'], source: 'GLASS' },
  { term: 'cad', phrases: ['coronary artery disease', 'atherosclerotic heart disease'], source: 'GLASS' },
  { term: 'bph', phrases: ['benign prostatic hyperplasia'], source: 'GLASS' },
  { term: 'tia', phrases: ['transient cerebral ischemic attack', 'transient ischemic attack'], source: 'GLASS' },
  { term: 'osa', phrases: ['obstructive sleep apnea'], source: 'GLASS' },
  { term: 'pe', phrases: ['pulmonary embolism'], source: 'GLASS' },
  { term: 'oa', phrases: ['osteoarthritis'], source: 'GLASS' },
  { term: 'dvt', phrases: ['deep vein thrombosis', 'thrombosis deep vein'], source: 'PMR' },
  { term: 'lle', phrases: ['left lower limb', 'left leg'], source: 'LIMB' },
  { term: 'rle', phrases: ['right lower limb', 'right leg'], source: 'LIMB' },
  { term: 'lue', phrases: ['left upper limb', 'left arm'], source: 'LIMB' },
  { term: 'rue', phrases: ['right upper limb', 'right arm'], source: 'LIMB' },
  { term: 'cancer', phrases: ['malignant neoplasm'], source: 'CMS' },
  { term: 'sob', phrases: ['shortness of breath'], source: 'EZMED' },
  { term: 'aki', phrases: ['acute kidney injury'], source: 'LITFL' },
  { term: 'adhd', phrases: ['attention-deficit hyperactivity disorder'], source: 'ELSEVIER' },
  { term: 'laparoscopic', phrases: ['percutaneous endoscopic'], source: 'PCS' },
  { term: 'laparoscopy', phrases: ['percutaneous endoscopic'], source: 'PCS' },
];
