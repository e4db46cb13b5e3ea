// DocumentV2 over a real server (auth on, signed calls) backed by the shared full reference database: the spec's
// route and the predefined one, JSON, JSONP, XML and CSV, offsets that slice the mention out of the text, an empty
// text, text over 100 KB (413, the body itself under the server's limit), a bad body (400), and the round trip
// through @servicestack/client with the generated DTOs.
import { JsonServiceClient } from '@servicestack/client';
import { describe, expect, test } from 'vitest';
import { NLP_MAX_TEXT_BYTES } from '../../../src/schemas/nlp.js';
import { DocumentV2 } from '../../fixtures/dtos.js';
import { signed, signedServerOnSharedReference, startSignedServer } from '../helpers.js';

const handles = signedServerOnSharedReference();
const NOTE =
  'Chief Complaint: cough.\nHPI: 70 yo with type 2 diabetes with hyperglycemia and htn. Denies chest pain or fever but reports left knee pain.\n' +
  'Family History: mother had breast cancer.\nAssessment: possible pneumonia.';

interface Reply {
  result: Record<string, string>[];
  responseStatus?: { errorCode: string; message: string };
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  handles.s.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('DocumentV2', () => {
  test('a note: each mention coded, in text order, with its offsets, section and assertions', async () => {
    const res = await post('/NLP/v2/index', { text: NOTE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Reply;
    const byText = new Map(body.result.map((m) => [m['text'], m]));
    for (const m of body.result) {
      expect(NOTE.slice(Number(m['begin']), Number(m['end']))).toBe(m['text']);
      expect(Object.keys(m).slice(0, 12)).toEqual([
        'text', 'begin', 'end', 'category', 'code', 'codeSet', 'description', 'score', 'negated', 'uncertain', 'historical', 'family',
      ]);
    }
    const begins = body.result.map((m) => Number(m['begin']));
    expect(begins).toEqual([...begins].sort((a, b) => a - b));
    expect(byText.get('type 2 diabetes with hyperglycemia')).toMatchObject({ code: 'E11.65', codeSet: 'ICD-10 CM', negated: 'false', section: 'History of Present Illness' });
    expect(byText.get('htn')).toMatchObject({ code: 'I10', negated: 'false' });
    expect(byText.get('chest pain')).toMatchObject({ code: 'R07.9', negated: 'true' });
    expect(byText.get('fever')).toMatchObject({ negated: 'true' });
    // "but" ends the negation's scope.
    expect(byText.get('left knee pain')).toMatchObject({ code: 'M25.562', negated: 'false' });
    expect(byText.get('breast cancer')).toMatchObject({ family: 'true', historical: 'false', section: 'Family History' });
    expect(byText.get('breast cancer')?.['alternatives']?.split('|').length).toBeGreaterThan(0);
    expect(byText.get('pneumonia')).toMatchObject({ code: 'J18.9', uncertain: 'true', section: 'Assessment' });
    expect(Number(byText.get('pneumonia')?.['score'])).toBeGreaterThan(0);
    expect(Number(byText.get('pneumonia')?.['score'])).toBeLessThanOrEqual(1);
  });

  test('the predefined route, XML and CSV carry the same mentions', async () => {
    const text = 'No evidence of pneumonia. History of asthma.';
    const asJson = (await (await post('/json/reply/DocumentV2', { text })).json()) as Reply;
    expect(asJson.result.map((m) => [m['text'], m['code'], m['negated'], m['historical']])).toEqual([
      ['pneumonia', 'J18.9', 'true', 'false'],
      ['asthma', 'J45.909', 'false', 'true'],
    ]);
    const xml = await (await post('/NLP/v2/index?format=xml', { text })).text();
    expect(xml).toContain('<DocumentV2Response');
    expect(xml).toContain('J18.9');
    expect(xml).toContain('J45.909');
    const csv = await (await post('/NLP/v2/index?format=csv', { text })).text();
    const rows = csv.trim().split('\r\n');
    expect(rows[0]?.split(',').slice(0, 5)).toEqual(['text', 'begin', 'end', 'category', 'code']);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('J18.9');
  });

  test('JSONP: ?callback= wraps the JSON answer', async () => {
    const res = await post('/NLP/v2/index?callback=show', { text: 'Denies headache.' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    const body = await res.text();
    expect(body.startsWith('show(')).toBe(true);
    const inner = JSON.parse(body.slice('show('.length, -1)) as Reply;
    expect(inner.result[0]).toMatchObject({ text: 'headache', negated: 'true' });
  });

  test('empty text → an empty result', async () => {
    for (const body of [{}, { text: '' }, { text: '   \n ' }]) {
      const res = await post('/NLP/v2/index', body);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Reply).result).toEqual([]);
    }
  });

  test('text over 100 KB → 413 with a message, though the body is under the server limit', async () => {
    const text = 'Denies chest pain. '.repeat(Math.ceil((NLP_MAX_TEXT_BYTES + 10) / 19));
    const res = await post('/NLP/v2/index', { text });
    expect(res.status).toBe(413);
    const body = (await res.json()) as Reply;
    expect(body.responseStatus?.errorCode).toBe('PayloadTooLarge');
    expect(body.responseStatus?.message).toContain(String(NLP_MAX_TEXT_BYTES));
    // Exactly at the limit it is answered.
    const atLimit = 'a'.repeat(NLP_MAX_TEXT_BYTES);
    expect((await post('/NLP/v2/index', { text: atLimit })).status).toBe(200);
  });

  test('the text limit is configurable (http.nlpMaxTextBytes)', async () => {
    const small = await startSignedServer({ deps: { reference: handles.ref }, http: { nlpMaxTextBytes: 1000 } });
    try {
      const at = (text: string): Promise<Response> =>
        small.fetch('/NLP/v2/index', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text }) });
      expect((await at('a'.repeat(1000))).status).toBe(200);
      const over = await at('é'.repeat(501));
      expect(over.status).toBe(413);
      expect(((await over.json()) as Reply).responseStatus?.message).toContain('1000 bytes');
    } finally {
      await small.close();
    }
  });

  test('a body that is not JSON → 400; text of the wrong type → 400 naming the field', async () => {
    const bad = await handles.s.fetch('/NLP/v2/index', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text": ' });
    expect(bad.status).toBe(400);
    const wrong = await post('/NLP/v2/index', { text: { words: 'cough' } });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { responseStatus: { errors: { fieldName: string }[] } };
    expect(body.responseStatus.errors.map((e) => e.fieldName.toLowerCase())).toContain('text');
  });

  test('@servicestack/client round trip with the generated DTO', async () => {
    const client = new JsonServiceClient(handles.s.base);
    for (const [name, value] of Object.entries(signed(handles.s.key, handles.s.userName))) {
      client.headers.set(name, value);
    }
    const answer = await client.post(new DocumentV2({ text: 'Suspected pneumonia; no fever.' }));
    expect(answer.result?.map((m) => [m['text'], m['uncertain'], m['negated']])).toEqual([
      ['pneumonia', 'true', 'false'],
      ['fever', 'false', 'true'],
    ]);
  });
});
