// Records that cross the boundary of src/accounts (the application database): what the HTTP operations and the
// keys CLI pass in and get back. Field names follow interface-spec.md where the spec names them (Entity, favorite
// and folder items, Dashboard); dates leave the accounts layer as epoch milliseconds and the wire layer formats them.
import { z } from 'zod';
import type { Failure, FieldError } from './result.js';
import { WireErrorCode, type FieldErrorCode } from './wire-codes.js';

// ---------------------------------------------------------------------------------------------------------------
// Outcomes

/**
 * The error codes an accounts outcome can carry: a subset of the wire codes (src/schemas/wire-codes.ts, wire.md §9),
 * so the HTTP layer hands an accounts failure to its envelope unchanged. `extract` accepts registered codes only.
 */
export const AccountsErrorCode = WireErrorCode.extract([
  'NotEmpty',
  'InvalidValue',
  'NotFound',
  'Conflict',
  'Unauthorized',
  'InvalidSignature',
  'SignatureExpired',
  'SessionExpired',
]);
export type AccountsErrorCode = z.infer<typeof AccountsErrorCode>;

/** One failure about one input field, shaped like an entry of `responseStatus.errors`. */
export type AccountsFieldError = FieldError<Extract<AccountsErrorCode, FieldErrorCode>>;

/** An expected failure of the accounts layer, returned rather than thrown (src/schemas/result.ts). */
export type AccountsFailure = Failure<AccountsErrorCode>;

// ---------------------------------------------------------------------------------------------------------------
// Entities

/** The fields of the `Entity` request (interface-spec.md, "Entity request and response"). */
export const EntityInput = z.object({
  parentEntityId: z.int().optional(),
  entityName: z.string(),
  isTest: z.boolean().optional(),
  isTrial: z.boolean().optional(),
  phoneExt: z.string().optional(),
  phoneNumber: z.string().optional(),
  emailAddress: z.string().optional(),
  addressStreet: z.string().optional(),
  addressSecond: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postalCode: z.string().optional(),
  url: z.string().optional(),
});
export type EntityInput = z.infer<typeof EntityInput>;

/** A stored organisation. Absent optional fields are `null`; `state` is upper-case. */
export const EntityRecord = z.object({
  entityId: z.int(),
  parentEntityId: z.int().nullable(),
  entityName: z.string(),
  isTest: z.boolean(),
  isTrial: z.boolean(),
  phoneExt: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  emailAddress: z.string().nullable(),
  addressStreet: z.string().nullable(),
  addressSecond: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  url: z.string().nullable(),
  /** Epoch milliseconds. */
  createdAt: z.int(),
});
export type EntityRecord = z.infer<typeof EntityRecord>;

// ---------------------------------------------------------------------------------------------------------------
// API keys, signatures, sessions

/** What a key is issued for. `entityId` absent: a new top-level entity is created for the key. */
export const ApiKeyInput = z.object({
  userName: z.string(),
  entityId: z.int().optional(),
});
export type ApiKeyInput = z.infer<typeof ApiKeyInput>;

/** A key as listed: never its secret. */
export const ApiKeyInfo = z.object({
  apiKey: z.string(),
  userName: z.string(),
  entityId: z.int(),
  /** Epoch milliseconds. */
  createdAt: z.int(),
  /** Epoch milliseconds; `null` while the key is active. */
  revokedAt: z.int().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

/** The answer of key creation: the only record that ever carries the secret. */
export const CreatedApiKey = z.object({
  apiKey: z.string(),
  secret: z.string(),
  entityId: z.int(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** Who is calling, once a signature or a session has been verified. */
export const Principal = z.object({
  apiKey: z.string(),
  entityId: z.int(),
  userName: z.string(),
});
export type Principal = z.infer<typeof Principal>;

/** The signed headers of a call (`X-Api-Key`, `X-Api-User`, `X-Api-Timestamp`, `X-Api-Signature`). */
export const SignedRequest = z.object({
  apiKey: z.string(),
  userName: z.string(),
  /** ISO 8601; normalised to `yyyy-MM-ddTHH:mm:ss.fffZ` before it is signed. */
  timestamp: z.string(),
  /** Base64(HMAC-SHA256(secret, signableString)). */
  signature: z.string(),
});
export type SignedRequest = z.infer<typeof SignedRequest>;

/** The fields of the `SigStringBasic` request that the signable string is made from. */
export const SigStringInput = z.object({
  apiKey: z.string().optional(),
  userName: z.string().optional(),
  timeStampIso8601: z.string().optional(),
  /** ISO 8601 with offset, or the wire form `/Date(ms+hhmm)/`. */
  timeStamp: z.string().optional(),
});
export type SigStringInput = z.infer<typeof SigStringInput>;

/** The computed part of the `SigStringBasic` response. */
export const SigString = z.object({
  timeStampUtc: z.string(),
  signableString: z.string(),
});
export type SigString = z.infer<typeof SigString>;

/** A session opened by `Authenticate`. `svcToken` is returned once; only its SHA-256 is stored. */
export const OpenedSession = z.object({
  svcToken: z.string(),
  principal: Principal,
  /** Epoch milliseconds of the idle expiry as of now (it slides with use). */
  idleExpiresAt: z.int(),
  /** Epoch milliseconds of the absolute expiry. */
  expiresAt: z.int(),
});
export type OpenedSession = z.infer<typeof OpenedSession>;

/** The answer of a session check. */
export const SessionCheck = z.discriminatedUnion('valid', [
  z.object({ valid: z.literal(true), principal: Principal }),
  z.object({ valid: z.literal(false), reason: z.enum(['unknown', 'expired']) }),
]);
export type SessionCheck = z.infer<typeof SessionCheck>;

// ---------------------------------------------------------------------------------------------------------------
// Favorites and folders

/** Favorite item (interface-spec.md, "Search suggestion, favorites and folders"). */
export const FavoriteItem = z.object({
  folderName: z.string(),
  id: z.int(),
  label: z.string(),
  value: z.string(),
});
export type FavoriteItem = z.infer<typeof FavoriteItem>;

/** Folder item (interface-spec.md). */
export const FolderItem = z.object({
  folderId: z.int(),
  folderName: z.string(),
});
export type FolderItem = z.infer<typeof FolderItem>;

/** `FavoriteAdd` (ext): the folder is created when it does not exist yet. */
export const FavoriteAdd = z.object({ folderName: z.string(), label: z.string(), value: z.string() });
export type FavoriteAdd = z.infer<typeof FavoriteAdd>;

/** `FavoriteRemove` (ext). */
export const FavoriteRemove = z.object({ id: z.int() });
export type FavoriteRemove = z.infer<typeof FavoriteRemove>;

/** `FolderCreate` (ext). */
export const FolderCreate = z.object({ folderName: z.string() });
export type FolderCreate = z.infer<typeof FolderCreate>;

/** `FolderRename` (ext): `folderName` is the new name. */
export const FolderRename = z.object({ folderId: z.int(), folderName: z.string() });
export type FolderRename = z.infer<typeof FolderRename>;

/** `FolderDelete` (ext): removes the folder and its favorites. */
export const FolderDelete = z.object({ folderId: z.int() });
export type FolderDelete = z.infer<typeof FolderDelete>;

// ---------------------------------------------------------------------------------------------------------------
// Usage and rate limits

/** One row of the full usage report: calls of one operation by one user of an entity on one UTC day. */
export const UsageRow = z.object({
  entityId: z.int(),
  userName: z.string(),
  operation: z.string(),
  /** UTC day, `yyyy-MM-dd`. */
  day: z.string(),
  count: z.int(),
});
export type UsageRow = z.infer<typeof UsageRow>;

/** Counters of the usage buffer since the database was opened. */
export const UsageStats = z.object({
  /** Calls recorded. */
  recorded: z.int(),
  /** Distinct (entity, user, operation, day) rows waiting in memory. */
  pendingRows: z.int(),
  /** Write transactions run (one per non-empty flush). */
  flushes: z.int(),
  /** Rows upserted over all flushes. */
  rowsWritten: z.int(),
});
export type UsageStats = z.infer<typeof UsageStats>;

/** The per-key token bucket (issue 3: default 50 requests/s with bursts of 100). */
export const RateLimitConfig = z.strictObject({
  /** Tokens added per second. @default 50 */
  perSecond: z.number().positive(),
  /** Bucket size: the largest burst. @default 100 */
  burst: z.int().min(1),
});
export type RateLimitConfig = z.infer<typeof RateLimitConfig>;

// ---------------------------------------------------------------------------------------------------------------
// Dashboard

/** A webinar as the content file holds it: dates are ISO 8601 date-times with offset. */
export const WebinarContent = z.strictObject({
  entryId: z.int(),
  entryName: z.string(),
  boldedEntryName: z.string(),
  trainingUrl: z.string(),
  scheduleOn: z.iso.datetime({ offset: true }),
  scheduleOnText: z.string(),
  displayOn: z.iso.datetime({ offset: true }),
  displayOnText: z.string(),
  timeZone: z.string(),
  bolded: z.boolean(),
});
export type WebinarContent = z.infer<typeof WebinarContent>;

/** A feature document (interface-spec.md, "Dashboard response"). */
export const FeatureDocument = z.strictObject({
  productName: z.string(),
  sourceUrl: z.string(),
  mimeType: z.string(),
});
export type FeatureDocument = z.infer<typeof FeatureDocument>;

/** A training material (interface-spec.md, "Dashboard response"). */
export const TrainingMaterial = z.strictObject({
  productName: z.string(),
  mediaType: z.string(),
  title: z.string(),
  tooltip: z.string(),
  htmlDescription: z.string(),
  previewImageUrl: z.string(),
  bolded: z.boolean(),
});
export type TrainingMaterial = z.infer<typeof TrainingMaterial>;

/** The committed content file `data/dashboard.json`. */
export const DashboardContent = z.strictObject({
  webinars: z.array(WebinarContent),
  featureDocuments: z.array(FeatureDocument),
  trainingMaterials: z.array(TrainingMaterial),
});
export type DashboardContent = z.infer<typeof DashboardContent>;

/** A webinar as the accounts layer returns it: dates as epoch milliseconds. */
export const Webinar = WebinarContent.extend({ scheduleOn: z.int(), displayOn: z.int() });
export type Webinar = z.infer<typeof Webinar>;

/** The dashboard as read from the application database. */
export const Dashboard = z.object({
  webinars: z.array(Webinar),
  featureDocuments: z.array(FeatureDocument),
  trainingMaterials: z.array(TrainingMaterial),
});
export type Dashboard = z.infer<typeof Dashboard>;
