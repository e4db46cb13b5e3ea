// The root pino logger, built once by an entry script and passed down; components take log.child({ component }).
// Patient data never reaches a log line: the redact paths below cover the fields that could carry it.
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

const redactPaths = [
  '*.memberId', '*.patientName', '*.firstName', '*.lastName', '*.birthDate', '*.dateOfBirth', '*.dob',
  '*.secret', '*.signature', '*.apiSecret', 'req.headers.authorization',
];

/**
 * Creates the root logger, writing JSON lines to stderr (stdout is for command output).
 * @param config - the loaded configuration
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: { paths: redactPaths, censor: '[redacted]' } }, pino.destination(2));
}
