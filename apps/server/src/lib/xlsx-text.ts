/** The text rules of a cell, used by the sheet writer and by the backup's converter alike. */
const MAX_TEXT = 32_767;
// Characters XML 1.0 does not allow, and surrogates that do not form a pair.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g; // eslint-disable-line no-control-regex
const FORMULA_START = /^[=+\-@\t\r\u0000]/; // eslint-disable-line no-control-regex
/** Escapes text for XML content and attribute values. */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
/** Text as a cell may hold it: XML-safe, at most 32,767 characters, formulas neutralised. */
export const cellText = (text: string, neutraliseFormulas = true): string => {
  let clean = text.replace(NOT_XML, '');
  if (neutraliseFormulas && (FORMULA_START.test(text) || FORMULA_START.test(clean))) {
    clean = `'${clean}`;
  }
  return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT).replace(NOT_XML, '') : clean;
};
