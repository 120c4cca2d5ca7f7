// Shared by the Netscape reader and writer so that what one writes the other reads back.

/** Element text as read: newlines normalised as the HTML spec does, indentation trimmed. */
export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\n': '&#10;',
  '\r': '&#13;',
};

export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITIES[c] ?? c);
}

// Newlines are escaped too: a raw line break inside an attribute is legal but some
// importers read the file line by line.
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\r\n]/g, (c) => ENTITIES[c] ?? c);
}
