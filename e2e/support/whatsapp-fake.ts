import { fileURLToPath } from 'node:url';

/**
 * The server's WhatsApp Cloud API fake (a real HTTP server on 127.0.0.1, written from Meta's
 * reference; docs/delivery.md, Providers) for the browser journeys. It is server test code,
 * type-checked by the server's project: imported by a literal path, this project (with the DOM
 * library) would check it again and refuse its Node Buffer bodies, so vitest loads it by its
 * source path held in a variable, and the part the journeys use is described here.
 */
export interface WhatsAppFakeOptions {
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
}

export interface FakeSent {
  body: {
    to: string;
    type: string;
    biz_opaque_callback_data?: string;
    /** A `type: "template"` message's template: name, language and body parameters. */
    template?: unknown;
  };
  id: string;
}

export interface WhatsAppFake {
  readonly url: string;
  /** Accepted message bodies, in order, with the id each was given. */
  readonly messages: FakeSent[];
  /** Posts Meta's status webhook, signed with the app secret. */
  postStatuses(url: string, statuses: Record<string, unknown>[]): Promise<{ status: number }>;
  /** Posts people's replies as Meta's inbound webhook, signed with the app secret. */
  postInbound(url: string, messages: Record<string, unknown>[]): Promise<{ status: number }>;
  close(): Promise<void>;
}

interface FakeModule {
  WhatsAppFake: { start(o: WhatsAppFakeOptions): Promise<WhatsAppFake> };
  waStatus(
    sent: FakeSent,
    status: 'sent' | 'delivered' | 'read' | 'failed',
  ): Record<string, unknown>;
}

const FAKE_MODULE = fileURLToPath(
  new URL(
    '../../apps/server/src/modules/delivery/providers/fakes/whatsapp-fake.ts',
    import.meta.url,
  ),
);

export async function startWhatsAppFake(o: WhatsAppFakeOptions) {
  const mod = (await import(FAKE_MODULE)) as FakeModule;
  const fake = await mod.WhatsAppFake.start(o);
  return { fake, status: mod.waStatus };
}
