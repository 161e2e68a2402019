import { describe, expect, it } from 'vitest';
import { ui, recipientKeysToStrings } from '@herald/contract';
import { answer } from './parse-buffer';
import { kindOf, parseRecipients, RecipientParseError, unionOf } from './use-recipient-parser';
import { writeXlsx } from '../../../../test/zip-fixture';

describe('parseRecipients', () => {
  it('merges pasted text and files, deduping against existing recipients', async () => {
    const first = await parseRecipients('9876543210, 1234567 1234567 abc 12345');
    expect([first.kept, first.invalid, first.ignored, first.duplicates]).toEqual([2, 1, 1, 1]);
    const csv = new File(['phone\r\n9876543210\r\n"0987654321"\r\n'], 'list.csv');
    const second = await parseRecipients(csv, first.keys);
    // The header is not a number: ignored, not invalid.
    expect([second.kept, second.invalid, second.ignored, second.duplicates]).toEqual([1, 0, 1, 1]);
    const xlsx = new File([(await writeXlsx([[[5555555], ['1234567']]])) as BlobPart], 'a.XLSX');
    const third = await parseRecipients(xlsx, second.keys);
    expect(recipientKeysToStrings(third.keys).sort()).toEqual([
      '0987654321',
      '1234567',
      '5555555',
      '9876543210',
    ]);
    expect([third.kept, third.duplicates, third.overLimit]).toEqual([1, 1, false]);
  });

  it('says the file could not be read', async () => {
    const bad = new File(['not a zip'], 'list.xlsx');
    await expect(parseRecipients(bad)).rejects.toEqual(
      new RecipientParseError(ui.campaigns.fileUnreadable),
    );
  });

  it('picks the parser from the extension', () => {
    const kinds = ['a.csv', 'b.XLS', 'c.xlsx', 'd.txt', 'e'].map((n) => kindOf(new File([], n)));
    expect(kinds).toEqual(['csv', 'xls', 'xlsx', 'text', 'csv']);
  });

  it('answers with a transferable buffer', async () => {
    const buffer = new TextEncoder().encode('9876543210 9876543210').buffer as ArrayBuffer;
    const { reply, transfer } = await answer({ id: 7, kind: 'text', buffer });
    expect(reply).toMatchObject({ id: 7, kept: 1, invalid: 0, ignored: 0, duplicates: 1 });
    expect(transfer).toHaveLength(1);
  });
});

describe('unionOf', () => {
  it('joins the added inputs, so removing one takes out only the numbers no other holds', async () => {
    const a = await parseRecipients('9800000001 9800000002');
    const b = await parseRecipients('9800000002 9800000003');
    const input = (id: number, keys: Float64Array) => ({ id, source: `s${id}`, keys, error: null });
    const both = unionOf([input(1, a.keys), input(2, b.keys)]);
    expect(recipientKeysToStrings(both)).toEqual(['9800000001', '9800000002', '9800000003']);
    expect(recipientKeysToStrings(unionOf([input(2, b.keys)]))).toEqual([
      '9800000002',
      '9800000003',
    ]);
    expect(unionOf([])).toHaveLength(0);
  });
});
