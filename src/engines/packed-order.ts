// Ordering many small integers (version numbers, positions) by a numeric key with one native sort: each value is
// packed with its key into one double (key × scale + value), so the sort needs no comparator and ties go to the
// smaller value. Keys must be non-negative integers and key × scale must stay below 2^53. When only the first few
// are wanted (a search's page out of thousands of codes), they are selected with a bounded heap instead of sorting
// every value: the same answer in O(n log limit).

/**
 * `values` ordered by `keyOf(value)`, then by value.
 * @param values - non-negative integers below `bound`
 * @param limit - only the first `limit` are returned
 */
export function orderByKey(values: readonly number[], keyOf: (value: number) => number, bound: number, limit = values.length): number[] {
  const scale = 2 ** Math.ceil(Math.log2(bound + 1));
  const n = values.length;
  const take = Math.max(0, Math.min(limit, n));
  if (take * 8 < n) {
    return unpacked(smallest(values, keyOf, scale, take), take, scale);
  }
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    packed[i] = keyOf(v) * scale + v;
  }
  packed.sort();
  return unpacked(packed, take, scale);
}

/** The values of the first `take` packed keys (loops: Array.from reads a typed array through its iterator). */
function unpacked(packed: Float64Array, take: number, scale: number): number[] {
  const out = new Array<number>(take);
  for (let i = 0; i < take; i++) {
    out[i] = (packed[i] as number) % scale;
  }
  return out;
}

/** The `take` smallest packed keys in order, through a max-heap of `take` (the largest kept at the root). */
function smallest(values: readonly number[], keyOf: (value: number) => number, scale: number, take: number): Float64Array {
  const heap = new Float64Array(take);
  if (take === 0) {
    return heap;
  }
  let size = 0;
  for (const v of values) {
    const k = keyOf(v) * scale + v;
    if (size < take) {
      // Sift up.
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((heap[parent] as number) >= k) {
          break;
        }
        heap[i] = heap[parent] as number;
        i = parent;
      }
      heap[i] = k;
    } else if (k < (heap[0] as number)) {
      // Replace the root and sift down.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= take) {
          break;
        }
        const right = left + 1;
        const child = right < take && (heap[right] as number) > (heap[left] as number) ? right : left;
        if ((heap[child] as number) <= k) {
          break;
        }
        heap[i] = heap[child] as number;
        i = child;
      }
      heap[i] = k;
    }
  }
  return heap.sort();
}
