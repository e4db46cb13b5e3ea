// Facts about the reference database as a whole that its build side and its read side must agree on. The builder
// writes them into the `meta` table; openReference refuses a database whose values differ.

/** Bumped when a table's shape changes; stored in `meta` and shown by `status`. */
export const SCHEMA_VERSION = 1;
