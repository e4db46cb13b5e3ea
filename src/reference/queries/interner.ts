// Keeps one copy of each repeated string read from the database: better-sqlite3 makes a new string per value, and the
// in-memory tables hold hundreds of thousands of values drawn from a few thousand (dates, targets, flags, releases).

/** A function that returns the first string it was given equal to its argument. */
export function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) {
      return known;
    }
    seen.set(text, text);
    return text;
  };
}
