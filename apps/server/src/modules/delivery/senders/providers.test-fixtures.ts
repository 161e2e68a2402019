import { expect } from 'vitest';
import type { CreditType, Provider, Sender } from '@herald/contract';
import type { TestApp } from '../../../../test/harness.js';

/** A WhatsApp number connected as an Admin connects it: provider, sender, a credit type's route. */

export interface WhatsAppAccount {
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

export async function adminApi<T>(
  t: TestApp,
  admin: string,
  method: 'POST' | 'PUT',
  url: string,
  payload: object,
): Promise<T> {
  const res = await t.request({ method, url, token: admin, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<T>();
}

export async function connectWhatsApp(
  t: TestApp,
  admin: string,
  fakeUrl: string,
  wa: WhatsAppAccount,
  creditType: CreditType,
): Promise<{ provider: Provider; sender: Sender }> {
  const provider = await adminApi<Provider>(t, admin, 'POST', '/api/delivery/providers', {
    kind: 'whatsapp_cloud',
    name: `WhatsApp ${wa.phoneNumberId}`,
    settings: { baseUrl: fakeUrl, apiVersion: wa.apiVersion },
    secrets: { accessToken: wa.accessToken, appSecret: wa.appSecret, verifyToken: wa.verifyToken },
  });
  const sender = await adminApi<Sender>(t, admin, 'POST', '/api/delivery/senders', {
    providerId: provider.id,
    name: `WhatsApp number ${wa.phoneNumberId}`,
    address: wa.phoneNumberId,
    ratePerSecond: 500,
    dailyLimit: null,
  });
  await adminApi(t, admin, 'PUT', '/api/delivery/routes', {
    routes: [{ creditType, senderId: sender.id }],
  });
  return { provider, sender };
}
