import type { BulkApproveReply, Campaign } from '@herald/contract';

/**
 * One line per campaign "Approve selected" did not approve, in the order asked: whose campaign
 * (as the list shows it; the id alone when it is no longer shown), its short id, and why.
 */
export function refusedLines(reply: BulkApproveReply, shown: readonly Campaign[]): string[] {
  const byId = new Map(shown.map((c) => [c._id, c]));
  return reply.results.flatMap((r) => {
    if (r.approved) return [];
    const short = r.id.slice(0, 8);
    const who = byId.get(r.id)?.userName;
    return [who ? `${who} (${short}): ${r.message}` : `${short}: ${r.message}`];
  });
}
