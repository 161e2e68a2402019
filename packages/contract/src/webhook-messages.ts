/** What the webhooks API answers in `{ message }` (docs/api.md, Webhooks); part of `server`. */
export const webhookMessages = {
  webhookUrlRequired: 'Enter the endpoint URL.',
  webhookUrlTooLong: (max: number) => `The URL must be at most ${max} characters.`,
  webhookUrlInvalid: 'Enter a valid URL, such as https://example.com/webhooks.',
  webhookUrlNotHttps: 'The URL must start with https://.',
  webhookUrlHasCredentials: 'The URL must not contain a user name or password.',
  webhookUrlPrivate:
    'This URL points to a private, local or reserved address. Use a public address.',
  webhookUrlUnresolvable: 'This URL’s host name could not be found.',
  webhookEventsRequired: 'Choose at least one event.',
  webhookEventInvalid: 'Choose events from the list.',
  webhookDescriptionTooLong: (max: number) => `The description must be at most ${max} characters.`,
  webhookEndpointsTooMany: (max: number) =>
    `You have ${max} webhook endpoints already. Delete one to add another.`,
  webhookEndpointNotFound: 'This webhook endpoint does not exist or was deleted.',
  webhookEndpointCreated: 'Endpoint added. Copy its signing secret now: it is not shown again.',
  webhookEndpointUpdated: 'Endpoint saved.',
  webhookEndpointDeleted: 'Endpoint deleted.',
  webhookSecretRotated: 'New signing secret made. Copy it now: it is not shown again.',
  webhookTestQueued: 'Test event queued. It appears in the deliveries in a moment.',
  webhookEndpointDisabledTest: 'Enable the endpoint to send it a test event.',
  lowBalanceThresholdInvalid: (max: number) =>
    `The threshold must be a whole number of credits from 1 to ${max}, or empty for none.`,
  lowBalanceThresholdSaved: 'Low-balance alert saved.',
  notifyWebhookDisabledFailing: (url: string) =>
    `Webhook endpoint ${url} was disabled: its deliveries failed for 3 days. Fix it, then enable it again.`,
  // What the delivery log says of a call that got no answer.
  webhookDeliveryBlocked: 'Refused: the host resolves to a private or reserved address.',
  webhookDeliveryUnresolvable: 'The host name could not be resolved.',
  webhookDeliveryTimedOut: 'Timed out.',
  notifyWebhookDisabledGone: (url: string) =>
    `Webhook endpoint ${url} was disabled: it answered 410 Gone.`,
} as const;
