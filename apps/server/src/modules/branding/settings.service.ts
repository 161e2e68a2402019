import type { FastifyBaseLogger } from 'fastify';
import { WhitelabelSettingsBodySchema, type WhitelabelSettings } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import { auditChanges, recordAudit, type AuditActor } from '../audit/index.js';
import { findOwnSettings, lockOwnSettings, writeOwnSettings } from './branding.repo.js';
import { changeLogo, checkLogo, logoUrl } from './logo-files.js';
import type { LogoForm } from './logo-form.input.js';

/** The caller's own company name and logo, as the Whitelabel Settings screen edits them. */
export async function getOwnSettings(ctx: AppContext, userId: string): Promise<WhitelabelSettings> {
  const row = await findOwnSettings(ctx.db, userId);
  if (!row) throw notFound();
  return { companyName: row.company_name, companyLogo: row.company_logo };
}

/**
 * Sets the caller's own company name and logo. The logo is checked by its bytes (png or jpeg,
 * never by name or declared type) and stored as Edit User stores it (changeLogo: written before
 * the transaction, removed if it fails, the replaced file deleted after the commit). A company
 * name left out of the form is kept; sent empty, it is cleared.
 */
export async function updateOwnSettings(
  ctx: AppContext,
  userId: string,
  { fields, logo }: LogoForm,
  log: FastifyBaseLogger,
  auditActor: AuditActor,
): Promise<WhitelabelSettings> {
  const parsed = WhitelabelSettingsBodySchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message);
  const input = parsed.data;
  const checked = checkLogo(logo);

  const { saved } = await changeLogo(
    ctx.files,
    checked,
    (newLogoName) =>
      ctx.db.transaction().execute(async (tx) => {
        const row = await lockOwnSettings(tx, userId);
        if (!row) throw notFound();
        const companyName = Object.hasOwn(fields, 'companyName')
          ? (input.companyName ?? null)
          : row.company_name;
        let companyLogo = row.company_logo;
        if (newLogoName) companyLogo = logoUrl(newLogoName);
        else if (input.removeLogo === 'true') companyLogo = null;
        const next = { company_name: companyName, company_logo: companyLogo };
        await writeOwnSettings(tx, userId, next);
        const changes = auditChanges(row, next);
        // A save that changes nothing writes no entry.
        if (Object.keys(changes).length > 0) {
          await recordAudit(tx, {
            actor: auditActor,
            action: 'branding.update',
            target: {
              type: 'branding',
              id: userId,
              label: auditActor.label,
              subjectUserId: userId,
            },
            changes,
          });
        }
        const oldLogo = companyLogo !== row.company_logo ? row.company_logo : null;
        return { saved: { companyName, companyLogo }, oldLogo };
      }),
    log,
  );
  return saved;
}
