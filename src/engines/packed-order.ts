// Ordering many small integers (version numbers, positions) by a numeric key with one native sort: each value is
// packed with its key into one double (key × scale + value), so the sort needs no comparator and ties go to the
// smaller value. Keys must be non-negative integers and key × scale must stay below 2^53.

/**
 * `values` ordered by `keyOf(value)`, then by value.
 * @param values - non-negative integers below `bound`
 * @param limit - only the first `limit` are returned
 */
export function orderByKey(values: readonly number[], keyOf: (value: number) => number, bound: number, limit = values.length): number[] {
  const scale = 2 ** Math.ceil(Math.log2(bound + 1));
  const packed = Float64Array.from(values, (v) => keyOf(v) * scale + v);
  packed.sort();
  return Array.from(packed.subarray(0, limit), (k) => k % scale);
}
