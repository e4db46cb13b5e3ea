// Dashboard content: the committed content file is read and checked at start-up, replaces the dashboard tables
// of the application database in one transaction, and is read back with dates as epoch milliseconds (the wire
// layer writes them as /Date(ms+0000)/).
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { ScrubberError } from '../errors.js';
import { DashboardContent, type Dashboard, type FeatureDocument } from '../schemas/accounts.js';

/**
 * Reads and checks a dashboard content file.
 * @param path - the file, normally `Config.dashboardFile`
 * @throws ScrubberError `INPUT_FORMAT` naming the file and the first bad field; `fs` errors when unreadable
 */
export function readDashboardFile(path: string): DashboardContent {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err instanceof SyntaxError) {
      throw new ScrubberError('INPUT_FORMAT', `${path}: not valid JSON: ${err.message}`, { cause: err });
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      throw new ScrubberError(
        'CONFIG',
        `cannot read the dashboard content ${path} (${code}): set DASHBOARD_FILE to a readable file, such as the committed data/dashboard.json`,
        { cause: err },
      );
    }
    throw err;
  }
  const parsed = DashboardContent.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined ? '' : `${first.path.join('.')}: ${first.message}`;
    throw new ScrubberError('INPUT_FORMAT', `${path}: not dashboard content: ${where}`);
  }
  return parsed.data;
}

/** The dashboard functions of an open application database. */
export interface DashboardStore {
  readonly loadDashboard: (content: DashboardContent) => void;
  readonly dashboard: () => Dashboard;
}

/**
 * Prepares the dashboard statements of a database.
 * @param db - the migrated application database
 */
export function dashboardStore(db: Database.Database): DashboardStore {
  const insertWebinar = db.prepare(`INSERT INTO dashboard_webinar (position, entry_id, entry_name, bolded_entry_name,
      training_url, schedule_on, schedule_on_text, display_on, display_on_text, time_zone, bolded)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertDocument = db.prepare(
    'INSERT INTO dashboard_feature_document (position, product_name, source_url, mime_type) VALUES (?, ?, ?, ?)',
  );
  const insertMaterial = db.prepare(`INSERT INTO dashboard_training_material (position, product_name, media_type,
      title, tooltip, html_description, preview_image_url, bolded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const webinars =
    db.prepare(`SELECT entry_id AS entryId, entry_name AS entryName, bolded_entry_name AS boldedEntryName,
      training_url AS trainingUrl, schedule_on AS scheduleOn, schedule_on_text AS scheduleOnText,
      display_on AS displayOn, display_on_text AS displayOnText, time_zone AS timeZone, bolded
    FROM dashboard_webinar ORDER BY position`);
  const documents = db.prepare(`SELECT product_name AS productName, source_url AS sourceUrl, mime_type AS mimeType
    FROM dashboard_feature_document ORDER BY position`);
  const materials = db.prepare(`SELECT product_name AS productName, media_type AS mediaType, title, tooltip,
      html_description AS htmlDescription, preview_image_url AS previewImageUrl, bolded
    FROM dashboard_training_material ORDER BY position`);

  const load = db.transaction((content: DashboardContent) => {
    db.exec(
      'DELETE FROM dashboard_webinar; DELETE FROM dashboard_feature_document; DELETE FROM dashboard_training_material',
    );
    content.webinars.forEach((w, i) => {
      insertWebinar.run(
        i,
        w.entryId,
        w.entryName,
        w.boldedEntryName,
        w.trainingUrl,
        Date.parse(w.scheduleOn),
        w.scheduleOnText,
        Date.parse(w.displayOn),
        w.displayOnText,
        w.timeZone,
        w.bolded ? 1 : 0,
      );
    });
    content.featureDocuments.forEach((d, i) => insertDocument.run(i, d.productName, d.sourceUrl, d.mimeType));
    content.trainingMaterials.forEach((m, i) =>
      insertMaterial.run(
        i,
        m.productName,
        m.mediaType,
        m.title,
        m.tooltip,
        m.htmlDescription,
        m.previewImageUrl,
        m.bolded ? 1 : 0,
      ),
    );
  });

  type Flagged<T> = Omit<T, 'bolded'> & { bolded: number };
  const unflag = <T extends { bolded: boolean }>(row: Flagged<T>): T => ({ ...row, bolded: row.bolded === 1 }) as T;

  return {
    loadDashboard: (content) => load.immediate(content),
    dashboard: () => ({
      webinars: (webinars.all() as Flagged<Dashboard['webinars'][number]>[]).map(unflag),
      featureDocuments: documents.all() as FeatureDocument[],
      trainingMaterials: (materials.all() as Flagged<Dashboard['trainingMaterials'][number]>[]).map(unflag),
    }),
  };
}
