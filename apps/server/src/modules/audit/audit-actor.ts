import type { FastifyRequest } from 'fastify';
import type { AuditChanges, AuditValue, Role } from '@herald/contract';

/** Who did an audited action, and from where (docs/audit.md). */
export interface AuditActor {
  /** The signed-in user, or the API key's owner; null for Herald itself or an unknown caller. */
  userId: string | null;
  /** The API key the request came with; null for a session. */
  apiKeyId: string | null;
  /** How the screen names the actor: the user's email, the email tried, or "Herald". */
  label: string;
  role: Role | null;
  ip: string | null;
  userAgent: string | null;
}

/** The longest user agent kept; browsers send far less. */
const USER_AGENT_MAX = 512;

function userAgentOf(req: FastifyRequest): string | null {
  const ua = req.headers['user-agent'];
  return ua ? ua.slice(0, USER_AGENT_MAX) : null;
}

/** The caller of a signed-in request (a session or an API key). */
export function requestActor(req: FastifyRequest): AuditActor {
  const user = req.authUser;
  return {
    userId: user?.id ?? null,
    apiKeyId: req.apiKeyId,
    label: user?.email ?? 'Unknown',
    role: user?.role ?? null,
    ip: req.ip,
    userAgent: userAgentOf(req),
  };
}

/**
 * The caller of a public request (sign-in, password reset) once it is known who they claim to
 * be: the account if one matched, else only the email they gave.
 */
export function anonymousActor(
  req: FastifyRequest,
  claimed: { email: string; user?: { id: string; role: Role } | null },
): AuditActor {
  return {
    userId: claimed.user?.id ?? null,
    apiKeyId: null,
    label: claimed.email.slice(0, 320),
    role: claimed.user?.role ?? null,
    ip: req.ip,
    userAgent: userAgentOf(req),
  };
}

/** Herald itself: the dispatcher finishing a campaign, the retention job. */
export const SYSTEM_ACTOR: AuditActor = {
  userId: null,
  apiKeyId: null,
  label: 'Herald',
  role: null,
  ip: null,
  userAgent: null,
};

/** Field names whose values an entry never keeps. */
const SECRET_FIELD = /password|secret|token|hash|credential|api_?key|code/i;

/**
 * The fields that differ between `before` and `after`, as an entry keeps them: secrets left
 * out by name, dates as ISO strings, objects as JSON text.
 */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChanges {
  const out: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (SECRET_FIELD.test(key)) continue;
    const b = auditValue(before?.[key]);
    const a = auditValue(after?.[key]);
    if (JSON.stringify(a) !== JSON.stringify(b)) out[key] = { before: b, after: a };
  }
  return out;
}

function auditValue(v: unknown): AuditValue {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(auditValue);
  return JSON.stringify(v);
}
