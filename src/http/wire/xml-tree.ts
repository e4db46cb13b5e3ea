// XML request bodies as a small element tree (wire.md §5), parsed by the project's saxes reader, which refuses any
// DOCTYPE and expands only the five predefined entities and character references. Prefixes are dropped, so
// namespaces and prefixes carry no meaning; `i:nil="true"` marks an absent value.
import { createXmlParser } from '../../readers/xml.js';

/** One element of a request body. */
export interface XmlNode {
  /** Local name as written (prefix dropped). */
  readonly name: string;
  readonly children: XmlNode[];
  /** The element's own text (CDATA included), children's text excluded. */
  text: string;
  /** `i:nil="true"` (any prefix). */
  readonly nil: boolean;
}

const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

/**
 * Parses an XML document into its root element.
 * @param body - the UTF-8 request body
 * @throws XmlSyntaxError on malformed XML, a DOCTYPE, an undefined entity or a document without a root
 */
export function parseXmlTree(body: Buffer): XmlNode {
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  const parser = createXmlParser({
    onOpen(name, attributes) {
      let nil = false;
      for (const [attr, value] of Object.entries(attributes)) {
        if (localName(attr).toLowerCase() === 'nil' && value.trim().toLowerCase() === 'true') {
          nil = true;
        }
      }
      const node: XmlNode = { name: localName(name), children: [], text: '', nil };
      const parent = stack.at(-1);
      if (parent) {
        parent.children.push(node);
      } else {
        root ??= node;
      }
      stack.push(node);
    },
    onClose() {
      stack.pop();
    },
    onText(text) {
      const top = stack.at(-1);
      if (top) {
        top.text += text;
      }
    },
  });
  parser.write(body);
  parser.end();
  if (root === undefined) {
    throw new SyntaxError('The XML document has no root element');
  }
  return root;
}
