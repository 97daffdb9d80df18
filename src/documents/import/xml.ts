// The few XML facts validation needs from package parts (content types, relationships), read with
// htmlparser2 in XML mode: it never resolves entities beyond the five predefined ones and fetches
// nothing, and a DTD has already been refused before any part is parsed (./package.ts).
import { Parser } from "htmlparser2";

/** The attributes of every element whose local name (prefix ignored) is `localName`, in document order. */
export function elementsNamed(xml: string, localName: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const colon = name.indexOf(":");
        if ((colon < 0 ? name : name.slice(colon + 1)) === localName) found.push(attributes);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return found;
}

/** An attribute by its local name, whatever prefix it was written with. */
export function attribute(attributes: Record<string, string>, localName: string): string | undefined {
  if (localName in attributes) return attributes[localName];
  for (const [name, value] of Object.entries(attributes)) if (name.endsWith(`:${localName}`)) return value;
  return undefined;
}
