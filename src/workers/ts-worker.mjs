// Worker entry when the program runs from TypeScript sources (tsx, vitest): worker threads do not inherit tsx's
// loader, so this plain module loads the TypeScript task file through tsx's API and re-exports its tasks.
// The compiled build (dist/) points the pool at tasks.js directly and never loads this file.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport(workerData.tasksFile, import.meta.url);
export const { scrub, scrubAlone, warm } = tasks;
