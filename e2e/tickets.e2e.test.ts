import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TICKET_REPLIES_PAGE, ui, type TicketActionReply, type TicketList } from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  apiJson,
  apiLogin,
  baseUrl,
  journey,
  loginUi,
  newPage,
  shot,
  shotWidths,
} from './support/browser.js';

/**
 * Support Tickets (docs/product.md, Tickets): a user opens a ticket with an attachment, Admin
 * assigns it to a reseller outside the user's chain, the reseller replies and escalates, and the
 * user reads the reply and downloads the file. Every role opens the screen. A conversation longer
 * than a page shows its newest replies and loads the earlier ones on request.
 */

let reseller: { email: string; password: string };
let subReseller: { email: string; password: string };
let user: { email: string; password: string };
const SUBJECT = `Campaign stuck ${Date.now() % 1e6}`;
const NOTE = Buffer.from('Order 42 failed at 10:05\nPlease check.\n');
const REPLY = 'We are on it <b>now</b>';
const LONG_SUBJECT = `Long thread ${Date.now() % 1e6}`;
/** More replies than a page; the user and the Admin each stay within their reply rate limit. */
const LONG_REPLIES = TICKET_REPLIES_PAGE + 6;
const longReply = (n: number) => `Thread message ${n}`;
let longTicketId: string;

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Ticket Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  subReseller = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Ticket Sub');
  // Created by the Admin: the reseller sees the ticket only once it is assigned to it.
  user = await apiCreateUser(adminToken, 'User', 'Ticket User');
  // The long conversation, with a file: the user and the Admin take turns.
  const userToken = (await apiLogin(user.email, user.password)).token;
  const form = new FormData();
  form.set('subject', LONG_SUBJECT);
  form.set('description', 'A conversation longer than a page.');
  form.set('attachments', new Blob([NOTE], { type: 'text/plain' }), 'thread.txt');
  const res = await fetch(`${baseUrl()}/api/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${userToken}` },
    body: form,
  });
  if (!res.ok) throw new Error(`open ticket: ${res.status} ${await res.text()}`);
  longTicketId = ((await res.json()) as TicketActionReply).ticket._id;
  for (let n = 1; n <= LONG_REPLIES; n++) {
    await apiJson('PUT', `/api/tickets/${longTicketId}/reply`, n % 2 ? userToken : adminToken, {
      message: longReply(n),
    });
  }
});

async function openTickets(page: Page, email: string, password: string) {
  await loginUi(page, email, password);
  await page.goto('/tickets');
  await page.getByRole('heading', { name: 'Support Tickets' }).waitFor();
}

const ticketRow = (page: Page) => page.getByRole('row').filter({ hasText: SUBJECT });

async function openDetail(page: Page) {
  await ticketRow(page).getByRole('button', { name: /View/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: new RegExp(SUBJECT) }).waitFor();
  return dialog;
}

describe('Support Tickets journey', () => {
  it('a user opens a ticket with an attachment', async () => {
    const page = await newPage(t.browser);
    await openTickets(page, user.email, user.password);
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const dialog = page.getByRole('dialog');
    // Blank subject and description are refused on the form.
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Subject is required.').waitFor();
    await dialog.getByLabel('Subject').fill(SUBJECT);
    await dialog.getByLabel('Description').fill('My campaign has not moved since Monday.');
    await expect(dialog.getByLabel('Issue Type').inputValue()).resolves.toBe('Other');
    await dialog
      .getByLabel('Attachments')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: NOTE });
    await shot(page, 'tickets-create');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = ticketRow(page);
    await row.waitFor();
    await expect(row.getByText('Open').count()).resolves.toBe(1);
    await expect(row.locator('td').nth(3).textContent()).resolves.toBe('Admin');
    // The User column is the Admin's only.
    await expect(page.getByRole('columnheader', { name: 'User' }).count()).resolves.toBe(0);
    await shot(page, 'tickets-user');
  });

  it('Admin sees the User column and assigns the ticket to a reseller', async () => {
    const page = await newPage(t.browser);
    const admin = adminCredentials();
    await openTickets(page, admin.email, admin.password);
    await page.getByRole('columnheader', { name: 'User' }).waitFor();
    await ticketRow(page).getByText(user.email).waitFor();
    const dialog = await openDetail(page);
    await dialog.getByLabel('Assign To').selectOption(reseller.email);
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await dialog.getByRole('cell', { name: reseller.email, exact: true }).waitFor();
    await dialog.getByLabel('Change Status').selectOption('In Progress');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.getByText('In Progress', { exact: true }).first().waitFor();
    await shot(page, 'tickets-admin-detail');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await ticketRow(page).getByText(reseller.email).waitFor();
    await shot(page, 'tickets-admin');
  });

  it('the assigned reseller replies, then escalates after the confirmation', async () => {
    const page = await newPage(t.browser);
    await openTickets(page, reseller.email, reseller.password);
    const dialog = await openDetail(page);
    const send = dialog.getByRole('button', { name: 'Send Reply' });
    // A blank reply is not sent.
    await dialog.getByPlaceholder('Type your reply...').fill('   ');
    await expect(send.isDisabled()).resolves.toBe(true);
    await dialog.getByPlaceholder('Type your reply...').fill(REPLY);
    await send.click();
    const conversation = dialog.getByTestId('ticket-conversation');
    // Shown as text: the tags are visible characters, not markup.
    await conversation.getByText(REPLY).waitFor();
    await expect(conversation.locator('b').count()).resolves.toBe(0);
    await expect(
      conversation.evaluate(
        (el) => getComputedStyle(el).maxHeight + ' ' + getComputedStyle(el).overflowY,
      ),
    ).resolves.toBe('300px auto');
    await dialog.getByRole('button', { name: 'Escalate' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: ui.tickets.confirmEscalate });
    await confirm.waitFor();
    await shot(page, 'tickets-escalate-confirm');
    await confirm.getByRole('button', { name: 'Escalate' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await dialog.getByText('Escalated', { exact: true }).waitFor();
    await dialog.getByRole('cell', { name: 'Admin', exact: true }).waitFor();
    await shot(page, 'tickets-reseller-escalated');
  });

  it('the user sees the reply and downloads the attachment', async () => {
    const page = await newPage(t.browser);
    await openTickets(page, user.email, user.password);
    await ticketRow(page).getByText('Escalated').waitFor();
    // A notification's link opens the ticket straight away.
    const userToken = (await apiLogin(user.email, user.password)).token;
    const { tickets } = await apiJson<TicketList>('GET', '/api/tickets', userToken);
    const id = tickets.find((x) => x.subject === SUBJECT)?._id;
    await page.goto(`/tickets?ticket=${id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: new RegExp(SUBJECT) }).waitFor();
    await dialog.getByTestId('ticket-conversation').getByText(REPLY).waitFor();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('notes.txt');
    expect(fs.readFileSync(await file.path()).equals(NOTE)).toBe(true);
    await shot(page, 'tickets-user-detail');
  });

  it('a long conversation shows the newest replies and loads the earlier ones above', async () => {
    const page = await newPage(t.browser);
    await loginUi(page, user.email, user.password);
    await page.goto(`/tickets?ticket=${longTicketId}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: new RegExp(LONG_SUBJECT) }).waitFor();
    const conversation = dialog.getByTestId('ticket-conversation');
    const message = (n: number) => conversation.getByText(longReply(n), { exact: true });
    const oldestShown = LONG_REPLIES - TICKET_REPLIES_PAGE + 1;
    await message(LONG_REPLIES).waitFor();
    await message(oldestShown).waitFor();
    await expect(message(oldestShown - 1).count()).resolves.toBe(0);
    const earlier = conversation.getByRole('button', { name: ui.tickets.showEarlierReplies });
    await shotWidths(page, 'tickets-long-conversation');

    // By keyboard: the earlier replies show above, the focus on the first of them.
    await earlier.focus();
    await page.keyboard.press('Enter');
    await message(1).waitFor();
    await earlier.waitFor({ state: 'detached' });
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('data-reply-id') ?? ''),
    ).resolves.not.toBe('');
    await expect(page.evaluate(() => document.activeElement?.textContent ?? '')).resolves.toContain(
      longReply(1),
    );
    const shown = async () =>
      (await conversation.locator('[data-reply-id]').allInnerTexts()).map(
        (text) => text.split('\n').at(-1) ?? '',
      );
    await expect(shown()).resolves.toEqual(
      Array.from({ length: LONG_REPLIES }, (_, i) => longReply(i + 1)),
    );
    await shotWidths(page, 'tickets-long-conversation-earlier');

    // The ticket's file still downloads; a new reply shows at once, the earlier ones stay.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    expect(fs.readFileSync(await (await download).path()).equals(NOTE)).toBe(true);
    await dialog.getByPlaceholder('Type your reply...').fill('Still there?');
    await dialog.getByRole('button', { name: 'Send Reply' }).click();
    await conversation.getByText('Still there?', { exact: true }).waitFor();
    await expect(shown()).resolves.toHaveLength(LONG_REPLIES + 1);
    await page.context().close();
  });

  it('each role opens the screen', async () => {
    const page = await newPage(t.browser);
    await openTickets(page, subReseller.email, subReseller.password);
    await page.getByText(ui.tickets.empty).waitFor();
    await shot(page, 'tickets-subreseller');
    // The Reseller no longer sees the escalated ticket (it went back to the Admins).
    const page2 = await newPage(t.browser);
    await openTickets(page2, reseller.email, reseller.password);
    await page2.getByText(ui.tickets.empty).waitFor();
  });
});
