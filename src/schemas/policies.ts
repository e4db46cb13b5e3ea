// Row values of the policy tables that their loaders write and the policy queries read back.

/** Code types of MCE list members: `D` ICD-10-CM diagnosis, `P` ICD-10-PCS procedure, `S` UB-04 discharge status. */
export type MceCodeType = 'D' | 'P' | 'S';
