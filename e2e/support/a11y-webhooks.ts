import type { Page } from 'playwright-core';
import { server as msg, ui } from '@herald/contract';

/** What the accessibility journey does at each step: wait for data, run axe, take a picture. */
export interface A11yChecks {
  settled: () => Promise<void>;
  axe: (what: string) => Promise<void>;
  shot: (what: string) => Promise<void>;
}

/**
 * The API & Webhooks screen's webhook dialogs, open, for a user with an endpoint at `url` that
 * nothing answers on: a new endpoint refused with its errors, the endpoint's delivery log after a
 * test event, the rotate-secret question and the secret shown once, and the delete question
 * (cancelled).
 */
export async function webhookDialogs(page: Page, url: string, check: A11yChecks) {
  const w = ui.webhooks;
  await page.goto('/api-keys');
  await check.settled();
  await page.getByRole('button', { name: w.addButton }).click();
  const add = page.getByRole('dialog', { name: w.addTitle });
  await add.getByRole('button', { name: w.save }).click();
  await add.getByText(msg.webhookUrlRequired).waitFor();
  await check.axe('add-webhook dialog');
  await check.shot('add-webhook');
  await page.keyboard.press('Escape');
  await add.waitFor({ state: 'detached' });

  const row = page
    .getByRole('table', { name: w.listLabel })
    .getByRole('row')
    .filter({ hasText: url });
  const menu = async (action: string) => {
    await row.getByRole('button', { name: 'Actions' }).click();
    await page.locator('.dropdown-menu.show').getByRole('button', { name: action }).click();
  };
  await menu(w.actions.test);
  const log = page.getByRole('table', { name: w.deliveriesLabel });
  await log.getByRole('row').filter({ hasText: w.noAnswer }).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main .spinner-border'));
  await check.axe('webhook deliveries');
  await check.shot('webhook-log');

  await menu(w.actions.rotate);
  const rotate = page.getByRole('dialog', { name: w.rotateTitle });
  await rotate.getByText(w.rotateConfirm(url)).waitFor();
  await check.axe('rotate-secret dialog');
  await rotate.getByRole('button', { name: w.rotateButton }).click();
  const secret = page.getByRole('dialog', { name: w.secretTitle });
  await secret.getByRole('textbox', { name: w.secretLabel }).waitFor();
  await check.axe('webhook secret dialog');
  await check.shot('webhook-secret');
  await secret.getByRole('button', { name: ui.apiKeys.secretDone }).click();
  await secret.waitFor({ state: 'detached' });

  await menu(w.actions.delete);
  const del = page.getByRole('dialog', { name: w.deleteTitle });
  await del.getByText(w.deleteConfirm(url)).waitFor();
  await check.axe('delete-webhook dialog');
  await del.getByRole('button', { name: 'Cancel' }).click();
  await del.waitFor({ state: 'detached' });
}
