import { describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import {
  checkAnnouncementForm,
  EMPTY_ANNOUNCEMENT_FORM,
  endOfLocalDay,
  imageProblem,
} from './announcement-form-logic';

const form = { ...EMPTY_ANNOUNCEMENT_FORM, title: 'Hello', message: 'News' };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('checkAnnouncementForm', () => {
  it('builds the multipart body with the image', () => {
    const image = new File([PNG], 'a.png', { type: 'image/png' });
    const checked = checkAnnouncementForm({ ...form, link: 'https://example.com' }, image);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.data.get('title')).toBe('Hello');
    expect(checked.data.get('link')).toBe('https://example.com');
    expect(checked.data.get('visibilityTargets')).toBe('');
    expect(checked.data.get('image')).toBeInstanceOf(File);
  });

  it('shows the schema’s messages on their fields', () => {
    const cases: [Partial<typeof form>, string, string][] = [
      [{ title: ' ' }, 'title', msg.announcementTitleRequired],
      [{ message: '' }, 'message', msg.announcementMessageRequired],
      [{ link: 'javascript:alert(1)' }, 'link', msg.announcementLinkInvalid],
      [{ visibilityType: 'specific' }, 'visibilityTargets', msg.announcementTargetsRequired],
      [{ expiryDate: '2001-01-01' }, 'expiryDate', msg.announcementExpiryPast],
    ];
    for (const [patch, field, message] of cases) {
      const checked = checkAnnouncementForm({ ...form, ...patch }, null);
      expect(checked).toEqual({ ok: false, errors: expect.objectContaining({ [field]: message }) });
    }
  });

  it('sends targets only for specific visibility', () => {
    const checked = checkAnnouncementForm({ ...form, visibilityTargets: 'a@b.co' }, null);
    expect(checked.ok && checked.data.get('visibilityTargets')).toBe('');
  });

  it('takes the expiry as the end of the local day', () => {
    const iso = endOfLocalDay('2999-06-01');
    const d = new Date(iso);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours()]).toEqual([2999, 5, 1, 23]);
  });
});

describe('imageProblem', () => {
  it('accepts an image by its bytes and refuses anything else', async () => {
    expect(await imageProblem(new Blob([PNG]))).toBeNull();
    expect(await imageProblem(new Blob(['<svg onload=alert(1)>']))).toBe(msg.announcementImageType);
    const big = new Blob([PNG, new Uint8Array(3 * 1024 * 1024)]);
    expect(await imageProblem(big)).toBe(msg.announcementImageTooLarge(3));
  });
});
