// Records keyed by what a caller sent (codes, cptIcdMapping keys): built as plain objects, where assigning the key
// `__proto__` would set the prototype instead of a member. (A prototype-less object would avoid that, but V8 keeps
// it as a slow dictionary.)

/** Sets `record[key]` as an own, enumerable member, whatever the key. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}
