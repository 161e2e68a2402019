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

// ftyp boxes as ffmpeg, phones and encoders write them: size, 'ftyp', major, minor, compatibles.
const FFMPEG_MP4 = bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0], 'isomiso2avc1mp41');
const FFMPEG_DASH = bytes([0, 0, 0, 0x18], 'ftypiso5', [0, 0, 2, 0], 'iso5iso6');
const M4V = bytes([0, 0, 0, 0x1c], 'ftypM4V ', [0, 0, 0, 1], 'M4V M4A mp42');
const XAVC = bytes([0, 0, 0, 0x1c], 'ftypXAVC', [0, 0, 1, 0], 'XAVCmp42iso2');
const HEIC = bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic');
const AVIF = bytes([0, 0, 0, 0x20], 'ftypavif', [0, 0, 0, 0], 'avifmif1miafMA1B');
const GP3 = bytes([0, 0, 0, 0x18], 'ftyp3gp4', [0, 0, 2, 0], 'isom3gp4');
const GP3_NO_COMPAT = bytes([0, 0, 0, 0x14], 'ftyp3gp5', [0, 0, 2, 0], '3gp5');
// A brand nobody knows, whose compatibles sit past the box's declared size.
const UNKNOWN_BRAND = bytes([0, 0, 0, 0x10], 'ftypzzzz', [0, 0, 0, 0], 'isom');

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

  it('takes an ftyp box for mp4 only with an mp4 brand, major or compatible', () => {
    expect([FFMPEG_MP4, FFMPEG_DASH, M4V, XAVC].map(ext)).toEqual(['mp4', 'mp4', 'mp4', 'mp4']);
    expect(ext(M4A)).toBe('m4a');
    for (const head of [HEIC, AVIF, GP3, GP3_NO_COMPAT, UNKNOWN_BRAND, MOV]) {
      expect(detectFileType(head), String.fromCharCode(...head)).toBeNull();
    }
  });

  it('takes 0xFF-led bytes for mp3 only when they form a real MPEG audio frame header', () => {
    const layer2 = bytes([0xff, 0xfd, 0x84, 0x00]); // MPEG-1 layer II, 128 kbit/s, 44.1 kHz
    const mpeg25 = bytes([0xff, 0xe3, 0x18, 0xc4]); // MPEG-2.5 layer III, 8 kbit/s, 11 kHz
    expect([MP3_FRAME, layer2, mpeg25].map(ext)).toEqual(['mp3', 'mp3', 'mp3']);
    for (const head of [
      bytes([0xff, 0xff, 0xff, 0xff]), // bitrate index 1111
      bytes([0xff, 0xe0, 0x00, 0x00]), // layer 00 (reserved)
      bytes([0xff, 0xeb, 0x90, 0x00]), // version 01 (reserved)
      bytes([0xff, 0xfb, 0x00, 0x00]), // bitrate index 0000 (free format)
      bytes([0xff, 0xfb, 0x9c, 0x00]), // sampling rate index 11 (reserved)
      bytes([0xff, 0xfb, 0x90, 0x02]), // emphasis 10 (reserved)
      bytes([0xff, 0xfb, 0x90]), // a header cut short
    ]) {
      expect(detectFileType(head), [...head].map((v) => v.toString(16)).join(' ')).toBeNull();
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

  it('takes for each kind what the file rules allow', () => {
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
