// Which claim files to read and in what format (issue 12 §2): folders are walked (sorted, hidden files skipped),
// gzip and ZIP are opened transparently (a ZIP's members are inputs of their own), and the format is recognised
// by content whatever the file is called: an ISA segment is X12, a `{` line is NDJSON, a header row naming
// `claimId` is CSV. UTF-16, binary and unrecognised files are refused with the reason.
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ScrubberError } from '../../errors.js';
import type { InputFormat } from '../../schemas/scrub.js';
import { readHead, readHeadUpToFault, zipMembers, type ByteLocation } from '../byte-source.js';

/** One claim input: a file, or a member of a ZIP, with its recognised format. */
export interface ClaimInput {
  /** As reports name it: the path, or `path[member]`. */
  readonly name: string;
  readonly location: ByteLocation;
  /** `undefined` when the file is not a claim file that can be read (see `error`). */
  readonly format: InputFormat | undefined;
  /** Why the file cannot be read as claims (empty, binary, UTF-16, unrecognised): the run reports it and goes on. */
  readonly error?: string | undefined;
  /** An X12 input's ISA15, test (`T`) or production (`P`) data, when its first ISA says so: its 277CA says the same. */
  readonly usage?: 'P' | 'T' | undefined;
}

/** The input of a file, or its reason for not being one when its content is not a claim file's. */
async function inputOf(
  name: string,
  location: ByteLocation,
  head: () => Promise<{ bytes: Buffer; fault?: Error }>,
): Promise<ClaimInput> {
  try {
    const { bytes, fault } = await head();
    // Bytes read before a fault are recognised (their claims are scrubbed); when they are none, or no claim file's,
    // the fault is the reason.
    let format: InputFormat;
    try {
      format = recogniseClaimFormat(bytes, name);
    } catch (e) {
      throw fault ?? e;
    }
    const usage = format === 'x12' ? usageOf(bytes) : undefined;
    return { name, location, format, ...(usage === undefined ? {} : { usage }) };
  } catch (e) {
    // Any fault reading the first bytes that leaves no claim file to read (a gzip cut short in its first bytes, a
    // corrupt ZIP member, a file that cannot be opened) is this input's: it is named in the summary and the other
    // inputs are scrubbed.
    const reason = e instanceof ScrubberError ? e.message : `${name}: cannot read: ${e instanceof Error ? e.message : String(e)}`;
    return notRead(name, location, reason);
  }
}

/** ISA15 of the ISA an X12 file's first bytes open with (the element separator is the byte after `ISA`). */
function usageOf(head: Buffer): 'P' | 'T' | undefined {
  const text = head.toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart();
  const isa15 = text.split(text[3] ?? '*')[15]?.trim();
  return isa15 === 'T' || isa15 === 'P' ? isa15 : undefined;
}

/**
 * Recognises a claim file's format from its first bytes (after decompression).
 * @param head - the first bytes, up to a few KB
 * @param name - for the error message
 * @throws ScrubberError INPUT_FORMAT for UTF-16, binary or unrecognised content
 */
export function recogniseClaimFormat(head: Buffer, name: string): InputFormat {
  if (head.length === 0) {
    throw new ScrubberError('INPUT_FORMAT', `${name}: the file is empty`);
  }
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new ScrubberError('INPUT_FORMAT', `${name}: UTF-16 text; save the file as UTF-8 (or ASCII for X12)`);
  }
  const sample = head.subarray(0, Math.min(head.length, 512));
  const zeros = sample.filter((b) => b === 0).length;
  if (zeros > 0 && zeros * 2 >= sample.length - 1) {
    throw new ScrubberError('INPUT_FORMAT', `${name}: UTF-16 text without a byte order mark; save it as UTF-8`);
  }
  const text = head.toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart();
  if (text === '') {
    throw new ScrubberError('INPUT_FORMAT', `${name}: no claims: the file is blank (a byte order mark, spaces or line breaks only)`);
  }
  const format = formatOfText(text);
  if (format !== undefined) {
    // A stray NUL byte in a claim file's first bytes makes its own row or segment unreadable, as one further on does.
    return format;
  }
  if (zeros > 0) {
    throw new ScrubberError('INPUT_FORMAT', `${name}: binary content, not a claim file`);
  }
  throw new ScrubberError(
    'INPUT_FORMAT',
    `${name}: not a claim file: expected an X12 837 (ISA...), NDJSON claims ({...} per line) or a CSV whose header names claimId`,
  );
}

/** The claim format a file's text (BOM and leading blanks dropped) opens with, if any. */
function formatOfText(text: string): InputFormat | undefined {
  if (text.startsWith('ISA')) {
    return 'x12';
  }
  if (text.startsWith('{')) {
    return 'ndjson';
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  return /(^|[,"\s])claimid("|\s*,|\s*$)/i.test(firstLine) ? 'csv' : undefined;
}

const isGzip = (b: Buffer): boolean => b[0] === 0x1f && b[1] === 0x8b;

/**
 * Whether a ZIP member may be a claim file: not a folder, and not hidden, as a folder's hidden files are not (a
 * name starting with a dot, or under one, such as the `__MACOSX/._claims.csv` resource forks macOS adds to every
 * archive it makes; `./claims.csv` is no hidden name).
 */
function isClaimMember(member: string): boolean {
  const parts = member.split('/');
  return !member.endsWith('/') && !parts.some((p) => (p.startsWith('.') && p !== '.') || p === '__MACOSX');
}
/** A ZIP archive: a local file header, or the end record alone of an empty archive. */
const isZip = (b: Buffer): boolean =>
  b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 0x03 && b[3] === 0x04) || (b[2] === 0x05 && b[3] === 0x06));

/** An input that cannot be read as claims, with the reason the summary names it by. */
function notRead(name: string, location: ByteLocation, reason: string): ClaimInput {
  return { name, location, format: undefined, error: reason };
}

/** The first bytes of a plain file. */
async function fileHead(path: string, n: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Every file under a folder, sorted by name, hidden files and folders skipped. */
async function walk(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => !e.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      out.push(...(await walk(path)));
    } else if (e.isFile()) {
      out.push(path);
    }
  }
  return out;
}

/**
 * Lists the claim inputs under the given files and folders, each with its format, in the order given (folders
 * sorted by name).
 * @param paths - files or folders
 * @param skip - file names to leave out (e.g. the expected reports that sit beside sample files)
 * @param repeated - told of a file reached a second time (named twice, or through overlapping folders or a link):
 *   it is read once, where it was first reached, so no claim is scrubbed (and acknowledged) twice
 * @returns the inputs; a file whose content is not a claim file's is one with its `error`
 * @throws ScrubberError INPUT_FORMAT naming the first path that is missing or cannot be opened
 */
export async function listClaimInputs(
  paths: readonly string[],
  skip: (path: string) => boolean = () => false,
  repeated: (path: string, first: string) => void = () => undefined,
): Promise<ClaimInput[]> {
  const inputs: ClaimInput[] = [];
  /** Each file reached, by its real path, with the name it was first reached under. */
  const reached = new Map<string, string>();
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = (await stat(p)).isDirectory();
    } catch (e) {
      throw new ScrubberError('INPUT_FORMAT', `${p}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    const files = isDir ? (await walk(p)).filter((f) => !skip(f)) : [p];
    for (const path of files) {
      let head: Buffer;
      try {
        const real = await realpath(path);
        const first = reached.get(real);
        if (first !== undefined) {
          repeated(path, first);
          continue;
        }
        reached.set(real, path);
        head = await fileHead(path, 8192);
      } catch (e) {
        throw new ScrubberError('INPUT_FORMAT', `${path}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
      if (isZip(head)) {
        let members: string[];
        try {
          members = (await zipMembers(path)).filter(isClaimMember).sort();
        } catch (e) {
          // A ZIP cut short or damaged (no central directory to list its members): this input's fault, named in the
          // summary, and the other inputs are scrubbed.
          inputs.push(notRead(path, { path, gzip: false }, `${path}: cannot read the ZIP archive: ${e instanceof Error ? e.message : String(e)}`));
          continue;
        }
        if (members.length === 0) {
          inputs.push(
            notRead(path, { path, gzip: false }, `${path}: no claims: the ZIP archive holds no claim file (folders, hidden files and macOS resource forks are skipped)`),
          );
          continue;
        }
        for (const member of members) {
          const name = `${path}[${member}]`;
          // A gzip file inside the archive is read through both, as one beside it would be.
          let gzip = false;
          try {
            gzip = isGzip(await readHead({ path, member, gzip: false }, 2));
          } catch {
            // The member cannot be read: inputOf says so.
          }
          const location = { path, member, gzip };
          inputs.push(await inputOf(name, location, () => readHeadUpToFault(location, 8192)));
        }
        continue;
      }
      const location = isGzip(head) ? { path, gzip: true } : { path, gzip: false };
      inputs.push(await inputOf(path, location, () => (isGzip(head) ? readHeadUpToFault(location, 8192) : Promise.resolve({ bytes: head }))));
    }
  }
  return inputs;
}
