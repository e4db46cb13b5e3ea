// The ProprietaryMap confidence scale (operations.md "ProprietaryMap"): 100 for an exact, two-way, single-target GEM
// pair, less for each thing that makes the pair a weaker answer. The README's table is this const.

/** Weights of `confidenceLvl`. Start at `start`, add each applicable weight; the result stays within 10–100. */
export const CONFIDENCE = {
  /** An exact, bidirectional, sole target of a code that is itself in the FY2018 GEM. */
  start: 100,
  /** The GEM marks the pair approximate (flag digit 1). */
  approximate: -20,
  /** The opposite GEM does not map the target back to the source (no bidirectional agreement). */
  notBidirectional: -15,
  /** Each other target the coder must choose between (same scenario and choice list, other non-combination targets, other scenarios). */
  perAlternative: -5,
  /** Alternatives counted at most this many times. */
  maxAlternatives: 4,
  /** Each conversion-table link followed to reach a GEM code (a code newer than the FY2018 GEMs). */
  perHop: -15,
  /** Hops counted at most this many times. */
  maxHops: 2,
  /** The conversion-table bridge reached several GEM source codes (a range, a header, or several previous codes). */
  fanOut: -5,
} as const;

/** What the confidence of one proprietary map row is computed from. */
export interface ConfidenceFactors {
  readonly approximate: boolean;
  readonly bidirectional: boolean;
  /** Other targets competing with this one. */
  readonly alternatives: number;
  /** Conversion-table links followed (0 when the source code is in the GEM). */
  readonly hops: number;
  readonly fanOut: boolean;
}

/**
 * The `confidenceLvl` of one row.
 * @param f - the row's factors
 * @returns an integer in 10–100
 */
export function confidenceOf(f: ConfidenceFactors): number {
  let level = CONFIDENCE.start;
  level += f.approximate ? CONFIDENCE.approximate : 0;
  level += f.bidirectional ? 0 : CONFIDENCE.notBidirectional;
  level += CONFIDENCE.perAlternative * Math.min(Math.max(f.alternatives, 0), CONFIDENCE.maxAlternatives);
  level += CONFIDENCE.perHop * Math.min(Math.max(f.hops, 0), CONFIDENCE.maxHops);
  level += f.fanOut ? CONFIDENCE.fanOut : 0;
  return level;
}
