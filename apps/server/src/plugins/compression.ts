import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/**
 * The API's answers compressed on the fly (docs/performance.md, Assets): JSON and text (CSV
 * exports) over about a kilobyte, brotli when the browser takes it (at quality 4: per request,
 * a fast level saves nearly as much as the slow ones), else gzip. Files that are compressed
 * already (zip, xlsx, images, video, audio) are sent as they are, and the live stream is never
 * touched: it takes over the response (reply.hijack) and must flush each frame at once.
 * Request bodies are not decompressed: no client of this API sends them compressed.
 */
const COMPRESSIBLE = /^(application\/json|text\/(plain|csv))\b/;

export async function registerApiCompression(api: FastifyInstance): Promise<void> {
  await api.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
}
