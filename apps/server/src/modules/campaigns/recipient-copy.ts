import { writeRecipientKey } from '@herald/contract';

/**
 * campaign_recipients rows in PostgreSQL's binary COPY format, built straight from the sorted
 * keys in chunks of a few hundred kilobytes (no string per number, no array of rows). Each
 * tuple: int16 field count 2 (3 with zones), int32 16 + the uuid's 16 bytes, int32 length +
 * the digits, and with zones int32 2 + the zone id as int16 (docs/delivery.md, Quiet hours).
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Rows per chunk: about 300 kB, so the socket and the event loop get turns in between. */
const CHUNK_ROWS = 8192;
/** The largest tuple: 2 + 4 + 16 + 4 + 15 digits, + 4 + 2 with a zone. */
const MAX_ROW = 47;

function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a uuid: ${id}`);
  return Buffer.from(hex, 'hex');
}

/**
 * The COPY data for `COPY campaign_recipients (campaign_id, phone) FROM STDIN (FORMAT binary)`,
 * or, with `zones` (one id per key), for `(campaign_id, phone, zone)`.
 */
export function* recipientCopyChunks(
  campaignId: string,
  keys: Float64Array,
  zones?: Uint16Array,
): Generator<Buffer> {
  // Everything of a tuple before the phone's length is the same in every row.
  const prefix = Buffer.alloc(22);
  prefix.writeInt16BE(zones ? 3 : 2, 0);
  prefix.writeInt32BE(16, 2);
  uuidBytes(campaignId).copy(prefix, 6);
  const header = Buffer.alloc(SIGNATURE.length + 8);
  SIGNATURE.copy(header, 0);
  yield header; // flags 0, header extension 0
  for (let start = 0; start < keys.length; start += CHUNK_ROWS) {
    const end = Math.min(keys.length, start + CHUNK_ROWS);
    const out = Buffer.allocUnsafe((end - start) * MAX_ROW + 2);
    let at = 0;
    for (let i = start; i < end; i++) {
      prefix.copy(out, at);
      const len = writeRecipientKey(keys[i] as number, out, at + 26);
      out.writeInt32BE(len, at + 22);
      at += 26 + len;
      if (zones) {
        out.writeInt32BE(2, at);
        out.writeInt16BE(zones[i] as number, at + 4);
        at += 6;
      }
    }
    if (end === keys.length) at = out.writeInt16BE(-1, at); // the trailer
    yield out.subarray(0, at);
  }
  if (keys.length === 0) yield Buffer.from([0xff, 0xff]);
}
