// CodeValidate (operations.md "Claim validation"; interface-spec.md): a claim's procedure and diagnosis codes checked
// against the codes' own edits, the requested policies and the CMS claim edits, by the same engine the batch
// scrubber runs. This file checks what the schema cannot (the spec's conditional rules 1 and 2, spellings,
// cptIcdMapping codes) as 400 field errors and calls the engine.
import { z } from 'zod';
import { claimOfCodeValidate, codeValidate as validate } from '../../engines/validation/index.js';
import { parseGender, parseProviderType } from '../../schemas/claim.js';
import { CodeValidate, CodeValidateResult } from '../../schemas/code-validate.js';
import { referenceOf } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { badRequest, fieldError, isOutcome, type FieldError } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export { CodeValidate };

export const CodeValidateResponse = responseOf('CodeValidateResponse', {
  count: z.int().describe('Number of ResultItems (one per procedure code).'),
  result: CodeValidateResult,
});
export type CodeValidateResponse = z.input<typeof CodeValidateResponse>;

/**
 * The spec's conditional rules (1 and 2), which relate fields to each other, as field errors. Each field's own
 * spelling and shape is the schema's to check, so that every field error comes in one 400 (wire.md section 4).
 */
function requestErrors(request: CodeValidate): FieldError[] {
  const errors: FieldError[] = [];
  const types = new Set(request.codeCheckTypes);
  // A patient born after the date of service has no age to check limits against.
  const birthdate = request.patient?.birthdate;
  if (birthdate !== undefined && birthdate > request.effectiveDate) {
    errors.push(
      fieldError(
        'InvalidValue',
        'patient.birthdate',
        { value: birthdate },
        `'patient.birthdate' (${birthdate}) is after effectiveDate (${request.effectiveDate}).`,
      ),
    );
  }
  // A type of bill is an institutional claim's (as a claim file's billType column is).
  if (request.billType !== undefined && parseProviderType(request.providerType ?? '') !== 'Facility') {
    errors.push(
      fieldError(
        'InvalidValue',
        'billType',
        { value: request.billType },
        `'billType' is a Facility claim's type of bill: 'providerType' must be Facility (H, Hospital, Institutional).`,
      ),
    );
  }
  // Rule 1: LCD needs a contractor, or a provider type with a location; so does Article, the contractor documents
  // LCD stands for with LCDs (the spec: "`LCD` (LCDs and Articles)").
  const located = request.state !== undefined || request.postalCode !== undefined;
  const contractorCheck = types.has('LCD') ? 'LCD' : types.has('Article') ? 'Article' : undefined;
  if (
    contractorCheck !== undefined &&
    request.contractorNumber === undefined &&
    !(request.providerType !== undefined && located)
  ) {
    errors.push(
      fieldError(
        'NotEmpty',
        'contractorNumber',
        {},
        `'contractorNumber' must not be empty when ${contractorCheck} is checked, unless 'providerType' and 'state' or 'postalCode' are given.`,
      ),
    );
  }
  // Rule 2: Commercial needs the payer.
  if (types.has('Commercial') && (request.payerCode === undefined || request.payerCode.trim() === '')) {
    errors.push(fieldError('NotEmpty', 'payerCode', {}, "'payerCode' must not be empty when Commercial is checked."));
  }
  const cpt = new Set(request.cptCodes ?? []);
  const icd = new Set(request.icdCodes ?? []);
  for (const [code, dx] of Object.entries(request.cptIcdMapping ?? {})) {
    if (!cpt.has(code)) {
      errors.push(fieldError('InvalidValue', `cptIcdMapping.${code}`, { value: code }));
    }
    dx.forEach((d, i) => {
      if (!icd.has(d)) {
        errors.push(fieldError('InvalidValue', `cptIcdMapping.${code}[${i}]`, { value: d }));
      }
    });
  }
  return errors;
}

/** The CodeValidate operation. */
export const codeValidate = defineOperation({
  name: 'CodeValidate',
  summary:
    'Validates a claim: code validity, policies (NCD; LCD when loaded), Age/Gender exceptions and CMS claim edits, one item per procedure.',
  request: CodeValidate,
  response: CodeValidateResponse,
  routes: [{ path: '/codeValidate', verbs: ['GET', 'POST'] }],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const errors = requestErrors(request);
    if (errors.length > 0) {
      return badRequest(errors);
    }
    const providerType = request.providerType === undefined ? undefined : parseProviderType(request.providerType);
    const sex = request.patient?.gender === undefined ? undefined : parseGender(request.patient.gender);
    const result = validate(ref, request, claimOfCodeValidate(request, providerType, sex));
    return { count: result.items.length, result };
  },
});
