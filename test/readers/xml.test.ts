import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { parseXml, XmlSyntaxError } from '../../src/readers/xml.js';

const stream = (...chunks: string[]): Readable => Readable.from(chunks.map((c) => Buffer.from(c, 'utf8')));

describe('parseXml', () => {
  test('streams elements and text across chunk boundaries, decoding split UTF-8', async () => {
    const seen: string[] = [];
    const bytes = Buffer.from('<a><b x="1">Friedländer</b></a>', 'utf8');
    const split = bytes.indexOf(0xc3) + 1; // cut inside the two-byte ä
    await parseXml(Readable.from([bytes.subarray(0, split), bytes.subarray(split)]), {
      onOpen: (name, attrs) => seen.push(`<${name}${attrs['x'] ? ` x=${attrs['x']}` : ''}>`),
      onText: (text) => seen.push(text),
      onClose: (name) => seen.push(`</${name}>`),
    });
    expect(seen.join('')).toBe('<a><b x=1>Friedländer</b></a>');
  });

  test('refuses a DOCTYPE, so no entity is ever declared or expanded', async () => {
    const evil = '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<x>&e;</x>';
    await expect(parseXml(stream(evil), {})).rejects.toThrow(/DOCTYPE declarations are not accepted/);
  });

  test('reports the line of the first syntax error and stops there', async () => {
    const closed: string[] = [];
    const err = await parseXml(stream('<a>\n<b>\n</c>\n<d></d></a>'), { onClose: (n) => closed.push(n) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(XmlSyntaxError);
    expect((err as XmlSyntaxError).line).toBe(3);
    expect(closed).not.toContain('d');
  });
});
