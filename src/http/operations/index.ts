// The registry of operations served by default: one import per file in this folder.
import type { Operation } from '../wire/operation.js';
import { authenticate } from './authenticate.js';
import { cciMueCheck } from './cci-mue-check.js';
import { codeDetails } from './code-details.js';
import { codeValidate } from './code-validate.js';
import { checkSession } from './check-session.js';
import { dashboard } from './dashboard.js';
import { documentV2 } from './document-v2.js';
import { demo } from './demo.js';
import { entity } from './entity.js';
import { favoriteAdd } from './favorite-add.js';
import { favoriteRemove } from './favorite-remove.js';
import { favoritesByFolder } from './favorites-by-folder.js';
import { favoritesFolders } from './favorites-folders.js';
import { folderCreate } from './folder-create.js';
import { folderDelete } from './folder-delete.js';
import { folderRename } from './folder-rename.js';
import { fullUsageReport } from './full-usage-report.js';
import { gemsMap } from './gems-map.js';
import { hello } from './hello.js';
import { lookupSearch } from './lookup-search.js';
import { searchSuggestions } from './search-suggestions.js';
import { codeInstruction } from './code-instruction.js';
import { conceptInformation } from './concept-information.js';
import { primaryLookup } from './primary-lookup.js';
import { procedureCodeItemData } from './procedure-code-item-data.js';
import { proprietaryMap } from './proprietary-map.js';
import { resourceRequest } from './resource-request.js';
import { sigStringBasic } from './sig-string-basic.js';
import { snomedMap } from './snomed-map.js';

/** Every operation, in the order /metadata and /openapi list them. */
export const allOperations: readonly Operation[] = [
  hello,
  demo,
  sigStringBasic,
  authenticate,
  checkSession,
  entity,
  dashboard,
  resourceRequest,
  favoritesFolders,
  favoritesByFolder,
  favoriteAdd,
  favoriteRemove,
  folderCreate,
  folderRename,
  folderDelete,
  fullUsageReport,
  snomedMap,
  gemsMap,
  proprietaryMap,
  primaryLookup,
  procedureCodeItemData,
  codeDetails,
  codeValidate,
  cciMueCheck,
  lookupSearch,
  searchSuggestions,
  codeInstruction,
  conceptInformation,
  documentV2,
];
