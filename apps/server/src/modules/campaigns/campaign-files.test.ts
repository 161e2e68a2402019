import { describe, expect, it } from 'vitest';
import { server, type CampaignFileKind } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import { sanitiseName } from '../../lib/uploads.js';
import { checkFile, imageSize, type StagedFile } from './campaign-files.js';
import { MP3, MP4, PDF, jpeg, png } from './campaigns.test-fixtures.js';

/** A staged upload of `kind` whose first bytes are `head` (checkFile reads only these). */
const staged = (field: string, kind: CampaignFileKind, head: Buffer): StagedFile => ({
  field,
  kind,
  id: 'x',
  filePath: '/nowhere',
  originalName: 'any.name',
  size: head.length,
  sha256: '',
  head,
});

/** The status and message checkFile refuses with; null when it accepts. */
function refusal(file: StagedFile): [number, string] | null {
  try {
    checkFile(file);
    return null;
  } catch (e) {
    if (e instanceof AppError) return [e.status, e.message];
    throw e;
  }
}

describe('campaign media checks', () => {
  it('checks the content against the kind, whatever the name', () => {
    expect(checkFile(staged('dp', 'dp', png(200, 200)))).toMatchObject({ ext: 'png' });
    expect(checkFile(staged('singleCreative', 'singleCreative', PDF)).mime).toBe('application/pdf');
    expect(checkFile(staged('audio', 'audio', MP3)).ext).toBe('mp3');
    const refused = [
      staged('images', 'image', PDF),
      staged('video', 'video', MP3),
      staged('pdf', 'pdf', Buffer.from('<html>')),
    ];
    for (const file of refused) {
      expect(refusal(file)).toEqual([400, server.campaignFileType(file.field)]);
    }
    expect(refusal(staged('dp', 'dp', png(100, 200)))).toEqual([400, server.campaignDpDimensions]);
    expect(checkFile(staged('video', 'video', MP4)).family).toBe('video');
  });

  it('reads dimensions from PNG IHDR and JPEG SOF headers', () => {
    expect(imageSize(png(320, 200), 'png')).toEqual({ width: 320, height: 200 });
    expect(imageSize(jpeg(450, 192), 'jpg')).toEqual({ width: 450, height: 192 });
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpg')).toBeNull();
  });

  it('keeps only a safe base name', () => {
    expect(sanitiseName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseName('..\\..\\x.png')).toBe('x.png');
    expect(sanitiseName('evil\u202egnp.exe')).toBe('evilgnp.exe');
    expect(sanitiseName('')).toBe('file');
    expect(sanitiseName(`${'a'.repeat(300)}.png`)).toHaveLength(200);
  });
});
