// Text written as UTF-8 into a buffer that grows, piece by piece, for output made of many small strings (an HTTP
// reply's JSON, a scrub chunk's report rows). Concatenating the pieces first makes a string per piece, then a flat
// copy of the whole (two bytes a character for all of it when one piece holds a character past Latin-1), then an
// encoded copy; here each piece is encoded once, where it lands.

/** Strings longer than this are encoded by Buffer#write (a native call costs more than a short loop). */
const NATIVE_FROM = 32;

/** The buffer of a sink that handed its bytes over (a new one is made on the next write). */
const EMPTY = Buffer.alloc(0);

/** A growing buffer of UTF-8 text. */
export class Utf8Sink {
  protected buf: Buffer;
  protected pos = 0;

  /** @param initialBytes - the first buffer's size (it doubles as needed) */
  constructor(private readonly initialBytes = 16 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(initialBytes);
  }

  /** Appends text as UTF-8. */
  text(s: string): void {
    const n = s.length;
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    if (this.pos + n * 3 > this.buf.length) {
      this.grow(n * 3);
    }
    if (n > NATIVE_FROM) {
      this.pos += this.buf.write(s, this.pos, 'utf8');
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos += buf.write(s, this.pos, 'utf8');
        return;
      }
      buf[pos++] = c;
    }
    this.pos = pos;
  }

  /** Appends bytes written before (a fragment). */
  bytes(b: Uint8Array): void {
    if (this.pos + b.length > this.buf.length) {
      this.grow(b.length);
    }
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Appends one ASCII byte. */
  byte(c: number): void {
    if (this.pos === this.buf.length) {
      this.grow(1);
    }
    this.buf[this.pos++] = c;
  }

  /** Where the next byte goes (a fragment's start); also the bytes written so far. */
  get mark(): number {
    return this.pos;
  }

  get empty(): boolean {
    return this.pos === 0;
  }

  /**
   * A copy of the bytes written since a mark, in memory of its own: a fragment is kept as long as its value, and a
   * slice of Buffer's shared pool would keep the whole pool slab alive.
   */
  since(mark: number): Buffer {
    const out = Buffer.allocUnsafeSlow(this.pos - mark);
    this.buf.copy(out, 0, mark, this.pos);
    return out;
  }

  /**
   * The bytes written, without a copy: a view of the buffer, which is the caller's from now on (its ArrayBuffer holds
   * nothing else, so it can be transferred to another thread whole); the sink goes on in a new buffer, made when
   * next written to.
   */
  handOver(): Uint8Array {
    // A sink that holds no buffer of its own (handed over, nothing written since) hands over an empty one of its own.
    const out = this.buf === EMPTY ? new Uint8Array(0) : new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.pos);
    this.buf = EMPTY;
    this.pos = 0;
    return out;
  }

  protected grow(need: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + need, this.initialBytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
}
