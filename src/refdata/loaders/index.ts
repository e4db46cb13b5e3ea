// Every loader the builder knows, in load order (code sets before the tables that refer to them), and the kinds of
// file that are known but deliberately not loaded, with the reason the build shows for each.
import type { SkipRule } from '../builder/builder.js';
import type { Loader } from '../builder/types.js';
import { icd10OrderLoader } from './icd10-order.js';
import { cptUserLoader } from './cpt-user.js';
import { dmeposLoader } from './dmepos.js';
import { gemsLoader } from './gems.js';
import { hcpcsLoader } from './hcpcs.js';
import { icd10cmConversionLoader } from './icd10cm-conversion.js';
import { icd10cmDrugCsvLoader } from './icd10cm-drug-csv.js';
import { icd10cmIndexLoader } from './icd10cm-index.js';
import { icd10cmTabularLoader } from './icd10cm-tabular.js';
import { icd10cmTabularAddendaLoader } from './icd10cm-tabular-addenda.js';
import { icd10pcsIndexLoader } from './icd10pcs-index.js';
import { icd9cmLoader } from './icd9cm.js';
import { mcdExportLoader } from './mcd-export.js';
import { mcdIndexLoader } from './mcd.js';
import { mceLoader } from './mce.js';
import { medicareContractorsLoader } from './medicare-contractors.js';
import { mueLoader } from './mue.js';
import { ncciAocLoader } from './ncci-aoc.js';
import { ncciPtpLoader } from './ncci-ptp.js';
import { ncdLabLoader } from './ncd-lab.js';
import { oppsAddendumBLoader } from './opps-addendum-b.js';
import { policyPackLoader } from './policy-pack.js';
import { zipLocalityLoader } from './zip-locality.js';
import { poaExemptLoader } from './poa-exempt.js';

export const allLoaders: readonly Loader[] = [
  icd10OrderLoader,
  icd9cmLoader,
  cptUserLoader,
  hcpcsLoader,
  icd10cmTabularLoader,
  icd10cmTabularAddendaLoader,
  icd10cmIndexLoader,
  icd10cmDrugCsvLoader,
  icd10pcsIndexLoader,
  gemsLoader,
  poaExemptLoader,
  icd10cmConversionLoader,
  oppsAddendumBLoader,
  dmeposLoader,
  mueLoader,
  ncciAocLoader,
  ncciPtpLoader,
  ncdLabLoader,
  zipLocalityLoader,
  mceLoader,
  mcdIndexLoader,
  mcdExportLoader,
  medicareContractorsLoader,
  policyPackLoader,
];

export const skipRules: readonly SkipRule[] = [
  { pattern: /(^|\/)MANIFEST\.md$/i, reason: 'documentation of the data folder' },
  { pattern: /\.xsd$/i, reason: 'XML schema (documentation of the XML format), no data' },
  { pattern: /record-?layout/i, reason: 'record layout documentation; the HCPCS loader implements it' },
];
