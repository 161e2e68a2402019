import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type CampaignDetail,
  type CampaignList,
  type CampaignTemplates,
  type CreateCampaignReply,
  type Sender,
  type SenderTemplate,
} from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../../test/delivery-harness.js';
import { NORMAL, setStatus } from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund, postCampaign } from '../../campaigns/campaigns.test-fixtures.js';
import { campaignOf, depsFor } from '../dispatch/dispatch.test-fixtures.js';
import { runDispatchSlice } from '../dispatch/dispatcher.js';
import { WhatsAppFake } from '../providers/fakes/whatsapp-fake.js';
import { connectWhatsApp } from './providers.test-fixtures.js';

/**
 * WhatsApp templates: the Admin registers a sender's approved templates; the campaign form is
 * offered those of the sender its credit type goes through; creation checks the chosen one and
 * its values; the engine sends it as Meta's `type: "template"` with the values in order.
 */

const WA = {
  apiVersion: 'v21.0',
  phoneNumberId: '106540352242999',
  accessToken: 'EAAtemplates',
  appSecret: 'templates-app-secret',
  verifyToken: 'templates-verify-token',
};

let t: DeliveryTestApp;
let fake: WhatsAppFake;
let admin: string;
let sender: Sender;
let template: SenderTemplate;
beforeAll(async () => {
  t = await startDeliveryApp();
  fake = await WhatsAppFake.start(WA);
  admin = await t.adminToken();
  ({ sender } = await connectWhatsApp(t, admin, fake.url, WA, NORMAL));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const addTemplate = (senderId: string, payload: object, token = admin) =>
  t.request({ method: 'POST', url: `/api/delivery/senders/${senderId}/templates`, token, payload });

describe('a WhatsApp sender’s templates', () => {
  it('are added by the Admin with their variables counted, checked and unique', async () => {
    const res = await addTemplate(sender.id, {
      name: 'order_update',
      language: 'en_US',
      body: 'Hi {{1}}, your order {{2}} ships today. Thanks, {{1}}!',
    });
    expect(res.statusCode, res.body).toBe(201);
    template = res.json<SenderTemplate>();
    expect(template).toMatchObject({ name: 'order_update', language: 'en_US', variables: 2 });
    const cases: [object, string][] = [
      [{ name: 'gap', language: 'en', body: 'Hi {{1}} and {{3}}' }, msg.templateVariablesNumbering],
      [{ name: 'Bad Name', language: 'en', body: 'Hi' }, msg.templateNameInvalid],
      [{ name: 'x', language: 'english', body: 'Hi' }, msg.templateLanguageInvalid],
    ];
    for (const [payload, message] of cases) {
      const bad = await addTemplate(sender.id, payload);
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toEqual({ message });
    }
    const again = await addTemplate(sender.id, {
      name: 'order_update',
      language: 'en_US',
      body: 'x',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: msg.templateTaken });
    const senders = await t.request({ method: 'GET', url: '/api/delivery/senders', token: admin });
    const simulator = senders.json<Sender[]>().find((s) => s.providerKind === 'simulator')!;
    const notWhatsApp = await addTemplate(simulator.id, { name: 'a', language: 'en', body: 'x' });
    expect(notWhatsApp.statusCode).toBe(400);
    expect(notWhatsApp.json()).toEqual({ message: msg.templateSenderNotWhatsApp });
    const user = await t.createUser(admin, { role: 'User' });
    expect(
      (await addTemplate(sender.id, { name: 'a', language: 'en', body: 'x' }, user.token))
        .statusCode,
    ).toBe(403);
  });

  it('are offered to the campaign form of a type routed to that sender only', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    const offered = (type: string) =>
      t.request({
        method: 'GET',
        url: `/api/delivery/campaign-templates?creditType=${encodeURIComponent(type)}`,
        token: user.token,
      });
    const routed = await offered(NORMAL);
    expect(routed.statusCode, routed.body).toBe(200);
    expect(routed.json<CampaignTemplates>().templates.map((x) => x.id)).toEqual([template.id]);
    const other = await offered('With DP - domestic');
    expect(other.json<CampaignTemplates>().templates).toEqual([]);
  });

  it('a campaign sent as one: checked at creation, sent with its values in order', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, user.user.email, NORMAL, 10);
    const create = (fields: Record<string, string>) =>
      postCampaign(t, user.token, {
        creditType: NORMAL,
        message: 'Hi, your order ships today.',
        to: '919810011001,919810011002',
        ...fields,
      });
    const refusals: [Record<string, string>, string][] = [
      [{ templateId: template.id, templateValues: '["Asha"]' }, msg.templateValuesMissing(2)],
      [{ templateId: template.id, templateValues: '["Asha","A\\n12"]' }, msg.templateValueInvalid],
      [{ templateId: template.id, templateValues: 'not json' }, msg.templateValuesInvalid],
      [{ templateId: '00000000-0000-4000-8000-000000000000' }, msg.templateNotOfRoute],
    ];
    for (const [fields, message] of refusals) {
      const res = await create(fields);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const res = await create({ templateId: template.id, templateValues: '["Asha","A-12"]' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<CreateCampaignReply>().campaign;
    const kept = { name: 'order_update', language: 'en_US', bodyParameters: ['Asha', 'A-12'] };
    expect(created.template).toEqual(kept);
    // The message is the template filled with the values, not the text the request carried.
    expect(created.message).toBe('Hi Asha, your order A-12 ships today. Thanks, Asha!');
    const id = created._id;
    // The detail and the list show the campaign's template; a campaign without one has null.
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}`,
      token: user.token,
    });
    expect(detail.json<CampaignDetail>().template).toEqual(kept);
    const plain = await create({});
    expect(plain.json<CreateCampaignReply>().campaign.template).toBeNull();
    const list = await t.request({ method: 'GET', url: '/api/campaigns', token: user.token });
    const rows = list.json<CampaignList>().campaigns;
    expect(rows.find((c) => c._id === id)?.template).toEqual(kept);
    await setStatus(t, admin, id, 'Approved');
    await runDispatchSlice(
      { ...depsFor(t, t.app.ctx.delivery.adapterFor('simulator')), delivery: t.app.ctx.delivery },
      id,
      0,
    );
    expect((await campaignOf(t, id)).sent_count).toBe(2);
    expect(fake.messages.map((m) => m.body)).toContainEqual(
      expect.objectContaining({
        to: '919810011001',
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Asha' },
                { type: 'text', text: 'A-12' },
              ],
            },
          ],
        },
      }),
    );
  });
});
