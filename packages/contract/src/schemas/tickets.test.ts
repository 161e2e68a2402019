import { describe, expect, it } from 'vitest';
import { isPlainText } from '../file-types.js';
import { CreateTicketFieldsSchema, ticketFileType } from './tickets.js';

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
/** UTF-8 bytes (the contract's lib has no TextEncoder). */
const bytes = (s: string) => latin1(unescape(encodeURIComponent(s)));

describe('ticket attachments by content', () => {
  it('takes images, pdf and xlsx by signature, and text by its bytes', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(ticketFileType(png, 'x.txt', false)?.ext).toBe('png');
    expect(ticketFileType(latin1('%PDF-1.7\n'), 'x', false)?.ext).toBe('pdf');
    const xlsx = latin1('PK\x03\x04' + '\0'.repeat(26) + '[Content_Types].xml...xl/workbook.xml');
    expect(ticketFileType(xlsx, 'x.bin', false)?.ext).toBe('xlsx');
    expect(ticketFileType(bytes('a,b\r\n1,2\n'), 'r.CSV', false)?.mime).toBe('text/csv');
    expect(ticketFileType(bytes('héllo\tthere\n'), 'notes', false)?.mime).toBe('text/plain');
  });

  it('refuses what is none of them, whatever the name says', () => {
    for (const head of [
      latin1('PK\x03\x04' + '\0'.repeat(26) + 'word/document.xml'), // a docx
      latin1('MZ\x90\x00'), // an exe
      Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0]), // mp3 (ID3)
      bytes('text with a \0 NUL'),
      Uint8Array.from([0xc3, 0x28]), // invalid UTF-8
      new Uint8Array(0),
    ]) {
      expect(ticketFileType(head, 'x.txt', false)).toBeNull();
    }
  });

  it('allows a multibyte character cut at the end of a head only', () => {
    const cut = bytes('ab€').subarray(0, 4);
    expect(isPlainText(cut, true)).toBe(true);
    expect(isPlainText(cut, false)).toBe(false);
  });
});

describe('CreateTicketFieldsSchema', () => {
  it('defaults the issue type to Other and leaves empty references unset', () => {
    const f = CreateTicketFieldsSchema.parse({
      subject: ' s ',
      description: 'd',
      relatedCampaign: '',
    });
    expect(f).toEqual({ subject: 's', description: 'd', issueType: 'Other' });
  });
});
