/**
 * The bytes of a committed fixture under test/fixtures/, for unit tests that run in Node.
 * The web app's TypeScript has no Node types (its code runs in browsers), so the one file
 * read is typed here by hand instead of adding them to every web file.
 */
interface ReadFile {
  readFile(path: URL): Promise<Uint8Array>;
}

export async function readFixture(name: string): Promise<Uint8Array> {
  const fs = (await import('node:fs/promises' as string)) as ReadFile;
  const bytes = await fs.readFile(new URL(`./fixtures/${name}`, import.meta.url));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
