import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaignFormData, createCampaign } from './create-campaign';

const img = (name: string, text = 'x') => new File([text], name, { type: 'image/png' });
const args = {
  fields: { creditType: 'With DP - domestic', message: 'Hi "there"\r\nline two' },
  to: new TextEncoder().encode('1234567,7654321'),
  files: { dp: img('dp.png', 'DP'), images: [img('a.png'), img('b "2".png')], pdf: null },
};

async function entriesOf(form: FormData) {
  return Promise.all(
    [...form.entries()].map(async ([k, v]) =>
      typeof v === 'string' ? [k, v] : [k, v.name, v.type, await v.text()],
    ),
  );
}

const expected = [
  ['creditType', 'With DP - domestic'],
  ['message', 'Hi "there"\r\nline two'],
  ['to', 'to.txt', 'text/plain', '1234567,7654321'],
  ['dp', 'dp.png', 'image/png', 'DP'],
  ['images', 'a.png', 'image/png', 'x'],
  ['images', 'b "2".png', 'image/png', 'x'],
];

describe('campaignFormData', () => {
  it('has the field names of POST /api/campaigns: text first, `to` as a file part, images repeated', async () => {
    expect(await entriesOf(campaignFormData(args))).toEqual(expected);
  });

  it('encodes to a multipart body that a standard parser reads back', async () => {
    const req = new Request('http://herald.test/api/campaigns', {
      method: 'POST',
      body: campaignFormData(args),
    });
    expect(req.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(await entriesOf(await req.formData())).toEqual(expected);
  });

  it('sends only the bytes of a `to` that views part of a larger buffer', async () => {
    const whole = new TextEncoder().encode('1111111,2222222,3333333');
    const form = campaignFormData({ ...args, to: whole.subarray(8, 15), files: {} });
    expect(await (form.get('to') as File).text()).toBe('2222222');
  });
});

describe('createCampaign', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the FormData with the Idempotency-Key and leaves the content type to the browser', () => {
    const sent: { body?: unknown; headers: Record<string, string> } = { headers: {} };
    class FakeXhr {
      upload = { onprogress: null };
      open() {}
      setRequestHeader(name: string, value: string) {
        sent.headers[name.toLowerCase()] = value;
      }
      send(body: unknown) {
        sent.body = body;
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    void createCampaign({ ...args, idempotencyKey: 'key-1' });
    expect(sent.body).toBeInstanceOf(FormData);
    expect(sent.headers['idempotency-key']).toBe('key-1');
    // A content type set by hand would lack the boundary the browser writes.
    expect(sent.headers['content-type']).toBeUndefined();
  });
});
