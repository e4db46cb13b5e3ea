// ResourceRequest: files of the resources folder on `/resource/{Name*}` with a content type by extension; anything
// that would leave the folder (wire.md §14 "wildcard": `..`, `..%2f`, absolute names, links out) is 404; errors in
// the negotiated format (JSON, CSV, XML); a one-way call answers 204.
import { mkdtemp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startSignedServer, signed, type SignedServer } from '../helpers.js';

let s: SignedServer;
let dir = '';
beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'resources-'));
  dir = join(root, 'resources');
  await mkdir(join(dir, 'widgets'), { recursive: true });
  await writeFile(join(dir, 'widgets', 'search.js'), 'export const x = 1;\n');
  await writeFile(join(dir, 'note.txt'), 'hello\n');
  await writeFile(join(dir, '.hidden'), 'no\n');
  await writeFile(join(root, 'outside.txt'), 'secret\n');
  await symlink(join(root, 'outside.txt'), join(dir, 'link.txt'));
  s = await startSignedServer({ resourcesDir: dir });
});
afterAll(async () => {
  await s.close();
});

describe('ResourceRequest', () => {
  test('serves the committed widget page of data/resources', async () => {
    const committed = await startSignedServer();
    try {
      const res = await committed.fetch('/resource/search-widget.html');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
    } finally {
      await committed.close();
    }
  });

  test('serves nested names with any verb, the content type following the extension', async () => {
    const js = await s.fetch('/resource/widgets/search.js', { method: 'POST' });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('export const x = 1;\n');
    const txt = await s.fetch('/json/reply/ResourceRequest?name=note.txt');
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await txt.text()).toBe('hello\n');
  });

  test('names that leave the folder, hidden files, links out and folders are 404', async () => {
    const headers = signed(s.key, 'alice');
    for (const path of [
      '/resource/..%2foutside.txt',
      '/resource/..%2F..%2Fetc%2Fpasswd',
      '/resource/widgets/..%2f..%2foutside.txt',
      '/resource/../outside.txt',
      '/resource/link.txt',
      '/resource/.hidden',
      '/resource/widgets',
      '/resource',
      '/json/reply/ResourceRequest?name=../outside.txt',
      '/json/reply/ResourceRequest?name=%2Fetc%2Fpasswd',
      '/json/reply/ResourceRequest?name=widgets%5C..%5C..%5Coutside.txt',
    ]) {
      const r = await raw(s.port, { path, headers });
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain('secret');
      expect(JSON.parse(r.body), path).toMatchObject({ responseStatus: { errorCode: 'NotFound' } });
    }
  });

  test('a missing resource is 404 in the negotiated format (JSON, CSV, XML)', async () => {
    const json = await s.fetch('/resource/missing.js');
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({
      responseStatus: { errorCode: 'NotFound', message: "No resource named 'missing.js'.", errors: [] },
    });
    const csv = await s.fetch('/resource/missing.js?format=csv');
    expect(await csv.text()).toBe(
      "responseStatus.errorCode,responseStatus.message,responseStatus.errors\r\nNotFound,No resource named 'missing.js'.,[]\r\n",
    );
    const xml = await s.fetch('/resource/missing.xml');
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await xml.text()).toContain('<ResourceRequestResponse ');
  });

  test('a one-way call answers 204; the call needs credentials', async () => {
    const oneWay = await s.fetch('/xml/oneway/ResourceRequest', {
      method: 'POST',
      body: '<ResourceRequest><Name>note.txt</Name></ResourceRequest>',
    });
    expect(oneWay.status).toBe(204);
    expect((await fetch(`${s.base}/resource/note.txt`)).status).toBe(401);
  });
});
