import { describe, expect, it } from 'vitest';
import { server as msg, type TicketReply, type User } from '@herald/contract';
import {
  assigneeOptions,
  attachmentsProblem,
  canEscalate,
  mergeReplies,
  ticketFields,
  ticketFormErrors,
} from './tickets-data';

const user = (role: User['role'], email: string, status: User['status'] = 'Active') =>
  ({ id: email, name: email.split('@')[0], email, role, status }) as User;
const file = (bytes: string | Uint8Array<ArrayBuffer>, name: string) => new File([bytes], name);

describe('tickets screen rules', () => {
  it('requires subject and description; blank is missing', () => {
    expect(
      ticketFormErrors({ subject: ' ', description: '', issueType: 'Other', related: '' }),
    ).toEqual({ subject: msg.ticketSubjectRequired, description: msg.ticketDescriptionRequired });
  });

  it('sends the related id under the issue type’s field only', () => {
    const base = { subject: ' S ', description: 'D', related: 'x' };
    expect(ticketFields({ ...base, issueType: 'Campaign' })).toEqual({
      subject: 'S',
      description: 'D',
      issueType: 'Campaign',
      relatedCampaign: 'x',
    });
    expect(ticketFields({ ...base, issueType: 'Other' })).not.toHaveProperty('relatedCampaign');
    expect(ticketFields({ ...base, issueType: 'Credits/Debits' }).relatedTransaction).toBe('x');
  });

  it('offers Admin, then Active Resellers only, as assignees', () => {
    const users = [
      user('Reseller', 'r1@x.io'),
      user('Sub-Reseller', 's1@x.io'),
      user('User', 'u1@x.io'),
      user('Reseller', 'r2@x.io', 'Blocked'),
    ];
    expect(assigneeOptions(users).map((o) => o.value)).toEqual(['Admin', 'r1@x.io']);
  });

  it('lets only the assigned Reseller escalate', () => {
    const t = { assignedTo: 'r1@x.io' } as Parameters<typeof canEscalate>[1];
    expect(canEscalate({ email: 'r1@x.io', role: 'Reseller' }, t)).toBe(true);
    expect(canEscalate({ email: 'r2@x.io', role: 'Reseller' }, t)).toBe(false);
    expect(canEscalate({ email: 'r1@x.io', role: 'Sub-Reseller' }, t)).toBe(false);
  });

  it('checks the chosen files: count, size and type by content', async () => {
    expect(
      await attachmentsProblem([file('a,b\n1,2\n', 'a.csv'), file('%PDF-1.4', 'x.pdf')]),
    ).toBeNull();
    expect(await attachmentsProblem([file(new Uint8Array([0x4d, 0x5a, 0, 1]), 'x.txt')])).toBe(
      msg.ticketAttachmentType,
    );
    expect(
      await attachmentsProblem(Array.from({ length: 6 }, (_, i) => file('x', `${i}.txt`))),
    ).toBe(msg.ticketTooManyAttachments);
    const big = file(new Uint8Array(5 * 1024 * 1024 + 1), 'big.txt');
    expect(await attachmentsProblem([big])).toBe('File is too large. Max size is 5MB.');
  });

  it('merges pages of replies: each once, in time order, same-instant ones as the server gave them', () => {
    const reply = (id: string, second: number): TicketReply => ({
      _id: id,
      author: 'a@x.io',
      support: false,
      message: id,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    });
    const older = [reply('a', 1), reply('b', 2), reply('c', 2)];
    const detail = [reply('c', 2), reply('d', 3), reply('e', 4)];
    const later = [reply('e', 4), reply('f', 5)];
    expect(mergeReplies(older, detail).map((r) => r._id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // A later detail no longer carrying 'd' still shows it once kept.
    expect(mergeReplies(mergeReplies([], detail), later).map((r) => r._id)).toEqual([
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(mergeReplies(later, older).map((r) => r._id)).toEqual(['a', 'b', 'c', 'e', 'f']);
    expect(mergeReplies()).toEqual([]);
  });
});
