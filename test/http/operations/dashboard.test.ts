// Dashboard: the committed content (data/dashboard.json) loaded into the application database and answered on
// `/dashboard/` and the predefined routes; webinar dates as "\/Date(ms+0000)\/" (wire.md §8); JSON, CSV and XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readDashboardFile } from '../../../src/accounts/index.js';
import { startSignedServer, type SignedServer } from '../helpers.js';

const content = readDashboardFile('data/dashboard.json');
let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer({ accounts: { dashboard: content } });
});
afterAll(async () => {
  await s.close();
});

describe('Dashboard', () => {
  test('answers the content on /dashboard/ (GET and POST) with WCF dates, slashes escaped', async () => {
    for (const init of [{ method: 'GET' }, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }]) {
      const res = await s.fetch('/dashboard/', init);
      expect(res.status).toBe(200);
      const text = await res.text();
      const first = content.webinars[0];
      expect(text).toContain(`"scheduleOn":"\\/Date(${String(Date.parse(first?.scheduleOn ?? ''))}+0000)\\/"`);
      expect(text).toMatch(/^\{"webinars":\[\{"entryId":1,"entryName":/);
      const body = JSON.parse(text) as {
        webinars: unknown[];
        featureDocuments: unknown[];
        trainingMaterials: unknown[];
      };
      expect(body.webinars).toHaveLength(content.webinars.length);
      expect(body.featureDocuments).toEqual(content.featureDocuments);
      expect(body.trainingMaterials).toEqual(content.trainingMaterials);
    }
    expect((await s.fetch('/dashboard', { method: 'DELETE' })).status).toBe(405);
  });

  test('answers in CSV (one row, JSON cells) and XML (Webinar items)', async () => {
    const csv = await (await s.fetch('/csv/reply/Dashboard')).text();
    const [header] = csv.split('\r\n');
    expect(header).toBe('webinars,featureDocuments,trainingMaterials');
    expect(csv).toContain('""scheduleOn"":""\\/Date(1768410000000+0000)\\/""');
    const xml = await (await s.fetch('/xml/reply/Dashboard')).text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><DashboardResponse /);
    expect(xml).toContain('<Webinars><Webinar><Bolded>true</Bolded><BoldedEntryName>Getting started</BoldedEntryName>');
    expect(xml).toContain('<FeatureDocuments><FeatureDocument>');
    expect(xml).toContain('<TrainingMaterials><TrainingMaterial>');
  });

  test('needs credentials', async () => {
    expect((await fetch(`${s.base}/dashboard/`)).status).toBe(401);
  });
});
