import { describe, expect, it } from 'vitest';
import { campaignBody } from '../api/create-campaign';

describe('campaignBody', () => {
  it('is multipart form data with the field names of POST /api/campaigns, images repeated', async () => {
    const img = (n: string, text = 'x') => new File([text], n, { type: 'image/png' });
    const { body, contentType } = campaignBody({
      fields: { creditType: 'With DP - domestic', message: 'Hi "there"\r\nline two' },
      to: new TextEncoder().encode('1234567,7654321'),
      files: { dp: img('dp.png', 'DP'), images: [img('a.png'), img('b "2".png')], pdf: null },
    });
    expect(contentType).toMatch(/^multipart\/form-data; boundary=----heraldform[0-9a-f]{24}$/);
    expect(body.type).toBe(contentType);
    // Read back by a standard multipart parser.
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    const entries = await Promise.all(
      [...form.entries()].map(async ([k, v]) =>
        typeof v === 'string' ? [k, v] : [k, v.name, v.type, await v.text()],
      ),
    );
    expect(entries).toEqual([
      ['creditType', 'With DP - domestic'],
      ['message', 'Hi "there"\r\nline two'],
      ['to', 'to.txt', 'text/plain', '1234567,7654321'],
      ['dp', 'dp.png', 'image/png', 'DP'],
      ['images', 'a.png', 'image/png', 'x'],
      ['images', 'b "2".png', 'image/png', 'x'],
    ]);
  });
});
