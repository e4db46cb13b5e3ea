// Contractor resolution (domain.md section 12; issue 11 rule 9): which Medicare contractor a claim goes to, as far
// as the loaded data proves it. `contractorNumber` wins; otherwise a Part B claim's ZIP gives its carrier from the
// ZIP5 carrier-locality file (a ZIP split between localities needs ZIP+4: said so); otherwise the state gives, for
// Part B, the one carrier every ZIP of the state has in that file, else the contractor numbers the committed table
// confirms for the contract type (Part A for facilities, Part B otherwise), else the state's MAC jurisdiction of that
// contract type (a DME MAC is named by it; for A/B and HH+H it is what the LCD rule needs, and the contractor rule
// reports that the number is not proved). Anything less is "unresolved", never a guess.
import type { Claim } from '../../schemas/claim.js';
import { memoryPerOwner } from '../answer-memory.js';
import type { ValidationReference } from './context.js';
import { zipLocalityOf } from './rules/edit-answers.js';

/** The contractor a claim resolves to, and how. */
export interface ContractorResolution {
  /** 5-digit contractor number, when one is proved. */
  readonly contractorNumber?: string | undefined;
  /** MAC jurisdiction (`JE`, DME `C`), when that is all the data gives. */
  readonly jurisdiction?: string | undefined;
  readonly part: 'A' | 'B' | 'DME' | 'HHH';
  /** How it was found: `given`, `zip`, `state`. */
  readonly by: 'given' | 'zip' | 'state';
  /** The ZIP is split between carrier localities: ZIP+4 would decide. */
  readonly zip9Needed: boolean;
  readonly source?: { readonly dataset: string; readonly release: string } | undefined;
  /** One line a biller reads: "contractor 01182 (Part B) from ZIP 90210". */
  readonly text: string;
}

/** The contract part a claim bills under. */
function partOf(claim: Claim): ContractorResolution['part'] {
  const type = claim.provider?.type;
  if (type === 'DME' || claim.claimType === 'dme') {
    return 'DME';
  }
  if (type === 'HomeHealth') {
    return 'HHH';
  }
  return type === 'Facility' || claim.claimType === 'institutional' ? 'A' : 'B';
}

/**
 * Resolves a claim's contractor.
 * @returns the resolution, or `undefined` when the claim gives nothing the data can resolve
 */
export function resolveContractor(ref: ValidationReference, claim: Claim): ContractorResolution | undefined {
  const answer = answerOf(ref, claim);
  return 'unresolved' in answer ? undefined : answer;
}

/**
 * Why a claim resolves to no contractor, in a clause a biller reads: what the claim gives and what the loaded data
 * lacks (a state split between Part B carriers names them: the ZIP decides). Empty when it resolves.
 */
export function unresolvedReason(ref: ValidationReference, claim: Claim): string {
  const answer = answerOf(ref, claim);
  return 'unresolved' in answer ? answer.unresolved : '';
}

/** A claim's contractor, or why it has none. */
type Answer = ContractorResolution | { readonly unresolved: string };

/**
 * Answers per connection, by what an answer rests on: the contract part, the provider's contractor number, ZIP and
 * state, and the from-date. A night's claims come from a few thousand providers: each is resolved once, not once per
 * claim (several rules ask for the same claim's, too).
 */
const resolved = memoryPerOwner<Answer>(20_000);

/** A provider field as a key part: absent and blank stay apart. */
const keyPart = (value: string | undefined): string => (value === undefined ? '-' : `=${value}`);

function answerOf(ref: ValidationReference, claim: Claim): Answer {
  const p = claim.provider;
  const key = `${partOf(claim)}\t${keyPart(p?.contractorNumber)}\t${keyPart(p?.zip)}\t${keyPart(p?.state)}`;
  return resolved(ref.edits).recall(claim.dateOfServiceFrom, key, () => resolve(ref, claim));
}

type StateFacts = ReturnType<ValidationReference['policies']['contractorsByState']>;
type StateCarriers = NonNullable<ReturnType<ValidationReference['edits']['carriersOfState']>>;

/** Contractor facts of a state (one SQL query over the committed table), per connection. */
const stateFacts = memoryPerOwner<StateFacts>(1_000);
/** Part B carriers of a state on a date from the ZIP5 file, per connection (states x dates of service). */
const stateCarriers = memoryPerOwner<StateCarriers | null>(10_000);

function factsOf(ref: ValidationReference, state: string): StateFacts {
  return stateFacts(ref.policies).recall('', state, () => ref.policies.contractorsByState(state));
}

function carriersOf(ref: ValidationReference, state: string, date: string): StateCarriers | undefined {
  return (
    stateCarriers(ref.edits).recall(date, state, () => ref.edits.carriersOfState(state, date) ?? null) ?? undefined
  );
}

function resolve(ref: ValidationReference, claim: Claim): Answer {
  const provider = claim.provider;
  const part = partOf(claim);
  const label = part === 'DME' ? 'DME MAC' : part === 'HHH' ? 'HH+H MAC' : `Part ${part}`;
  if (provider?.contractorNumber !== undefined) {
    const n = provider.contractorNumber;
    return { contractorNumber: n, part, by: 'given', zip9Needed: false, text: `contractor ${n} (as given)` };
  }
  let state = provider?.state;
  if (provider?.zip !== undefined) {
    const zip = zipLocalityOf(ref.edits, provider.zip, claim.dateOfServiceFrom);
    if (zip !== undefined) {
      // domain.md section 12: the ZIP (ZIP → county → contractor) comes before the state.
      state = zip.uspsState;
      const source = { dataset: 'zip5-locality', release: zip.release };
      const zip9Needed = zip.plus4 && provider.zip.replace('-', '').length === 5;
      if (part === 'B') {
        return {
          contractorNumber: zip.carrier,
          part,
          by: 'zip',
          zip9Needed,
          source,
          text: `contractor ${zip.carrier} (${label}) from ZIP ${zip.zip5}${zip9Needed ? ', a ZIP split between localities: ZIP+4 decides' : ''}`,
        };
      }
    }
  }
  if (state === undefined) {
    return {
      unresolved:
        provider?.zip !== undefined
          ? `ZIP ${provider.zip} is in no ZIP5 carrier file in force on ${claim.dateOfServiceFrom}`
          : 'the claim gives no contractor number, ZIP or state',
    };
  }
  // Part B: the carriers the official ZIP5 file gives the state's ZIPs; one carrier for the whole state proves it.
  const fromZips = part === 'B' ? carriersOf(ref, state, claim.dateOfServiceFrom) : undefined;
  const only = fromZips?.carriers.length === 1 ? fromZips.carriers[0] : undefined;
  if (only !== undefined && fromZips !== undefined) {
    return {
      contractorNumber: only,
      part,
      by: 'state',
      zip9Needed: false,
      source: { dataset: 'zip5-locality', release: fromZips.release },
      text: `contractor ${only} (${label}) from state ${state}: every ZIP of the state goes to it`,
    };
  }
  const facts = factsOf(ref, state);
  if (part === 'A' || part === 'B') {
    const numbers = [...new Set(facts.contractorNumbers.filter((c) => c.part === part).map((c) => c.contractorNumber))];
    if (numbers.length === 1 && numbers[0] !== undefined) {
      return {
        contractorNumber: numbers[0],
        part,
        by: 'state',
        zip9Needed: false,
        text: `contractor ${numbers[0]} (${label}) from state ${state}`,
      };
    }
  }
  const kind = part === 'DME' ? 'DME' : part === 'HHH' ? 'HHH' : 'AB';
  const jurisdiction = facts.jurisdictions.find((j) => j.kind === kind);
  if (jurisdiction === undefined) {
    return {
      unresolved:
        fromZips !== undefined && fromZips.carriers.length > 1
          ? `the ZIPs of state ${state} go to ${String(fromZips.carriers.length)} Part B carriers (${fromZips.carriers.join(', ')}, ZIP5 file ${fromZips.release}): the ZIP or the contractor number decides`
          : `no ${label} contractor of state ${state} is in the loaded contractor table${part === 'B' ? '' : ' (the ZIP5 file names Part B carriers only)'}`,
    };
  }
  return {
    jurisdiction: jurisdiction.jurisdiction,
    part,
    by: 'state',
    zip9Needed: false,
    text: `jurisdiction ${jurisdiction.jurisdiction} (${jurisdiction.mac}, ${label}) from state ${state}; the contractor number is not in the loaded table`,
  };
}
