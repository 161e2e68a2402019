import { randomUUID } from 'node:crypto';
import type { User } from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';

/** Test-only helpers shared by the users, branding and dashboard tests. */

export interface Member {
  user: User;
  token: string;
  password: string;
}

/** Admin; R1 → S1 → U1; R1 → U2; R2 → U3. */
export interface Hierarchy {
  admin: string;
  r1: Member;
  s1: Member;
  u1: Member;
  u2: Member;
  r2: Member;
  u3: Member;
}

export async function buildHierarchy(t: TestApp): Promise<Hierarchy> {
  const admin = await t.adminToken();
  const r1 = await t.createUser(admin, { role: 'Reseller', name: 'R1' });
  const s1 = await t.createUser(r1.token, { role: 'Sub-Reseller', name: 'S1' });
  const u1 = await t.createUser(s1.token, { role: 'User', name: 'U1' });
  const u2 = await t.createUser(r1.token, { role: 'User', name: 'U2' });
  const r2 = await t.createUser(admin, { role: 'Reseller', name: 'R2' });
  const u3 = await t.createUser(r2.token, { role: 'User', name: 'U3' });
  return { admin, r1, s1, u1, u2, r2, u3 };
}

/** A real 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A 2 × 2 JPEG made by ImageMagick (`convert -size 2x2 xc:'#336699' -quality 90 -strip`). */
export const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAACAAIDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAB//EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAUAQEAAAAAAAAAAAAAAAAAAAAH/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AIi2L3//Z',
  'base64',
);

export interface FilePart {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body built by hand, as a browser's FormData would send it. */
export function multipart(
  fields: Record<string, string>,
  ...files: FilePart[]
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----herald-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The fields the Edit User form sends for a user, as it stands. */
export function formOf(user: User): Record<string, string> {
  return { name: user.name, email: user.email, role: user.role, status: user.status };
}
