// The JSON writer (wire.md §8), driven by the schema: members in declaration order (`responseStatus` last), null and
// undefined omitted, `0`/`false`/`""`/`[]` kept, compact, raw UTF-8; WCF dates as `"\/Date(ms+0000)\/"`.
import type { Shape } from './shape.js';
import { Utf8Sink } from '../../utf8-sink.js';
import { formatWcfDate } from './values.js';

const stringify = (v: unknown): string => JSON.stringify(v) ?? 'null';

// Characters JSON.stringify would escape (quote, backslash, controls, lone surrogates): strings without any are
// written as they are, which skips a JSON.stringify call per value (a tenth of a whole Hello call).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * The bytes of the reply being written: one buffer kept between replies, grown as needed (Utf8Sink: text built by
 * concatenation made a string per member, several times the reply's size in garbage per request, then a flat copy
 * and an encoded copy of it).
 */
class JsonSink extends Utf8Sink {
  /**
   * Appends a string value between quotes, escaped as JSON.stringify escapes it. Short strings are read once: copied
   * while no character needs an escape or more than one byte.
   */
  quoted(s: string): void {
    const n = s.length;
    if (n <= QUOTED_LOOP_MAX) {
      if (this.pos + n + 2 > this.buf.length) {
        this.grow(n + 2);
      }
      const buf = this.buf;
      let pos = this.pos;
      buf[pos++] = QUOTE;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c < 0x20 || c === QUOTE || c === BACKSLASH || c >= 0x80) {
          break;
        }
        buf[pos++] = c;
      }
      if (i === n) {
        buf[pos++] = QUOTE;
        this.pos = pos;
        return;
      }
    }
    this.text(NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
  }

  /** The bytes written, as a buffer of their own; the sink is emptied (a huge reply's buffer is let go). */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    if (this.buf.length > MAX_KEPT_BYTES) {
      this.buf = Buffer.allocUnsafeSlow(16 * 1024);
    }
    return out;
  }
}

/** Bytes of buffer kept between replies at most. */
const MAX_KEPT_BYTES = 1 << 20;
/**
 * String values up to this length are copied by a loop while no character needs an escape or more than one byte:
 * cheaper than testing the escape pattern, quoting by concatenation and a native write (messages, titles).
 */
const QUOTED_LOOP_MAX = 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

function writeScalar(value: unknown, out: JsonSink): void {
  if (typeof value === 'string') {
    out.quoted(value);
  } else if (typeof value === 'number') {
    out.text(Number.isFinite(value) ? String(value) : 'null');
  } else if (typeof value === 'boolean') {
    out.text(value ? 'true' : 'false');
  } else {
    out.text(stringify(value));
  }
}

/** A shape's JSON writer: made once per shape (see {@link writerOf}) and reused for every reply. */
type Writer = (value: unknown, out: JsonSink) => void;

const writers = new WeakMap<Shape, Writer>();

/**
 * The writer of a shape, made on first use: the shape's decisions (which members, their prefixes, their writers) are
 * taken once, not on every value. A shape that contains itself gets a writer that finds its own on each call.
 */
function writerOf(shape: Shape): Writer {
  let writer = writers.get(shape);
  if (writer === undefined) {
    writers.set(shape, (value, out) => {
      (writers.get(shape) as Writer)(value, out);
    });
    writer = compile(shape);
    writers.set(shape, writer);
  }
  return writer;
}

function compile(shape: Shape): Writer {
  switch (shape.kind) {
    case 'object': {
      const fields = shape.fields.map((f) => ({ name: f.name, key: f.jsonKey, write: writerOf(f.shape) }));
      // The bytes of deeply frozen values written before (the code engine's shared answers): they cannot change.
      const fragments = new WeakMap<object, Buffer | null>();
      const write: Writer = (value, out) => {
        if (value === null || value === undefined) {
          out.text('null');
        } else if (typeof value !== 'object' || Array.isArray(value)) {
          out.text(stringify(value));
        } else if (Object.isFrozen(value)) {
          const known = fragments.get(value);
          if (known) {
            out.bytes(known);
            return;
          }
          const mark = out.mark;
          writeMembers(value as Readonly<Record<string, unknown>>, out);
          if (known === undefined) {
            fragments.set(value, deeplyFrozen(value) ? out.since(mark) : null);
          }
        } else {
          writeMembers(value as Readonly<Record<string, unknown>>, out);
        }
      };
      const writeMembers = (obj: Readonly<Record<string, unknown>>, out: JsonSink): void => {
        out.byte(0x7b);
        let first = true;
        for (const f of fields) {
          const v = obj[f.name];
          if (v !== null && v !== undefined) {
            if (!first) {
              out.byte(COMMA);
            }
            first = false;
            out.text(f.key);
            f.write(v, out);
          }
        }
        out.byte(0x7d);
      };
      return write;
    }
    case 'array': {
      const item = shape.item;
      const write = writerOf(item);
      return (value, out) => {
        if (value === null || value === undefined) {
          out.text('null');
        } else if (!Array.isArray(value)) {
          out.text(stringify(value));
        } else {
          out.byte(0x5b);
          for (let i = 0; i < value.length; i++) {
            if (i > 0) {
              out.byte(COMMA);
            }
            write(value[i], out);
          }
          out.byte(0x5d);
        }
      };
    }
    case 'record': {
      const write = writerOf(shape.value);
      const strings = shape.value.kind === 'string';
      return (value, out) => {
        if (value === null || value === undefined) {
          out.text('null');
        } else if (typeof value !== 'object' || Array.isArray(value)) {
          out.text(stringify(value));
        } else {
          out.byte(0x7b);
          let first = true;
          // Keys, not entries: no [key, value] array per member. A string value (all of a string map's, such as
          // DocumentV2's mentions) goes straight to the sink: as fast as one JSON.stringify of the whole list, without
          // its intermediate string of the reply's size.
          const map = value as Record<string, unknown>;
          for (const k of Object.keys(map)) {
            const v = map[k];
            if (v !== null && v !== undefined) {
              if (!first) {
                out.byte(COMMA);
              }
              first = false;
              out.quoted(k);
              out.byte(COLON);
              if (strings && typeof v === 'string') {
                out.quoted(v);
              } else {
                write(v, out);
              }
            }
          }
          out.byte(0x7d);
        }
      };
    }
    case 'datetime': {
      const wcf = shape.wcf;
      // JSON.stringify never escapes '/', which WCF-style parsers need around Date(…).
      return (value, out) => {
        out.text(
          value === null || value === undefined
            ? 'null'
            : wcf && typeof value === 'string'
              ? stringify(formatWcfDate(value)).replace(/\//g, '\\/')
              : stringify(value),
        );
      };
    }
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'any':
      return (value, out) => {
        if (value === null || value === undefined) {
          out.text('null');
        } else {
          writeScalar(value, out);
        }
      };
  }
}

/** Whether a value and everything it holds is frozen (primitives are). */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    return true;
  }
  if (!Object.isFrozen(value)) {
    return false;
  }
  for (const v of Object.values(value)) {
    if (!deeplyFrozen(v)) {
      return false;
    }
  }
  return true;
}

/** The sink replies are written into, one per thread. */
const shared = new JsonSink();

/**
 * Writes a value as compact JSON following its shape.
 * @param shape - the value's shape (an operation's response shape for a whole reply)
 * @param value - the value; members the shape does not declare are not written
 */
export function writeJson(shape: Shape, value: unknown): string {
  return writeJsonBytes(shape, value).toString('utf8');
}

/**
 * Writes a value as compact JSON following its shape, as UTF-8 bytes, between optional text (a JSONP callback).
 * @param shape - the value's shape (an operation's response shape for a whole reply)
 * @param value - the value; members the shape does not declare are not written
 */
export function writeJsonBytes(shape: Shape, value: unknown, before = '', after = ''): Buffer {
  // A call made while another is writing (a toJSON that writes JSON) gets a sink of its own.
  const out = shared.empty ? shared : new JsonSink();
  try {
    out.text(before);
    writerOf(shape)(value, out);
    out.text(after);
  } catch (err) {
    out.take();
    throw err;
  }
  return out.take();
}
