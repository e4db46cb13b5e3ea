// Public surface of `data:fetch`: the sources list (schema and reader), the pure planning helpers, and the
// fetcher that downloads or copies the listed official files into the sources folder.
export {
  SourceEntry,
  SourceOrigin,
  SourcesManifest,
  parseSourcesManifest,
  readSourcesManifest,
} from './sources-manifest.js';
export { parseMirror, selectSources, type Mirror } from './plan.js';
export { destPath, fetchSources, type FetchOptions, type FetchOutcome, type FetchReporter } from './fetch-sources.js';
