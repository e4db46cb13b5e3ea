// Raw content replies: what a handler returns to answer with bytes of its own media type instead of its response DTO
// (ResourceRequest serving a file). Successes only: failures stay Outcomes, answered in the negotiated format.
const contentBrand: unique symbol = Symbol('wire.content');

/** Bytes to send as they are, with their media type. */
export interface ContentReply {
  readonly [contentBrand]: true;
  /** The full Content-Type header value (`text/html; charset=utf-8`). */
  readonly contentType: string;
  readonly body: Buffer;
  /** Extra reply headers. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Builds a raw content reply.
 * @param contentType - the Content-Type header value
 * @param body - the bytes
 * @param headers - extra headers (`Cache-Control`, `X-Content-Type-Options`)
 */
export function content(
  contentType: string,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): ContentReply {
  return { [contentBrand]: true, contentType, body, headers };
}

/**
 * Tells a raw content reply from a response DTO or an Outcome.
 * @param value - anything a handler returned
 */
export function isContent(value: unknown): value is ContentReply {
  return typeof value === 'object' && value !== null && contentBrand in value;
}
