// The code systems of the FHIR facade: each canonical URI (HL7 Terminology, THO), the aliases accepted on input, and
// the code-set name the engines take.
import type { MapCodeType } from '../../schemas/mapping.js';

/** One code system the facade serves. */
export interface FhirSystem {
  /** The canonical URI, answered in every output Coding. */
  readonly uri: string;
  /** The name `$lookup` answers. */
  readonly name: string;
  /** The code-set name the code engine takes (`codeSet`). */
  readonly codeSet: 'ICD-10 CM' | 'ICD-10 PCS' | 'ICD-9 CM' | 'HCPCS';
  /** The GemsMap source type, for systems the GEMs cover. */
  readonly mapType?: MapCodeType;
}

export const ICD10CM: FhirSystem = {
  uri: 'http://hl7.org/fhir/sid/icd-10-cm',
  name: 'ICD-10-CM',
  codeSet: 'ICD-10 CM',
  mapType: 'ICD-10 CM',
};
/** THO's endorsed URI for ICD-10-PCS is the CMS one (NamingSystem icd10PCS, preferred). */
export const ICD10PCS: FhirSystem = {
  uri: 'http://www.cms.gov/Medicare/Coding/ICD10',
  name: 'ICD-10-PCS',
  codeSet: 'ICD-10 PCS',
  mapType: 'ICD-10 PCS',
};
export const ICD9CM: FhirSystem = {
  uri: 'http://hl7.org/fhir/sid/icd-9-cm',
  name: 'ICD-9-CM',
  codeSet: 'ICD-9 CM',
  mapType: 'ICD-9 CM',
};
export const HCPCS: FhirSystem = {
  uri: 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  name: 'HCPCS Level II',
  codeSet: 'HCPCS',
};

const BY_URI = new Map<string, FhirSystem>([
  [ICD10CM.uri, ICD10CM],
  [ICD10PCS.uri, ICD10PCS],
  ['http://hl7.org/fhir/sid/icd-10-pcs', ICD10PCS],
  ['http://terminology.hl7.org/CodeSystem/icd10PCS', ICD10PCS],
  [ICD9CM.uri, ICD9CM],
  [HCPCS.uri, HCPCS],
  ['http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets', HCPCS],
]);

/**
 * The system a URI names, canonical or alias.
 * @param uri - a `system` / `url` / `targetsystem` value
 */
export function systemOf(uri: string): FhirSystem | undefined {
  return BY_URI.get(uri.trim());
}

/**
 * The system of an engine code-set name (`ICD-10 CM`, …) as written in map items.
 * @param codeType - the item's codeType
 */
export function systemOfCodeType(codeType: string): FhirSystem | undefined {
  return [ICD10CM, ICD10PCS, ICD9CM, HCPCS].find((s) => s.codeSet === codeType);
}

/** The URIs accepted, for error messages. */
export const SUPPORTED_SYSTEMS = [ICD10CM.uri, ICD10PCS.uri, ICD9CM.uri, HCPCS.uri].join(', ');
