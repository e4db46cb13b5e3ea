// Items grouped by a key, each group in input order: the in-memory copies read once from a query (conversion links
// by current code, MCE members by list). The map is new, so a caller assigns it only once it is complete.

/**
 * Groups items by key.
 * @param items - the items, in the order each group keeps
 * @param keyOf - the key of an item
 */
export function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) {
      group.push(item);
    } else {
      groups.set(key, [item]);
    }
  }
  return groups;
}
