import pg from 'pg';
import type { BackupColumnKind, BackupTable } from './backup-tables.js';

/**
 * The SQL that has PostgreSQL turn each row of a backed-up table into its sheet row, the XML the
 * streaming XLSX writer would write for it (xlsx-writer.ts), so Node only moves bytes into the
 * deflate stream. Cells carry no `r` reference (optional in SpreadsheetML: a cell follows the one
 * before it, a row the row before it), so the same row text fits whichever sheet it lands in;
 * an empty cell is therefore written as `<c/>`, which keeps the next ones in their columns.
 *
 * Text gets what `cellText` and `escapeXml` give it: characters XML 1.0 forbids dropped, a
 * leading = + - @ tab or CR neutralised with a `'`, cut at 32,767 characters, & < > " escaped.
 * The row goes out through `COPY ... TO STDOUT` in text format, which would escape backslash,
 * tab, newline and CR: those are written as character references instead (&#92; &#9; &#10;
 * &#13;, equal in XML), so a row is exactly one COPY line, as it is, ended by a newline.
 */

/** Characters XML 1.0 forbids that a PostgreSQL text can hold (it never holds NUL). */
const NOT_XML = [
  ...Array.from({ length: 31 }, (_, i) => i + 1).filter((c) => c !== 9 && c !== 10 && c !== 13),
  0xfffe,
  0xffff,
]
  .map((c) => `chr(${c})`)
  .join(' || ');

/** Code points (of the cleaned text's first character) that make a spreadsheet run a formula. */
const FORMULA_START = 'ascii(%s) IN (61, 43, 45, 64, 9, 13)'; // = + - @ tab CR

const TEXT_CELL = '<c t="inlineStr"><is><t xml:space="preserve">';
const PLAIN_TEXT_CELL = '<c t="inlineStr"><is><t>';
const TEXT_END = '</t></is></c>';
/** Style 2 is the date format of the writer's styles.xml. */
const DATE_CELL = '<c s="2"><v>';

const lit = (s: string) => pg.escapeLiteral(s);

/** A column of a PostgreSQL type whose text never needs escaping nor neutralising. */
const SAFE_TYPES = new Set(['uuid', 'boolean']);

function xmlText(value: string): string {
  let x = `replace(${value}, '&', '&amp;')`;
  for (const [from, to] of [
    ["'<'", '&lt;'],
    ["'>'", '&gt;'],
    ["'\"'", '&quot;'],
    ['chr(9)', '&#9;'],
    ['chr(10)', '&#10;'],
    ['chr(13)', '&#13;'],
    ['chr(92)', '&#92;'],
  ] as const) {
    x = `replace(${x}, ${from}, ${lit(to)})`;
  }
  return x;
}

/** Integer types: their float8 is never NaN nor infinite. */
const INTEGER_TYPES = new Set(['smallint', 'integer', 'bigint']);

/**
 * Whether a text needs more than the fast path (as it is, a `'` before a formula start): an XML
 * special, a character XML forbids, tab, newline, CR or backslash (COPY), or past the length
 * cap (bytes bound characters). A regular expression is far cheaper than translate() on every
 * value, and few values match.
 */
const NEEDS_WORK = String.raw`~ '[&<>"\\\x01-\x1f\ufffe\uffff]'`;

/** The cell XML of one column, NULL when the cell is empty. */
export function cellSql(column: string, kind: BackupColumnKind, pgType = 'text'): string {
  const col = pg.escapeIdentifier(column);
  if (kind === 'int') {
    const finite = INTEGER_TYPES.has(pgType)
      ? `${col} IS NOT NULL`
      : `${col} IS NOT NULL AND ${col}::float8 NOT IN ('NaN', 'Infinity', '-Infinity')`;
    return `CASE WHEN ${finite} THEN '<c><v>' || ${col}::float8::text || '</v></c>' END`;
  }
  if (kind === 'date') {
    // What the writer makes of a Date: whole epoch milliseconds (cut toward zero, as a Date
    // does) / 86,400,000 + 25,569 in float8, as JavaScript computes it, printed shortest-exact
    // as JavaScript prints it. date_part is float8 (extract's numeric is far slower): rounded
    // to whole microseconds it is exact again.
    const ms = `(round(date_part('epoch', ${col}) * 1000000)::int8 / 1000)::float8`;
    return `CASE WHEN ${col} IS NOT NULL AND isfinite(${col}) THEN ${lit(DATE_CELL)} ||
      (${ms} / 86400000::float8 + 25569::float8)::text || '</v></c>' END`;
  }
  const text = `${col}::text`;
  if (SAFE_TYPES.has(pgType)) {
    return `CASE WHEN ${text} <> '' THEN ${lit(PLAIN_TEXT_CELL)} || ${text} || ${lit(TEXT_END)} END`;
  }
  const formula = (x: string) => FORMULA_START.replace('%s', x);
  const clean = `translate(${text}, ${NOT_XML}, '')`;
  const neutral = `CASE WHEN ${formula(text)}
      OR (ascii(${text}) < 32 AND ${formula(clean)}) THEN '''' ELSE '' END`;
  const full = xmlText(`left(${neutral} || ${clean}, 32767)`);
  const fast = `CASE WHEN ${formula(text)} THEN '''' || ${text} ELSE ${text} END`;
  const body = `CASE WHEN ${text} ${NEEDS_WORK} OR octet_length(${text}) > 32766
      THEN ${full} ELSE ${fast} END`;
  return `CASE WHEN ${text} <> '' THEN ${lit(TEXT_CELL)} || ${body} || ${lit(TEXT_END)} END`;
}

/** `SELECT` of one text column: the table's rows as sheet rows. */
export function rowsSql(table: BackupTable, pgTypes: ReadonlyMap<string, string>): string {
  // An empty cell is `<c/>` (nothing for a reader, but it keeps the cells after it in place).
  const cells = table.columns.map(
    ([name, kind]) => `coalesce(${cellSql(name, kind, pgTypes.get(name))}, '<c/>')`,
  );
  return `SELECT concat('<row>', ${cells.join(', ')}, '</row>') FROM ${pg.escapeIdentifier(table.name)}`;
}

/** PostgreSQL type names (information_schema data_type) of the public tables' columns. */
export async function columnTypes(
  client: pg.ClientBase,
): Promise<Map<string, Map<string, string>>> {
  const { rows } = await client.query<{ t: string; c: string; type: string }>(
    `SELECT table_name AS t, column_name AS c, data_type AS type
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let cols = out.get(r.t);
    if (!cols) out.set(r.t, (cols = new Map()));
    cols.set(r.c, r.type);
  }
  return out;
}
