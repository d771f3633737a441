// CSV for a seller's data export (issue 35), RFC 4180: a cell with a comma, a quote or a line break is quoted, its
// quotes doubled. A text cell a spreadsheet would read as a formula (starting with = + - @, or a tab or carriage
// return that some strip first) gets a leading apostrophe, so opening the export never runs what a buyer typed into
// a note or an address (OWASP "CSV injection"). Linear in the cell's length: one pass, no pattern that backtracks.

const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** One value as CSV text: null and undefined are empty, dates ISO 8601, arrays space-separated, objects JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (Array.isArray(value)) text = value.map(String).join(' ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (text.length > 0 && FORMULA_STARTS.has(text[0]!)) text = `'${text}`;
  let needsQuotes = false;
  for (let index = 0; index < text.length && !needsQuotes; index++) {
    const char = text[index];
    needsQuotes = char === ',' || char === '"' || char === '\n' || char === '\r';
  }
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ended by CRLF as RFC 4180 has it. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
