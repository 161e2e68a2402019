/**
 * The web app's texts of WhatsApp templates (docs/delivery.md, Templates): the Providers
 * screen's Templates section, the campaign form's Template select and the campaign details;
 * `ui.templates` in ui-messages.ts.
 */
const variables = (n: number) => `${n} ${n === 1 ? 'variable' : 'variables'}`;

export const templatesUi = {
  // The Providers screen.
  title: 'Templates',
  intro:
    'WhatsApp sends marketing messages to people who have not written in the last 24 hours only as templates Meta approved. Register each approved template here with the name, language and text it has in WhatsApp Manager.',
  noWhatsAppSenders: 'Add a WhatsApp Cloud API sender to register its templates.',
  senderHeading: (name: string, address: string) => (address ? `${name} (${address})` : name),
  loadFailed: 'Could not load the templates.',
  noTemplates: 'No templates yet.',
  columns: {
    name: 'Name',
    language: 'Language',
    body: 'Text',
    variables: 'Variables',
    actions: 'Actions',
  },
  add: 'Add template',
  addFor: (sender: string) => `Add template to ${sender}`,
  addTitle: (sender: string) => `Add a template to ${sender}`,
  nameLabel: 'Name',
  nameHint: 'As approved in WhatsApp Manager, e.g. order_update.',
  languageLabel: 'Language',
  languageHint: 'The code it was approved in, e.g. en or en_US.',
  bodyLabel: 'Text',
  bodyHint: 'Its body as approved, with the variables as {{1}}, {{2}} …',
  variablesFound: (n: number | null) =>
    n === null ? 'The variables are not numbered {{1}}, {{2}} … in order.' : variables(n),
  created: (name: string) => `Template ${name} added.`,
  createFailed: 'Could not add the template.',
  removeLabel: (name: string) => `Remove the template ${name}`,
  removeTitle: 'Remove template',
  removeConfirm: (name: string) =>
    `Remove the template ${name}? Campaigns already created with it keep their copy.`,
  removed: (name: string) => `Template ${name} removed.`,
  removeFailed: 'Could not remove the template.',
  // The campaign form.
  templateLabel: 'Template',
  noTemplate: 'No template',
  optionLabel: (name: string, language: string) => `${name} (${language})`,
  templateHint:
    'Sent as this approved WhatsApp template with the values below: its text is the campaign’s message, with no media or buttons.',
  campaignLoadFailed: 'Could not load the templates of this credit type.',
  variableLabel: (n: number) => `Variable {{${n}}}`,
  previewLabel: 'Template preview',
  // The campaign details.
  detailsLabel: 'Template',
  detailsValues: 'Values',
} as const;
