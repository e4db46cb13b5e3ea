// ResponseStatus and ResponseError (wire.md §9), the schemas every response ends with, and `responseOf()`, which
// declares an operation's response with `responseStatus` as its last member.
import { z } from 'zod';

/** One field-level error. */
export const ResponseError = z
  .object({
    errorCode: z.string(),
    fieldName: z.string(),
    message: z.string(),
  })
  .meta({ id: 'ResponseError' });
export type ResponseError = z.infer<typeof ResponseError>;

/** The status block of every non-one-way reply: `{}` on success, the error envelope on failure. */
export const ResponseStatus = z
  .object({
    errorCode: z.string().optional(),
    message: z.string().optional(),
    stackTrace: z.string().optional(),
    errors: z.array(ResponseError).optional(),
  })
  .meta({ id: 'ResponseStatus' });
export type ResponseStatus = z.infer<typeof ResponseStatus>;

/**
 * Declares a response schema: the given members in order, then `responseStatus`, under the schema id `id`.
 * @param id - the response type name, `<Op>Response`
 * @param shape - the response members in the spec's order
 */
export function responseOf<S extends z.ZodRawShape>(
  id: string,
  shape: S,
): z.ZodObject<S & { responseStatus: z.ZodOptional<typeof ResponseStatus> }> {
  return z.object({ ...shape, responseStatus: ResponseStatus.optional() }).meta({ id });
}

/** The body of an error reply: `responseStatus` and nothing else (wire.md §9). */
export const ErrorResponse = z.object({ responseStatus: ResponseStatus }).meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
