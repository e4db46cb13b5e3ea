// The root pino logger, built once by an entry script and passed down; components take log.child({ component }).
// Patient data and credentials never reach a log line: the redact paths below cover the fields that could carry
// them (API secrets, request signatures, session tokens, at the top level, one level down and in request headers).
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

const credentialHeaders = ['authorization', 'x-api-signature', 'x-svc-token'];

// prettier-ignore
const redactPaths = [
  '*.memberId', '*.patientName', '*.firstName', '*.lastName', '*.birthDate', '*.dateOfBirth', '*.dob',
  'secret', 'signature', 'apiSecret', 'svcToken', '*.secret', '*.signature', '*.apiSecret', '*.svcToken',
  ...credentialHeaders.flatMap((h) => [`headers["${h}"]`, `req.headers["${h}"]`, `*.headers["${h}"]`]),
];

/**
 * Creates the root logger, writing JSON lines to stderr (stdout is for command output).
 * @param config - the loaded configuration
 * @param destination - where lines go; tests pass a sink @default stderr
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination: DestinationStream = pino.destination(2),
): Logger {
  return pino({ level: config.logLevel, redact: { paths: redactPaths, censor: '[redacted]' } }, destination);
}
