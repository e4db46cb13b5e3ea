// Streaming XML over saxes: the document is fed chunk by chunk, never held as one string. Untrusted XML never
// resolves entities: a DOCTYPE is refused outright (official CDC/CMS XML has none), and saxes itself knows only
// the five predefined entities.
import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** Callbacks for a streamed XML document. `line` is the parser's current 1-based line. */
export interface XmlHandlers {
  onOpen?: (name: string, attributes: Readonly<Record<string, string>>, line: number) => void;
  onClose?: (name: string, line: number) => void;
  onText?: (text: string, line: number) => void;
}

/** An XML document that is not well-formed or carries a DOCTYPE; `line` is 1-based. */
export class XmlSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
    this.name = 'XmlSyntaxError';
  }
}

/** A push parser: feed it chunks of UTF-8 bytes, then call `end()`. */
export interface XmlPushParser {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * Creates a push parser calling the handlers as elements open, close and carry text. Handlers run synchronously
 * inside `write`, so a handler may write to a database synchronously or throw to abort.
 * @throws XmlSyntaxError (from `write`/`end`) on malformed XML or any DOCTYPE
 */
export function createXmlParser(handlers: XmlHandlers): XmlPushParser {
  const parser = new SaxesParser({ position: true });
  // Stop at the first error: thrown from inside write(), before any later handler sees a broken structure, so the
  // reported line is the line of the fault.
  parser.on('error', (err) => {
    throw new XmlSyntaxError(err.message, parser.line);
  });
  parser.on('doctype', () => {
    throw new XmlSyntaxError('DOCTYPE declarations are not accepted', parser.line);
  });
  if (handlers.onOpen) {
    const onOpen = handlers.onOpen;
    parser.on('opentag', (tag) => onOpen(tag.name, (tag as SaxesTagPlain).attributes, parser.line));
  }
  if (handlers.onClose) {
    const onClose = handlers.onClose;
    parser.on('closetag', (tag) => onClose(tag.name, parser.line));
  }
  if (handlers.onText) {
    const onText = handlers.onText;
    parser.on('text', (text) => onText(text, parser.line));
    parser.on('cdata', (text) => onText(text, parser.line));
  }
  const decoder = new TextDecoder('utf-8');
  return {
    write(chunk: Buffer): void {
      parser.write(decoder.decode(chunk, { stream: true }));
    },
    end(): void {
      parser.write(decoder.decode());
      parser.close();
    },
  };
}

/**
 * Parses a whole XML byte stream (UTF-8) with the given handlers.
 * @throws XmlSyntaxError on malformed XML or any DOCTYPE
 */
export async function parseXml(stream: Readable, handlers: XmlHandlers): Promise<void> {
  const parser = createXmlParser(handlers);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parser.write(chunk);
  }
  parser.end();
}
