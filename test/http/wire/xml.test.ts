// wire.md §11 and §14 rows: XML shape (root in NS, PascalCase, ordinal order, i:nil), ResponseStatus in SS with its
// fixed child order, ErrorResponse before the operation is known, lists, dictionaries and free-form values.
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARR, NS, SS, XSI } from '../../../src/http/wire/xml.js';
import { startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

interface El {
  readonly ns: string;
  readonly name: string;
  readonly depth: number;
  readonly nil: boolean;
}

/** Parses namespace-aware: every element with its namespace URI, local name, depth and i:nil. */
function elements(xml: string): El[] {
  const out: El[] = [];
  let depth = 0;
  const p = new SaxesParser({ xmlns: true });
  p.on('opentag', (t) => {
    const nil = Object.values(t.attributes).some(
      (a) => typeof a === 'object' && a.uri === XSI && a.local === 'nil' && a.value === 'true',
    );
    out.push({ ns: t.uri ?? '', name: t.local ?? '', depth, nil });
    depth++;
  });
  p.on('closetag', () => {
    depth--;
  });
  p.write(xml).close();
  return out;
}

async function xml(path: string): Promise<{ res: Response; text: string }> {
  const res = await fetch(`${s.base}${path}`);
  return { res, text: await res.text() };
}

describe('XML output', () => {
  test('matches the golden GemsMap-like document byte for byte', async () => {
    const { res, text } = await xml('/xml/reply/ProbeMap?sourceCodeCsv=A02.1');
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(text).toBe(readFileSync('test/fixtures/http/probe-map.xml.golden', 'utf8'));
  });

  test('root <OpResponse> in NS, PascalCase members in ordinal order, null members as i:nil', async () => {
    const { text } = await xml('/xml/reply/ProbeMap?sourceCodeCsv=A02.1');
    expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?><ProbeMapResponse ')).toBe(true);
    expect(text).not.toMatch(/>\s+</);
    const els = elements(text);
    expect(els[0]).toMatchObject({ ns: NS, name: 'ProbeMapResponse' });
    expect(els.filter((e) => e.depth === 1).map((e) => e.name)).toEqual(['Request', 'ResponseStatus', 'Result']);
    const item = els.findIndex((e) => e.name === 'ProbeMapItem');
    const members = els
      .slice(item + 1)
      .filter((e) => e.depth === 3)
      .slice(0, 10)
      .map((e) => e.name);
    expect(members).toEqual([...members].sort());
    expect(members).toEqual([
      'ChoiceList',
      'Code',
      'CodeDesc',
      'Flags',
      'IsApproximate',
      'IsCombination',
      'IsNotMappable',
      'Scenario',
      'SourceCode',
      'SourceCodeDesc',
    ]);
    expect(els.find((e) => e.name === 'CodeDesc')).toMatchObject({ nil: true, ns: NS });
    expect(els.filter((e) => e.name === 'string').every((e) => e.ns === ARR)).toBe(true);
  });

  test('ResponseStatus is in NS and its children in SS in the fixed order; all i:nil on success', async () => {
    const els = elements((await xml('/xml/reply/Hello?worldParam=w')).text);
    const at = els.findIndex((e) => e.name === 'ResponseStatus');
    expect(els[at]).toMatchObject({ ns: NS });
    const children = els.slice(at + 1, at + 5);
    expect(children.map((e) => `${e.ns === SS ? 's' : '?'}:${e.name}:${String(e.nil)}`)).toEqual([
      's:ErrorCode:true',
      's:Message:true',
      's:StackTrace:true',
      's:Errors:true',
    ]);
  });

  test('a failing /xml/reply call carries ResponseStatus with SS children and ResponseError entries', async () => {
    const { res, text } = await xml('/xml/reply/ProbeMap');
    expect(res.status).toBe(400);
    const els = elements(text);
    expect(els[0]).toMatchObject({ ns: NS, name: 'ProbeMapResponse' });
    expect(els.slice(1).map((e) => `${e.ns === SS ? 's' : e.ns === NS ? 'ns' : '?'}:${e.name}`)).toEqual([
      'ns:ResponseStatus',
      's:ErrorCode',
      's:Message',
      's:StackTrace',
      's:Errors',
      's:ResponseError',
      's:ErrorCode',
      's:FieldName',
      's:Message',
    ]);
    expect(text).toContain('<s:FieldName>sourceCodeCsv</s:FieldName>');
  });

  test('an error before the operation is known is <ErrorResponse> in SS', async () => {
    const els = elements((await xml('/xml/reply/Nope')).text);
    expect(els[0]).toMatchObject({ ns: SS, name: 'ErrorResponse' });
    expect(els[1]).toMatchObject({ ns: SS, name: 'ResponseStatus' });
  });

  test('scalar lists, dictionaries, dates and nested objects', async () => {
    const { text } = await xml(
      `/xml/reply/Probe?conceptIdList=4&cptIcdMapping=${encodeURIComponent('{"a":["b"]}')}&effectiveDate=2024-01-02&timeStamp=2024-01-02T03:04:05%2B01:00&patient=${encodeURIComponent('{"age":3}')}`,
    );
    expect(text).toContain('<ConceptIdList><a:int>4</a:int></ConceptIdList>');
    expect(text).toContain(
      '<CptIcdMapping><a:KeyValueOfstringArrayOfstring><a:Key>a</a:Key><a:Value><a:string>b</a:string></a:Value></a:KeyValueOfstringArrayOfstring></CptIcdMapping>',
    );
    expect(text).toContain('<EffectiveDate>2024-01-02T00:00:00</EffectiveDate>');
    expect(text).toContain('<TimeStamp>2024-01-02T03:04:05+01:00</TimeStamp>');
    expect(text).toContain('<Patient><Age>3</Age><Gender i:nil="true"/></Patient>');
    expect(text).toContain('<LogicLimit i:nil="true"/>');
  });

  test('lists of maps are a:ArrayOfKeyValueOfstringstring items', async () => {
    const { text } = await xml('/xml/reply/ProbeDoc');
    expect(text).toContain(
      '<Result><a:ArrayOfKeyValueOfstringstring><a:KeyValueOfstringstring><a:Key>text</a:Key><a:Value>chest pain</a:Value></a:KeyValueOfstringstring>',
    );
  });

  test('free-form values: one element per key, array items as <Item>', async () => {
    const { text } = await xml('/xml/reply/Demo');
    expect(text).toContain('<Response><Service>claim-scrubber</Service>');
    expect(text).toContain('<CodeSets><Item>ICD-10 CM</Item>');
    expect(text).toContain('<Billable>true</Billable>');
  });

  test('escapes markup in text', async () => {
    const { text } = await xml(`/xml/reply/Hello?worldParam=${encodeURIComponent('<b>&"x"</b>')}`);
    expect(text).toContain('<Hello>Hello, &lt;b&gt;&amp;"x"&lt;/b&gt;</Hello>');
  });
});
