import { describe, expect, it } from 'vitest';
import { detectFileType, FILE_LIMITS, server, ui } from '@herald/contract';
import {
  checkMediaFile,
  dpDimensionsError,
  limitMb,
  sizeError,
  tooManyImagesError,
  typeError,
} from './file-rules';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );
const PNG = bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR');
const GIF = bytes('GIF89a');
const MP4 = bytes([0, 0, 0, 0x20], 'ftypisom');
const MOV = bytes([0, 0, 0, 0x20], 'ftypqt  ');
const M4A = bytes([0, 0, 0, 0x20], 'ftypM4A ');
const PDF = bytes('%PDF-1.7');

describe('sizes', () => {
  it('says the limit in MB per kind', () => {
    expect([limitMb('images'), limitMb('dp'), limitMb('video'), limitMb('singleCreative')]).toEqual(
      [3, 3, 5, 5],
    );
  });

  it('refuses a file one byte over its limit', () => {
    expect(sizeError('pdf', FILE_LIMITS.pdf)).toBeNull();
    expect(sizeError('pdf', FILE_LIMITS.pdf + 1)).toBe(ui.campaigns.fileTooLarge(3));
    expect(sizeError('video', FILE_LIMITS.video + 1)).toBe('File is too large. Max size is 5MB.');
    expect(sizeError('singleCreative', FILE_LIMITS.image + 1)).toBeNull();
  });
});

describe('types by content', () => {
  it('says the rule of the field a file does not fit', () => {
    expect(typeError('dp', detectFileType(PNG))).toBeNull();
    expect(typeError('dp', detectFileType(GIF))).toBe(server.campaignFileType('dp'));
    expect(typeError('images', detectFileType(GIF))).toBeNull();
    expect(typeError('images', detectFileType(PDF))).toBe(server.campaignFileType('images'));
    expect(typeError('video', detectFileType(MOV))).toBe(server.campaignFileType('video'));
    expect(typeError('singleCreative', detectFileType(MP4))).toBeNull();
    expect(typeError('audio', detectFileType(M4A))).toBeNull();
    expect(typeError('audio', null)).toBe(server.campaignFileType('audio'));
  });
});

describe('dimensions and counts', () => {
  it('keeps a DP between 192 and 500 pixels each side', () => {
    expect(dpDimensionsError(192, 500)).toBeNull();
    expect(dpDimensionsError(191, 200)).toBe(ui.campaigns.dpDimensions);
    expect(dpDimensionsError(200, 501)).toBe(ui.campaigns.dpDimensions);
  });

  it('allows up to 3 images', () => {
    expect(tooManyImagesError(3)).toBeNull();
    expect(tooManyImagesError(4)).toBe(server.campaignTooManyImages);
  });
});

describe('checkMediaFile', () => {
  it('checks the size before reading, then the type', async () => {
    const big = new File([new Uint8Array(FILE_LIMITS.image + 1)], 'big.png');
    expect(await checkMediaFile('images', big)).toBe(ui.campaigns.fileTooLarge(3));
    const pdfAsImage = new File([PDF as BlobPart], 'looks.png');
    expect(await checkMediaFile('images', pdfAsImage)).toBe(server.campaignFileType('images'));
    expect(await checkMediaFile('pdf', new File([PDF as BlobPart], 'doc'))).toBeNull();
    expect(await checkMediaFile('singleCreative', new File([MP4 as BlobPart], 'c.mp4'))).toBeNull();
  });
});
