// The General Equivalence Mapping datasets, as the GEM loader stores them and the mapping queries read them
// (GemsTechDoc_2018.pdf; domain.md section 5).

/** GEM datasets, as stored in `gem.dataset` and `source.dataset`. */
export const GemDataset = {
  dxBackward: 'gems-dx-i10-i9',
  dxForward: 'gems-dx-i9-i10',
  pcsBackward: 'gems-pcs-i10-i9',
  pcsForward: 'gems-pcs-i9-i10',
} as const;
export type GemDataset = (typeof GemDataset)[keyof typeof GemDataset];
