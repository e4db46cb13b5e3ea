// Infrastructure failures (style.md guideline 6): one base class with a closed set of codes. Bad input records
// in claim files are findings, not errors; these are for broken files, configuration and I/O.
// ErrorCodes is deliberately a registry apart from the two vocabularies of expected outcomes: finding codes
// (src/findings/codes.ts, what a claim check reports) and wire error codes (src/schemas/wire-codes.ts, the failures
// accounts, the HTTP operations and FHIR return as values). A ScrubberError is thrown, never answered as a code: the
// shim turns an uncaught one into a 500 InternalError and logs it.

/** Codes of infrastructure errors. */
export const ErrorCodes = {
  REF_PARSE: 'a reference source file could not be parsed',
  REF_SOURCE: 'a reference source file is missing or unreadable',
  REF_DB: 'the reference database is missing, stale or inconsistent',
  REF_FETCH: 'an official file could not be downloaded or failed its checksum',
  INPUT_FORMAT: 'an input file is not in the expected format',
  OUTPUT: 'a report or checkpoint could not be written',
  CONFIG: 'the configuration is invalid',
  APP_DB: 'the application database is unreadable or was written by a newer program',
} as const;
export type ErrorCode = keyof typeof ErrorCodes;

/** Base class of every infrastructure error this product throws. */
export class ScrubberError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = 'ScrubberError';
  }
}

/** A report, checkpoint or other output could not be written (the scrubber's exit status 4). */
export class OutputError extends ScrubberError {
  constructor(message: string, options?: ErrorOptions) {
    super('OUTPUT', message, options);
    this.name = 'OutputError';
  }
}

/** The code of a file-system error (`ENOSPC`), else the error as text: what a user needs in a one-line message. */
export function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

/** Where in a source file something went wrong. `line` is 1-based; for XLSX it is the sheet row. */
export interface SourcePosition {
  readonly file: string;
  readonly member?: string | undefined;
  readonly line?: number | undefined;
}

/** Formats a position as `file[member]:line`. */
export function formatPosition(pos: SourcePosition): string {
  const member = pos.member === undefined ? '' : `[${pos.member}]`;
  const line = pos.line === undefined ? '' : `:${pos.line}`;
  return `${pos.file}${member}${line}`;
}

/** A reference source file that is malformed or unreadable; carries the file, member and line. */
export class ReferenceDataError extends ScrubberError {
  readonly position: SourcePosition;
  constructor(position: SourcePosition, message: string, options?: ErrorOptions & { code?: ErrorCode }) {
    super(options?.code ?? 'REF_PARSE', `${formatPosition(position)}: ${message}`, options);
    this.position = position;
    this.name = 'ReferenceDataError';
  }
}

/** Invalid configuration (argv or environment). */
export class ConfigError extends ScrubberError {
  constructor(message: string) {
    super('CONFIG', message);
    this.name = 'ConfigError';
  }
}
