import { describe, expect, it } from 'vitest';
import { PROVIDER_LIMITS, server as msg, ui, type Provider } from '@herald/contract';
import {
  FORM_ERROR,
  fieldKey,
  newProviderValues,
  parseNewProvider,
  parseProviderEdit,
  problemField,
  providerFormValues,
  secretHint,
  toggleBody,
  withKind,
} from './provider-form';

const whatsapp = (fields: Record<string, string>) => ({
  ...newProviderValues('whatsapp_cloud'),
  name: 'Meta',
  fields: { ...newProviderValues('whatsapp_cloud').fields, ...fields },
});
const SECRETS = { accessToken: 'EAAG-token-1234', appSecret: 'app-secret', verifyToken: 'verify' };

const saved: Provider = {
  id: 'p1',
  name: 'Meta',
  kind: 'whatsapp_cloud',
  builtin: false,
  enabled: true,
  settings: { baseUrl: 'https://graph.facebook.com', apiVersion: 'v21.0' },
  secrets: { accessToken: '1234', appSecret: 'cret', verifyToken: 'rify' },
  callbackUrl: 'https://herald.example/api/delivery/webhooks/p1',
  senderCount: 1,
  createdAt: '2026-12-01T00:00:00.000Z',
};

describe('new provider form', () => {
  it("opens with the kind's defaults and changes them with the kind, keeping the name", () => {
    expect(newProviderValues()).toEqual({ kind: '', name: '', fields: {} });
    const v = { ...newProviderValues('whatsapp_cloud'), name: 'Meta' };
    expect(v.fields).toEqual({
      baseUrl: 'https://graph.facebook.com',
      apiVersion: 'v21.0',
      domesticCountryCode: '',
      accessToken: '',
      appSecret: '',
      verifyToken: '',
    });
    expect(withKind(v, 'jasmin')).toEqual({
      kind: 'jasmin',
      name: 'Meta',
      fields: { baseUrl: '', domesticCountryCode: '', username: '', password: '' },
    });
  });
  it('splits settings from secrets, trimmed, leaving empty ones out', () => {
    expect(parseNewProvider(whatsapp({ ...SECRETS, apiVersion: ' v22.0 ' }))).toEqual({
      body: {
        kind: 'whatsapp_cloud',
        name: 'Meta',
        enabled: true,
        settings: { baseUrl: 'https://graph.facebook.com', apiVersion: 'v22.0' },
        secrets: SECRETS,
      },
      errors: null,
    });
  });
  it("puts the contract's problem on the field it names, and the kind and name on theirs", () => {
    expect(parseNewProvider(newProviderValues()).errors).toEqual({
      kind: msg.providerKindInvalid,
      name: msg.providerNameInvalid(PROVIDER_LIMITS.nameMax),
    });
    expect(
      parseNewProvider(whatsapp({ ...SECRETS, baseUrl: 'graph.facebook.com' })).errors,
    ).toEqual({ [fieldKey('baseUrl')]: msg.providerUrlInvalid('Graph API URL') });
    expect(parseNewProvider(whatsapp({ ...SECRETS, accessToken: ' ' })).errors).toEqual({
      [fieldKey('accessToken')]: msg.providerFieldRequired('Access token'),
    });
    expect(
      parseNewProvider({ ...whatsapp({ ...SECRETS, domesticCountryCode: '+91' }), name: '' })
        .errors,
    ).toEqual({
      name: msg.providerNameInvalid(PROVIDER_LIMITS.nameMax),
      [fieldKey('domesticCountryCode')]: msg.providerCountryCodeInvalid,
    });
    const long = 'x'.repeat(PROVIDER_LIMITS.secretMax + 1);
    expect(parseNewProvider(whatsapp({ ...SECRETS, appSecret: long })).errors).toHaveProperty(
      fieldKey('appSecret'),
    );
  });
  it('names the field of each of the contract’s messages, and none for a foreign one', () => {
    expect(problemField('twilio', msg.providerFieldRequired('Auth token'))).toBe('password');
    expect(
      problemField('jasmin', msg.providerFieldTooLong('Gateway URL', PROVIDER_LIMITS.settingMax)),
    ).toBe('baseUrl');
    expect(problemField('jasmin', msg.providerFieldUnknown('x'))).toBeNull();
    expect(FORM_ERROR).not.toBe(fieldKey('form'));
  });
});

describe('provider edit form', () => {
  it('shows the saved settings, never a secret, and says how each saved secret ends', () => {
    const v = providerFormValues(saved);
    expect(v.fields).toEqual({ ...newProviderValues('whatsapp_cloud').fields });
    const token = { name: 'accessToken', label: 'Access token', secret: true, required: true };
    expect(secretHint(token, saved)).toBe(ui.providers.secretSaved('1234'));
    expect(secretHint(token, null)).toBeUndefined();
    expect(secretHint({ ...token, hint: 'Signs.' }, saved)).toBe(
      `Signs. ${ui.providers.secretSaved('1234')}`,
    );
  });
  it('keeps the saved secrets when left empty and sends a cleared setting as empty', () => {
    const v = providerFormValues(saved);
    expect(parseProviderEdit({ ...v, name: 'Meta 2' }, saved)).toEqual({
      body: {
        name: 'Meta 2',
        enabled: true,
        settings: { ...saved.settings, domesticCountryCode: '' },
        secrets: {},
      },
      errors: null,
    });
    const changed = { ...v, fields: { ...v.fields, accessToken: 'new-token' } };
    expect(parseProviderEdit(changed, saved).body?.secrets).toEqual({ accessToken: 'new-token' });
    const bad = { ...v, fields: { ...v.fields, apiVersion: '' } };
    expect(parseProviderEdit(bad, saved).errors).toEqual({
      [fieldKey('apiVersion')]: msg.providerFieldRequired('API version'),
    });
  });
  it('turns a provider off and on with its saved settings and no secret', () => {
    expect(toggleBody(saved)).toEqual({
      name: 'Meta',
      enabled: false,
      settings: { ...saved.settings, domesticCountryCode: '' },
      secrets: {},
    });
    expect(toggleBody({ ...saved, enabled: false }).enabled).toBe(true);
  });
});
