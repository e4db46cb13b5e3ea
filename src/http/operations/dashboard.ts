// Dashboard (spec "Dashboard"): webinars, feature documents and training materials from the content file loaded
// into the application database at start-up (Config.dashboardFile). Webinar dates leave as `"\/Date(ms+0000)\/"`
// (wire.md §8): the accounts layer hands out epoch milliseconds, the schema marks the fields wcfDate().
import { z } from 'zod';
import { int, wcfDate } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { responseOf } from '../wire/response-status.js';

export const Webinar = z
  .object({
    entryId: int(),
    entryName: z.string(),
    boldedEntryName: z.string(),
    trainingUrl: z.string(),
    scheduleOnText: z.string(),
    displayOnText: z.string(),
    timeZone: z.string(),
    scheduleOn: wcfDate(),
    displayOn: wcfDate(),
    bolded: z.boolean(),
  })
  .meta({ id: 'Webinar' });
export type Webinar = z.infer<typeof Webinar>;

export const FeatureDocument = z
  .object({
    productName: z.string(),
    sourceUrl: z.string(),
    mimeType: z.string(),
  })
  .meta({ id: 'FeatureDocument' });
export type FeatureDocument = z.infer<typeof FeatureDocument>;

export const TrainingMaterial = z
  .object({
    productName: z.string(),
    mediaType: z.string(),
    title: z.string(),
    tooltip: z.string(),
    htmlDescription: z.string(),
    previewImageUrl: z.string(),
    bolded: z.boolean(),
  })
  .meta({ id: 'TrainingMaterial' });
export type TrainingMaterial = z.infer<typeof TrainingMaterial>;

export const Dashboard = z.object({}).meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof Dashboard>;

export const DashboardResponse = responseOf('DashboardResponse', {
  webinars: z.array(Webinar),
  featureDocuments: z.array(FeatureDocument),
  trainingMaterials: z.array(TrainingMaterial),
});
export type DashboardResponse = z.input<typeof DashboardResponse>;

const iso = (ms: number): string => new Date(ms).toISOString();

/** The Dashboard operation. */
export const dashboard = defineOperation({
  name: 'Dashboard',
  summary: 'Lists the webinars, feature documents and training materials of the dashboard.',
  request: Dashboard,
  response: DashboardResponse,
  routes: [{ path: '/dashboard/', verbs: ['GET', 'POST'] }],
  handler: (_request, { accounts }) => {
    const board = accounts.dashboard();
    return {
      webinars: board.webinars.map((w) => ({ ...w, scheduleOn: iso(w.scheduleOn), displayOn: iso(w.displayOn) })),
      featureDocuments: board.featureDocuments,
      trainingMaterials: board.trainingMaterials,
    };
  },
});
