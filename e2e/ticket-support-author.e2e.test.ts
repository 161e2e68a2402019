import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { supportAuthor, type TicketActionReply } from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  apiJson,
  apiLogin,
  baseUrl,
  journey,
  newPage,
  loginUi,
  shotWidths,
} from './support/browser.js';

/**
 * A reply of the platform's Admin on the Support Tickets screen (docs/product.md, Tickets): a
 * user under a branded Reseller reads it as the Reseller's support, never the Admin's address;
 * the Admin sees who replied.
 */
const COMPANY = `Acme Support Co ${Date.now() % 1e5}`;
const SUBJECT = `Where is my report ${Date.now() % 1e6}`;
const ANSWER = 'Your report is ready now.';
let user: { email: string; password: string };

const t = journey(async (adminToken) => {
  const reseller = await apiCreateUser(adminToken, 'Reseller', 'Branded Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  await apiJson('POST', '/api/whitelabel/settings', resellerToken, { companyName: COMPANY });
  user = await apiCreateUser(resellerToken, 'User', 'Branded User');
  const userToken = (await apiLogin(user.email, user.password)).token;
  const form = new FormData();
  form.set('subject', SUBJECT);
  form.set('description', 'The report has not arrived.');
  const res = await fetch(`${baseUrl()}/api/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${userToken}` },
    body: form,
  });
  if (!res.ok) throw new Error(`open ticket: ${res.status} ${await res.text()}`);
  const { ticket } = (await res.json()) as TicketActionReply;
  await apiJson('PUT', `/api/tickets/${ticket._id}/reply`, adminToken, { message: ANSWER });
});

async function conversationOf(page: Page) {
  await page.goto('/tickets');
  await page.getByRole('heading', { name: 'Support Tickets' }).waitFor();
  await page
    .getByRole('row')
    .filter({ hasText: SUBJECT })
    .getByRole('button', { name: /View/ })
    .click();
  const conversation = page.getByRole('dialog').getByTestId('ticket-conversation');
  await conversation.getByText(ANSWER).waitFor();
  return conversation;
}

describe("the Admin's reply on Support Tickets", () => {
  it("reads as the brand's support to a user under a branded Reseller", async () => {
    const page = await newPage(t.browser);
    await loginUi(page, user.email, user.password);
    const conversation = await conversationOf(page);
    await conversation.getByText(supportAuthor(COMPANY), { exact: true }).waitFor();
    expect(await conversation.innerText()).not.toContain(adminCredentials().email);
    await shotWidths(page, 'tickets-branded-support-reply');
    await page.context().close();
  });

  it('shows the Admin who replied', async () => {
    const page = await t.page();
    const conversation = await conversationOf(page);
    await conversation.getByText(adminCredentials().email, { exact: true }).waitFor();
    expect(await conversation.innerText()).not.toContain(supportAuthor(COMPANY));
    await page.context().close();
  });
});
