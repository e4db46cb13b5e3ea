import { expect, test } from 'vitest';
import { Utf8Sink } from '../src/utf8-sink.js';

test('writes short, long and non-ASCII text as UTF-8, growing from a small buffer', () => {
  const sink = new Utf8Sink(8);
  const pieces = ['a,b', 'x'.repeat(40), 'é', '… (23 in all)', '😀', '', 'z'.repeat(1000), 'ü'.repeat(33)];
  for (const p of pieces) {
    sink.text(p);
  }
  sink.byte(0x0a);
  sink.bytes(Buffer.from('tail', 'utf8'));
  const expected = `${pieces.join('')}\ntail`;
  expect(sink.mark).toBe(Buffer.byteLength(expected, 'utf8'));
  expect(Buffer.from(sink.since(0)).toString('utf8')).toBe(expected);
});

test('hands its bytes over without a copy, in memory of their own that can be transferred, and goes on', () => {
  const sink = new Utf8Sink(16);
  sink.text('first chunk, … past Latin-1');
  const first = sink.handOver();
  expect(first.byteOffset).toBe(0);
  expect(new TextDecoder().decode(first)).toBe('first chunk, … past Latin-1');
  expect(sink.empty).toBe(true);
  sink.text('second');
  // Transferred whole: the view's memory leaves this thread, the sink's new buffer is untouched.
  const moved = structuredClone(first, { transfer: [first.buffer as ArrayBuffer] });
  expect(first.buffer.byteLength).toBe(0);
  expect(new TextDecoder().decode(moved)).toBe('first chunk, … past Latin-1');
  expect(new TextDecoder().decode(sink.handOver())).toBe('second');
  // Handed over again with nothing written: an empty buffer of its own, which can be transferred too.
  const none = sink.handOver();
  expect(none).toHaveLength(0);
  structuredClone(none, { transfer: [none.buffer as ArrayBuffer] });
  sink.text('after');
  expect(new TextDecoder().decode(sink.handOver())).toBe('after');
});
