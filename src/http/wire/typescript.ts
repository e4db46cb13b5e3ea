// GET /types/typescript (wire.md §12): DTO classes for @servicestack/client, rendered from the schemas. The output is
// prettier-stable (width 120, single quotes) because a test compares it byte for byte with test/fixtures/dtos.ts.
import type { Operation } from './operation.js';
import type { ObjectShape, Shape } from './shape.js';

/** The Options header values (`npx get-dtos typescript <url>` reads and rewrites them). */
export interface DtoOptions {
  readonly date: Date;
  readonly version: string;
  readonly baseUrl: string;
}

const BUILTIN_TYPES = new Set(['ResponseStatus', 'ResponseError']);

function tsType(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'string';
    case 'int':
    case 'number':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'date':
    case 'datetime':
      return 'string';
    case 'array': {
      const item = tsType(shape.item);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case 'object':
      return shape.id ?? `{ ${shape.fields.map((f) => `${f.name}?: ${tsType(f.shape)}`).join('; ')} }`;
    case 'record':
      return `{ [index: string]: ${tsType(shape.value)} }`;
    case 'any':
      return 'unknown';
  }
}

function collectNamed(shape: Shape, out: Map<string, ObjectShape>, skip: ReadonlySet<string>): void {
  switch (shape.kind) {
    case 'object':
      if (shape.id !== undefined && !skip.has(shape.id) && !out.has(shape.id)) {
        out.set(shape.id, shape);
      }
      for (const f of shape.fields) {
        collectNamed(f.shape, out, skip);
      }
      break;
    case 'array':
      collectNamed(shape.item, out, skip);
      break;
    case 'record':
      collectNamed(shape.value, out, skip);
      break;
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'datetime':
    case 'any':
      break;
  }
}

function fields(shape: ObjectShape): string {
  return shape.fields.map((f) => `  public ${f.name}?: ${tsType(f.shape)};\n`).join('');
}

function constructorOf(name: string): string {
  return `  public constructor(init?: Partial<${name}>) {\n    Object.assign(this, init);\n  }\n`;
}

function plainClass(name: string, shape: ObjectShape): string {
  const body = fields(shape);
  return `export class ${name} {\n${body}${body === '' ? '' : '\n'}${constructorOf(name)}}\n`;
}

function requestClass(op: Operation): string {
  const name = op.name;
  const ret = op.oneWay ? 'IReturnVoid' : `IReturn<${name}Response>`;
  const body = fields(op.requestShape);
  const create = op.oneWay
    ? '  public createResponse(): void {}\n'
    : `  public createResponse(): ${name}Response {\n    return new ${name}Response();\n  }\n`;
  return (
    `export class ${name} implements ${ret} {\n${body}${body === '' ? '' : '\n'}${constructorOf(name)}` +
    `  public getTypeName(): string {\n    return '${name}';\n  }\n` +
    `  public getMethod(): string {\n    return 'POST';\n  }\n` +
    `${create}}\n`
  );
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * Renders the DTO file.
 * @param operations - the registered operations
 * @param options - the Options header values
 */
export function renderTypeScriptDtos(operations: readonly Operation[], options: DtoOptions): string {
  const d = options.date;
  const stamp = `${String(d.getUTCFullYear())}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  const ops = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const opTypes = new Set([...BUILTIN_TYPES, ...ops.flatMap((op) => [op.name, `${op.name}Response`])]);
  const named = new Map<string, ObjectShape>();
  for (const op of ops) {
    collectNamed(op.requestShape, named, opTypes);
    collectNamed(op.responseShape, named, opTypes);
  }
  const parts = [
    `/* Options:\nDate: ${stamp}\nVersion: ${options.version}\nTip: To override a DTO option, remove "//" prefix before updating\nBaseUrl: ${options.baseUrl}\n\n//AddServiceStackTypes: True\n//IncludeTypes:\n//ExcludeTypes:\n*/\n`,
    'export interface IReturn<T> {\n  createResponse(): T;\n}\n',
    'export interface IReturnVoid {\n  createResponse(): void;\n}\n',
    'export class ResponseError {\n  public errorCode?: string;\n  public fieldName?: string;\n  public message?: string;\n\n' +
      constructorOf('ResponseError') +
      '}\n',
    'export class ResponseStatus {\n  public errorCode?: string;\n  public message?: string;\n  public stackTrace?: string;\n  public errors?: ResponseError[];\n\n' +
      constructorOf('ResponseStatus') +
      '}\n',
    ...[...named.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, shape]) => plainClass(id, shape)),
    ...ops.flatMap((op) => [plainClass(`${op.name}Response`, op.responseShape), requestClass(op)]),
  ];
  return parts.join('\n');
}
