// A read-only index from code strings to positions (0..n-1), for the in-memory code and GEM tables. It exists for
// speed: a Map<string, number> probe with a string the engine has just built (a normalised input) cost 350-700 ns
// on the 98,000-code ICD-10-CM table, most of it cache misses on the Map's entries and on the stored key strings it
// compares with. Every code of every loaded system is at most 7 characters of [0-9A-Z], so a code becomes a number
// (base 37, 0 for "no character") computed from the input's characters alone, and a probe into an open-addressing
// table of those numbers (two typed arrays) touches no other string: ~120-180 ns.
//
//   "S72001A" ─► codeKey ─► 9.4e10 ─► hash ─► slot ─► keys[slot] === key ? positions[slot] : next slot
//
// A code that does not fit the encoding (none in the CMS files today) is kept in a small Map instead, so the index
// answers exactly as a Map would for any string.

/** Most characters a code may have to be encoded (37^7 < 2^53, so the key is an exact double). */
const MAX_LENGTH = 7;

/**
 * The code as a number: each of 7 positions a digit of base 37 (0 = past the end, 1-10 = `0`-`9`, 11-36 = `A`-`Z`),
 * so numeric order is code order; -1 when the string is empty, longer than 7 or has another character.
 */
export function codeKey(code: string): number {
  const n = code.length;
  if (n === 0 || n > MAX_LENGTH) {
    return -1;
  }
  let key = 0;
  for (let i = 0; i < MAX_LENGTH; i++) {
    let digit = 0;
    if (i < n) {
      const c = code.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        digit = c - 47;
      } else if (c >= 65 && c <= 90) {
        digit = c - 54;
      } else {
        return -1;
      }
    }
    key = key * 37 + digit;
  }
  return key;
}

/** Positions of a list of distinct codes. */
export interface CodeIndex {
  /** Slot keys (-1 = empty); the length is a power of two at least twice the number of codes. */
  readonly keys: Float64Array;
  /** Position of the code whose key is in the same slot. */
  readonly positions: Int32Array;
  /** Codes the encoding cannot hold, by position. */
  readonly others: ReadonlyMap<string, number> | undefined;
}

/** Slot of a key: both halves of the double mixed, the top bits taken (`bits` = log2 of the slot count). */
function slotOf(key: number, bits: number): number {
  const low = key >>> 0; // ToUint32: the key modulo 2^32
  const high = (key / 4294967296) | 0;
  return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> (32 - bits);
}

/**
 * Indexes distinct codes by position.
 * @param codes - the codes; position i answers `codes[i]` (a repeated code answers its first position)
 */
export function codeIndex(codes: readonly string[]): CodeIndex {
  let bits = 4;
  while (1 << bits < codes.length * 2) {
    bits += 1;
  }
  const keys = new Float64Array(1 << bits).fill(-1);
  const positions = new Int32Array(1 << bits);
  const mask = (1 << bits) - 1;
  let others: Map<string, number> | undefined;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as string;
    const key = codeKey(code);
    if (key < 0) {
      others ??= new Map();
      if (!others.has(code)) {
        others.set(code, i);
      }
      continue;
    }
    let slot = slotOf(key, bits);
    while (keys[slot] !== -1 && keys[slot] !== key) {
      slot = (slot + 1) & mask;
    }
    if (keys[slot] === -1) {
      keys[slot] = key;
      positions[slot] = i;
    }
  }
  return { keys, positions, others };
}

/** Position of `code` in the indexed list, or -1 when it is not there. */
export function positionOf(index: CodeIndex, code: string): number {
  const key = codeKey(code);
  if (key < 0) {
    return index.others?.get(code) ?? -1;
  }
  const { keys, positions } = index;
  const mask = keys.length - 1;
  let slot = slotOf(key, 31 - Math.clz32(keys.length));
  for (;;) {
    const found = keys[slot] as number;
    if (found === key) {
      return positions[slot] as number;
    }
    if (found === -1) {
      return -1;
    }
    slot = (slot + 1) & mask;
  }
}
