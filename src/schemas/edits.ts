// Values of the claim-edit tables that the loaders write and the edit queries read back: the MUE and PTP settings
// (the `setting` columns) and the resolution codes of the lab NCD lists (domain.md sections 9-11).

/** The three MUE tables, as the `mue.setting` column names them. */
export const MueSetting = {
  practitioner: 'practitioner',
  outpatientHospital: 'outpatient-hospital',
  dme: 'dme',
} as const;
export type MueSetting = (typeof MueSetting)[keyof typeof MueSetting];

/** The dataset name each MUE table is loaded under (`mue-practitioner`, ...), as sources and findings name it. */
export const MUE_DATASET: Readonly<Record<MueSetting, string>> = {
  [MueSetting.practitioner]: `mue-${MueSetting.practitioner}`,
  [MueSetting.outpatientHospital]: `mue-${MueSetting.outpatientHospital}`,
  [MueSetting.dme]: `mue-${MueSetting.dme}`,
};

/** The two Medicare PTP tables, as the `ncci_ptp.setting` column names them (domain.md: Facility → hospital). */
export const PtpSetting = { practitioner: 'practitioner', hospital: 'hospital' } as const;
export type PtpSetting = (typeof PtpSetting)[keyof typeof PtpSetting];

/** The ICD-10 "code" that stands for every code an NCD does not list. */
export const NCD_ALL_OTHER_CODES = '@@@@@@@';

/** Resolution codes of the lab NCD lists, as the spreadsheet's legend defines them. */
export const NcdResolution = {
  1: 'covered',
  2: 'denied',
  3: 'does-not-support-medical-necessity',
} as const;
export type NcdResolutionCode = keyof typeof NcdResolution;
