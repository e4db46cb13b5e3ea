// Entities (organisations): the syntax checks of the `Entity` operation as a pure function, and the store that
// creates, reads and lists them. Names are unique per parent, case-insensitively (operations.md: duplicate → 409).
import type Database from 'better-sqlite3';
import type { AccountsFieldError, EntityInput, EntityRecord } from '../schemas/accounts.js';
import { failure, invalid, invalidValue, notEmpty, success, type Outcome } from './outcomes.js';

/** USPS codes of the states, DC, the territories and the armed-forces "states" (USPS Publication 28, appendix B). */
const STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR ' +
    'PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM FM MH PW AA AE AP'
  ).split(' '),
);
const POSTAL_CODE = /^\d{5}(-\d{4})?$/;
// Deliberately loose (one @, a dot in the domain, no spaces): syntax only; deliverability is not ours to judge.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** The longest entity name accepted. */
export const MAX_ENTITY_NAME = 200;

/** Optional text fields of an entity, in request order. */
const TEXT_FIELDS = [
  'phoneExt',
  'phoneNumber',
  'emailAddress',
  'addressStreet',
  'addressSecond',
  'city',
  'state',
  'postalCode',
  'url',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** An entity input after the syntax checks: trimmed, blanks as `null`, state upper-case. */
export type CheckedEntity = Omit<EntityRecord, 'entityId' | 'createdAt'>;

/**
 * Checks the syntax of an `Entity` request: `entityName` required, state/postal/email/url well-formed. Blank
 * optional fields count as absent. Pure: whether the parent exists and the name is free is the store's job.
 * @param input - the request fields
 * @returns the normalised entity, or an outcome with one field error per bad field
 */
export function checkEntityInput(input: EntityInput): Outcome<CheckedEntity> {
  const errors: AccountsFieldError[] = [];
  const entityName = input.entityName.trim();
  if (entityName === '') {
    errors.push(notEmpty('entityName'));
  } else if (entityName.length > MAX_ENTITY_NAME || /\p{Cc}/u.test(entityName)) {
    errors.push(invalidValue('entityName', entityName.slice(0, 40)));
  }
  const text = {} as Record<TextField, string | null>;
  for (const field of TEXT_FIELDS) {
    const value = input[field]?.trim() ?? '';
    text[field] = value === '' ? null : value;
  }
  if (text.state !== null) {
    text.state = text.state.toUpperCase();
    if (!STATES.has(text.state)) {
      errors.push(invalidValue('state', text.state));
    }
  }
  if (text.postalCode !== null && !POSTAL_CODE.test(text.postalCode)) {
    errors.push(invalidValue('postalCode', text.postalCode));
  }
  if (text.emailAddress !== null && !EMAIL.test(text.emailAddress)) {
    errors.push(invalidValue('emailAddress', text.emailAddress));
  }
  if (text.url !== null && !isWebUrl(text.url)) {
    errors.push(invalidValue('url', text.url));
  }
  if (errors.length > 0) {
    return invalid(errors);
  }
  return success({
    parentEntityId: input.parentEntityId ?? null,
    entityName,
    isTest: input.isTest ?? false,
    isTrial: input.isTrial ?? false,
    ...text,
  });
}

function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) {
    return false;
  }
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

interface EntityRow {
  entity_id: number;
  parent_entity_id: number | null;
  entity_name: string;
  is_test: number;
  is_trial: number;
  phone_ext: string | null;
  phone_number: string | null;
  email_address: string | null;
  address_street: string | null;
  address_second: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  url: string | null;
  created_at: number;
}

function toEntity(row: EntityRow): EntityRecord {
  return {
    entityId: row.entity_id,
    parentEntityId: row.parent_entity_id,
    entityName: row.entity_name,
    isTest: row.is_test === 1,
    isTrial: row.is_trial === 1,
    phoneExt: row.phone_ext,
    phoneNumber: row.phone_number,
    emailAddress: row.email_address,
    addressStreet: row.address_street,
    addressSecond: row.address_second,
    city: row.city,
    state: row.state,
    postalCode: row.postal_code,
    url: row.url,
    createdAt: row.created_at,
  };
}

/** The entity functions of an open application database. */
export interface EntityStore {
  readonly createEntity: (input: EntityInput) => Outcome<EntityRecord>;
  readonly getEntity: (entityId: number) => EntityRecord | undefined;
  readonly listEntities: () => EntityRecord[];
  readonly isWithinEntity: (entityId: number, ancestorId: number) => boolean;
}

/**
 * Prepares the entity statements of a database.
 * @param db - the migrated application database
 * @param now - the clock
 */
export function entityStore(db: Database.Database, now: () => Date): EntityStore {
  const byId = db.prepare('SELECT * FROM entity WHERE entity_id = ?');
  const all = db.prepare('SELECT * FROM entity ORDER BY entity_id');
  const sameName = db.prepare(
    'SELECT 1 FROM entity WHERE ifnull(parent_entity_id, 0) = ifnull(?, 0) AND entity_name = ? COLLATE NOCASE',
  );
  const insert = db.prepare(`INSERT INTO entity (parent_entity_id, entity_name, is_test, is_trial, phone_ext,
      phone_number, email_address, address_street, address_second, city, state, postal_code, url, created_at)
    VALUES (@parentEntityId, @entityName, @isTest, @isTrial, @phoneExt, @phoneNumber, @emailAddress, @addressStreet,
      @addressSecond, @city, @state, @postalCode, @url, @createdAt)`);
  const within = db.prepare(`WITH RECURSIVE up(id) AS (
      SELECT ? UNION SELECT e.parent_entity_id FROM entity e JOIN up ON e.entity_id = up.id
      WHERE e.parent_entity_id IS NOT NULL)
    SELECT 1 FROM up WHERE id = ?`);

  const getEntity = (entityId: number): EntityRecord | undefined => {
    const row = byId.get(entityId) as EntityRow | undefined;
    return row === undefined ? undefined : toEntity(row);
  };

  // Check and insert under one write lock, so two concurrent creates of one name cannot both pass the check.
  const create = db.transaction((checked: CheckedEntity): Outcome<EntityRecord> => {
    if (checked.parentEntityId !== null && byId.get(checked.parentEntityId) === undefined) {
      return failure('NotFound', `Parent entity ${checked.parentEntityId} does not exist.`);
    }
    if (sameName.get(checked.parentEntityId, checked.entityName) !== undefined) {
      return failure('Conflict', `An entity named '${checked.entityName}' already exists under this parent.`);
    }
    const info = insert.run({
      ...checked,
      isTest: checked.isTest ? 1 : 0,
      isTrial: checked.isTrial ? 1 : 0,
      createdAt: now().getTime(),
    });
    const created = getEntity(Number(info.lastInsertRowid));
    if (created === undefined) {
      throw new Error('an inserted entity could not be read back');
    }
    return success(created);
  });

  return {
    createEntity(input) {
      const checked = checkEntityInput(input);
      return checked.ok ? create.immediate(checked.value) : checked;
    },
    getEntity,
    listEntities: () => (all.all() as EntityRow[]).map(toEntity),
    isWithinEntity: (entityId, ancestorId) => within.get(entityId, ancestorId) !== undefined,
  };
}
