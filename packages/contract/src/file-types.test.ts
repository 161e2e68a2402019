import { describe, expect, it } from 'vitest';
import { campaignKindAccepts, detectFileType, type FileType } from './file-types.js';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );
const PNG = bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR');
const JPG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF\0');
const GIF = bytes('GIF89a', [1, 0, 1, 0]);
const WEBP = bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ');
const WAV = bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ');
const MP4 = bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0]);
const MOV = bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 2, 0]);
const M4A = bytes([0, 0, 0, 0x18], 'ftypM4A ', [0, 0, 2, 0]);
const PDF = bytes('%PDF-1.7\n%');
const OGG = bytes('OggS', [0, 2, 0, 0]);
const MP3_ID3 = bytes('ID3', [4, 0, 0, 0, 0, 0, 0]);
const MP3_FRAME = bytes([0xff, 0xfb, 0x90, 0x64, 0, 0, 0]);

const ext = (head: Uint8Array) => detectFileType(head)?.ext ?? null;

describe('detectFileType', () => {
  it('knows every accepted type by its first bytes', () => {
    expect([PNG, JPG, GIF, WEBP, WAV, MP4, M4A, PDF, OGG, MP3_ID3, MP3_FRAME].map(ext)).toEqual([
      'png',
      'jpg',
      'gif',
      'webp',
      'wav',
      'mp4',
      'm4a',
      'pdf',
      'ogg',
      'mp3',
      'mp3',
    ]);
    expect(detectFileType(PNG)).toEqual({ ext: 'png', mime: 'image/png', family: 'image' });
    expect(detectFileType(M4A)).toEqual({ ext: 'm4a', mime: 'audio/mp4', family: 'audio' });
    expect(detectFileType(MP4)?.family).toBe('video');
  });

  it('refuses what it does not know, whatever the name would say', () => {
    for (const head of [
      MOV,
      bytes('<html>'),
      bytes('PK\x03\x04'),
      bytes([0x89], 'PNX\r\n\x1a\n'),
      bytes([0x89], 'PNG'), // a PNG signature cut short
      bytes([0xff, 0xd8]),
      bytes('RIFF', [0, 0, 0, 0], 'AVI '),
      bytes('GIF90a'),
      bytes('%PDF'),
      new Uint8Array(0),
    ]) {
      expect(detectFileType(head), String.fromCharCode(...head)).toBeNull();
    }
  });

  it('reads a view into a larger buffer from its own start', () => {
    const big = new Uint8Array(64);
    big.set(PDF, 20);
    expect(ext(big.subarray(20))).toBe('pdf');
    expect(ext(big)).toBeNull();
  });
});

describe('campaignKindAccepts', () => {
  const type = (head: Uint8Array) => detectFileType(head) as FileType;

  it('takes for each kind what spec 5 allows', () => {
    expect(campaignKindAccepts('dp', type(PNG)) && campaignKindAccepts('dp', type(JPG))).toBe(true);
    expect(campaignKindAccepts('dp', type(GIF))).toBe(false);
    expect([GIF, WEBP, MP4, PDF].every((h) => campaignKindAccepts('singleCreative', type(h)))).toBe(
      true,
    );
    expect(campaignKindAccepts('singleCreative', type(MP3_ID3))).toBe(false);
    expect(campaignKindAccepts('image', type(WEBP))).toBe(true);
    expect(campaignKindAccepts('image', type(PDF))).toBe(false);
    expect(campaignKindAccepts('video', type(MP4)) && campaignKindAccepts('pdf', type(PDF))).toBe(
      true,
    );
    expect(campaignKindAccepts('video', type(M4A))).toBe(false);
    expect([OGG, WAV, M4A, MP3_FRAME].every((h) => campaignKindAccepts('audio', type(h)))).toBe(
      true,
    );
    expect(campaignKindAccepts('audio', null)).toBe(false);
  });
});
