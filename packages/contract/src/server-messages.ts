import { ruleMessages as rule } from './messages.js';
import { webhookMessages } from './webhook-messages.js';
import { formatCount } from './format-count.js';

/** A campaign as messages name it: by its name (schemas/campaigns.ts, defaultCampaignName). */
interface Named {
  name: string;
}

/** What the API answers in `{ message }` (the web app shows its own `ui` texts). */
export const server = {
  invalidInput: 'Invalid input.',
  textHasNul: 'Text must not contain a NUL character.',
  invalidCursor: 'Invalid cursor.',
  pageLimit: (max: number) => `Limit must be a whole number from 1 to ${max}.`,
  searchTooLong: (max: number) => `Search must be at most ${max} characters.`,
  fieldTooLong: 'A form field is too long.',
  notLoggedIn: 'Please log in to continue.',
  sessionEnded: 'Your session has ended. Please log in again.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found.',
  /** A row names a file the storage no longer holds (lost or removed by hand). */
  fileGone: 'This file is no longer stored on the server.',
  userNotFound: 'User not found.',
  tooManyRequests: 'Too many attempts. Please try again later.',
  serverBusy: 'The server is busy. Please try again in a few seconds.',
  internal: 'Something went wrong. Please try again.',
  payloadTooLarge: 'The upload is too large.',
  multipartMalformed: 'The upload was cut off or malformed. Please try again.',
  invalidCredentials: 'Invalid email or password.',
  accountBlocked: 'Your account is blocked. Please contact your administrator.',
  otpSent: 'If an account exists for that email, an OTP has been sent to it.',
  otpInvalid: 'Invalid or expired OTP.',
  passwordReset: 'Your password has been reset.',
  setPasswordLinkSent: (email: string) => `A new link to set the password was sent to ${email}.`,
  setPasswordLinkInactive: 'Only an active user can get a link to set the password.',
  setPasswordLinkInvalid:
    'This link has expired or was already used. Ask the person who created your account for a new one, or use Forgot Password on the login page.',
  passwordSet: 'Your password is set. You can now log in.',
  passwordChanged: 'Password changed successfully!',
  currentPasswordWrong: 'Current password is incorrect.',
  passwordsMismatch: 'New passwords do not match.',
  passwordSameAsOld: 'The new password must differ from the current one.',
  adminResetDone: 'Password reset successfully!',
  passwordChangeRequired: 'Change your password to continue: an administrator reset it.',
  emailTaken: 'A user with this email already exists.',
  roleNotAllowed: 'You cannot create or assign this role.',
  cannotChangeSelf: 'You cannot block or change the role of your own account.',
  lastAdmin: 'The last active Admin cannot be blocked or demoted.',
  roleHasSubtree: 'This user manages other users; move or remove them before changing the role.',
  roleParentMismatch: "The user's creator cannot hold a user of this role.",
  fieldNotAllowed: (field: string) => `You are not allowed to change ${field}.`,
  cityNotInState: 'Choose a city from the selected state.',
  logoType: 'The logo must be a PNG or JPEG image.',
  whitelabelOnlyBranded: 'Company name and logo apply only to Resellers and Sub-Resellers.',
  logoTooLarge: 'The logo is too large. Max size is 1MB.',
  whitelabelUpdated: 'Settings updated successfully!',
  userCreated: 'User created successfully!',
  userCreatedWithPassword: (password: string) =>
    `User created successfully! Their password is ${password} (shown once, never mailed; their mail holds a link to set their own).`,
  userUpdated: 'User updated successfully!',
  insufficientCredits: rule.insufficientCredits,
  creditDone: 'Credit transaction successful!',
  creditRecipientNotFound: 'No user with this email in your scope.',
  creditToSelf: 'Credits cannot be added to or removed from your own account.',
  idempotencyMismatch: 'This Idempotency-Key was already used with a different request.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 characters.',
  creditRecipientBlocked: 'This user is blocked.',
  campaignCreated: 'Campaign created.',
  campaignNotFound: 'Campaign not found.',
  campaignMessageRequired: rule.messageRequired,
  campaignMessageTooLong: 'Message must be at most 4096 characters.',
  campaignNoRecipients: rule.noRecipients,
  campaignTooManyRecipients: 'A campaign can have at most 1,000,000 recipients.',
  campaignCountryRequired: rule.countryRequired,
  campaignCtaCallInvalid: 'The call button number must be 3 to 15 digits.',
  campaignCtaUrlInvalid: 'The URL button link must be an http(s) URL.',
  campaignCtaIncomplete: 'Each button needs both its text and its number or link.',
  campaignFieldNotAllowed: (field: string) => `${field} is not allowed for this message type.`,
  campaignFileType: (field: string) => `The ${field} file is not of an allowed type.`,
  campaignFileTooLarge: rule.fileTooLarge,
  campaignDpDimensions: rule.dpDimensions,
  campaignTooManyImages: 'At most 3 images are allowed.',
  campaignDuplicateFile: (field: string) => `Only one ${field} file is allowed.`,
  campaignStatusUpdated: (status: string) => `Status updated to ${status}`,
  campaignStatusUnchanged: (status: string) => `The campaign is already ${status}.`,
  campaignCancelOnly: 'You may only request cancellation of this campaign.',
  campaignNotCancellable:
    'Only a Submitted, Pending Approval or Approved campaign can be cancelled.',
  campaignMoveNotAllowed: (from: string, to: string) =>
    `A ${from} campaign cannot be set to ${to}.`,
  reportFileRequired: rule.selectReportFile,
  reportFileNotCsv: 'The report file must be a CSV file.',
  reportFileEmpty: 'The report file has no rows.',
  reportFileTooLarge: 'The report file is too large. Max size is 64MB.',
  reportUploaded: 'Report uploaded successfully!',
  notifyCampaignStatus: (campaign: Named, status: string) =>
    `Your campaign '${campaign.name}' is now ${status}.`,
  notifyCampaignApprovedSending: (campaign: Named) =>
    `Your campaign '${campaign.name}' was approved and is being sent.`,
  /**
   * The one notice of a campaign's results (docs/product.md, Announcements and alerts): the report's own
   * figures (delivered includes read; failed is the rest), and the credits given back for the
   * recipients not delivered, when any.
   */
  notifyCampaignResults: (
    campaign: Named,
    r: { delivered: number; total: number; refunded: number; creditType: string },
  ) =>
    `Your campaign '${campaign.name}' is done: ${r.delivered} of ${r.total} delivered, ` +
    `${r.total - r.delivered} failed. The report is ready.` +
    (r.refunded > 0 ? ` ${r.refunded} ${r.creditType} credits were refunded.` : ''),
  notifyCampaignRefunded: (campaign: Named, count: number, creditType: string) =>
    `${count} ${creditType} credits were refunded for campaign '${campaign.name}': not delivered.`,
  notifyCampaignCancelRequested: (campaign: Named, email: string) =>
    `${email} asked to cancel campaign '${campaign.name}'.`,
  // The ledger's reasons for a campaign's credits (History's Reason column).
  ledgerCampaignCharge: (campaign: Named) => `Campaign '${campaign.name}'`,
  ledgerCampaignRefund: (campaign: Named) => `Refund for campaign '${campaign.name}'`,
  ledgerCampaignNotDelivered: (campaign: Named, count: number) =>
    `Refund for campaign '${campaign.name}': ${count} not delivered`,
  reportNoRecipients: 'None of the numbers in the report file is a recipient of this campaign.',
  reportSearchInvalid: 'Search the report by 1 to 15 digits of a number.',
  campaignBusy: 'This campaign is being updated right now. Please try again in a moment.',
  // The Admin's approval queue (docs/product.md, Campaigns).
  campaignNotAwaitingApproval: (status: string) =>
    `Only a Submitted or Pending Approval campaign can be approved or rejected; this one is ${status}.`,
  campaignApproved: 'Campaign approved.',
  campaignRejected: 'Campaign rejected.',
  rejectReasonRequired: 'Enter the reason for the rejection.',
  rejectReasonTooLong: 'The reason must be at most 500 characters.',
  reasonOnlyForRejected: 'A reason goes with the Rejected status only.',
  bulkApproveEmpty: 'Select at least one campaign.',
  bulkApproveTooMany: 'At most 100 campaigns can be approved at once.',
  bulkApproveResult: (approved: number, refused: number) =>
    refused === 0
      ? `${approved} campaign(s) approved.`
      : `${approved} campaign(s) approved, ${refused} not approved.`,
  notifyCampaignRejected: (campaign: Named, reason: string) =>
    `Your campaign '${campaign.name}' was rejected: ${reason}`,
  notifyCampaignAwaitingApproval: (campaign: Named, email: string) =>
    `Campaign '${campaign.name}' for ${email} awaits approval.`,
  notifyTicketCreated: (n: number, email: string) => `${email} opened ticket #${n}.`,
  historyExportRunning: 'An export is already running. Please wait for it to finish.',
  historyExportTooMany: 'Too many exports. Please try again in a few minutes.',
  notifyCreditsAdded: (count: number, creditType: string) =>
    `${count} ${creditType} credits were added to your account.`,
  notifyCreditsRemoved: (count: number, creditType: string) =>
    `${count} ${creditType} credits were removed from your account.`,
  ticketCreated: 'Ticket created.',
  ticketNotFound: 'Ticket not found.',
  ticketAttachmentQuota: (mb: number) =>
    `Attachments are limited to ${mb} MB a day per user. Please try again tomorrow, or attach smaller files.`,
  storageLow: 'The server is low on storage space, so uploads are paused. Please try again later.',
  ticketRepliesFull: (max: number) =>
    `This ticket has reached its ${max} replies. Please open a new ticket to go on.`,
  ticketSubjectRequired: 'Subject is required.',
  ticketDescriptionRequired: 'Description is required.',
  ticketReplyRequired: 'Reply message is required.',
  ticketTextTooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  ticketTooManyAttachments: 'At most 5 attachments are allowed.',
  ticketAttachmentTooLarge: rule.fileTooLarge,
  ticketAttachmentType: 'Attachments must be images, PDF, CSV, XLSX or text files.',
  ticketAssigneeInvalid: 'A ticket can be assigned to Admin or to a reseller.',
  ticketEscalateNotAssigned: 'Only the reseller assigned to this ticket can escalate it.',
  ticketRelatedNotFound: (what: string) => `The related ${what} was not found.`,
  notifyTicketReply: (n: number, email: string) => `${email} replied to ticket #${n}.`,
  notifyTicketStatus: (n: number, status: string) => `Ticket #${n} is now ${status}.`,
  notifyTicketAssigned: (n: number, to: string) => `Ticket #${n} was assigned to ${to}.`,
  notifyTicketEscalated: (n: number, email: string) =>
    `${email} escalated ticket #${n} to the Admin.`,
  announcementCreated: 'Announcement created successfully!',
  announcementDeleted: 'Announcement deleted successfully!',
  announcementNotFound: 'Announcement not found.',
  notificationNotFound: 'Notification not found.',
  notificationsAllRead: 'All notifications marked as read.',
  liveNeedsEventStream: 'This stream answers Accept: text/event-stream only.',
  announcementTitleRequired: 'Title is required.',
  announcementMessageRequired: 'Message is required.',
  announcementTextTooLong: (label: string, max: number) =>
    `${label} must be at most ${max} characters.`,
  announcementLinkInvalid: 'The link must be an http(s) URL.',
  announcementExpiryInvalid: 'Expiry date must be a valid date.',
  announcementExpiryPast: 'Expiry date must be in the future.',
  announcementVisibilityInvalid: 'Choose a visibility: all, reseller or specific.',
  announcementTargetsRequired: 'List at least one user email for specific visibility.',
  announcementTargetsOnlySpecific: 'Target emails apply only to specific visibility.',
  announcementTooManyTargets: (max: number) => `At most ${max} target emails are allowed.`,
  announcementTargetUnknown: (email: string) => `No user with the email ${email}.`,
  announcementImageType: 'The image must be a PNG, JPEG, GIF or WebP image.',
  announcementImageTooLarge: rule.fileTooLarge,
  backupSaved: (name: string) => `Backup saved to server as ${name}.`,
  backupNotFound: 'Backup not found.',
  cleanupConfirmRequired: 'Type DELETE to confirm the cleanup.',
  backupSaveRunning: 'A backup is already being saved to the server. Please wait for it to finish.',
  backupFailed: 'The backup could not be built.',
  cleanupDatesRequired: "Please select both a 'from' and 'to' date for cleanup.",
  cleanupRangeInvalid: "The 'from' date must not be after the 'to' date.",
  cleanupDataTypeInvalid: 'Choose campaigns, users or transactions.',
  cleanupDone: (count: number, what: string, backup: string, kept = 0) =>
    `Deleted ${count} ${what}. A backup was saved first as ${backup}.` +
    (kept > 0
      ? ` ${kept} ${kept === 1 ? 'campaign' : 'campaigns'} in the range still in progress ${kept === 1 ? 'was' : 'were'} kept: ${kept === 1 ? 'its' : 'their'} credits are not settled yet.`
      : ''),
  senderNotFound: 'Sender not found.',
  // Providers, senders and routing (Admin).
  providerNotFound: 'Provider not found.',
  providerNameInvalid: (max: number) => `Provider name must be 1 to ${max} characters.`,
  providerNameTaken: 'A provider with this name already exists.',
  providerKindInvalid: 'Choose the kind of provider.',
  providerFieldUnknown: (name: string) => `Unknown provider field: ${name}.`,
  providerFieldRequired: (label: string) => `${label} is required.`,
  providerFieldTooLong: (label: string, max: number) =>
    `${label} must be at most ${max} characters.`,
  providerUrlInvalid: (label: string) => `${label} must be an http:// or https:// URL.`,
  providerCountryCodeInvalid: 'Domestic country code must be 1 to 4 digits.',
  providerBuiltin:
    'The built-in simulator is set up by the server’s settings; only its senders can be changed here.',
  providerHasSenders: 'This provider still has senders. Remove them first.',
  providerDisabled: 'This provider is disabled.',
  providerTestNumberInvalid: 'Enter the number with its country code, 8 to 15 digits.',
  providerTestMessageInvalid: (max: number) => `The test message must be 1 to ${max} characters.`,
  providerTestAccepted: 'The provider accepted the test message.',
  providerTestRefused: 'The provider refused the test message.',
  providerTestUnreachable: 'The provider could not be reached.',
  senderNameInvalid: (max: number) => `Sender name must be 1 to ${max} characters.`,
  senderNameTaken: 'A sender with this name already exists.',
  senderAddressInvalid: (max: number) => `The sender's address must be at most ${max} characters.`,
  senderAddressRequired: (label: string) => `${label} is required.`,
  senderNotOfProvider: 'This sender does not belong to this provider.',
  senderIsDefault: 'The default sender cannot be removed.',
  senderSending: 'This sender is sending campaigns; remove it once they are done.',
  routeRichToSms: (creditType: string) =>
    `${creditType} has pictures or buttons and cannot be sent through an SMS gateway.`,
  creditTypeInvalid: 'Unknown credit type.',
  // WhatsApp templates.
  templateNameInvalid: 'Template name: lowercase letters, digits and underscores, as approved.',
  templateLanguageInvalid: 'Language: a code such as en or en_US.',
  templateBodyInvalid: (max: number) => `Template text must be 1 to ${max} characters.`,
  templateVariablesNumbering: 'Number the variables {{1}}, {{2}} … without gaps.',
  templateTaken: 'This sender already has a template of this name and language.',
  templateTooMany: (max: number) => `A sender has at most ${max} templates.`,
  templateNotFound: 'Template not found.',
  templateSenderNotWhatsApp: 'Templates belong to WhatsApp senders.',
  templateNotOfRoute: 'This template is not one of the sender this credit type goes through.',
  templateValuesMissing: (n: number) =>
    `Fill in the template's ${n} ${n === 1 ? 'variable' : 'variables'}.`,
  templateValueTooLong: (max: number) => `A template variable is at most ${max} characters.`,
  templateValueInvalid:
    'A template variable cannot hold a new line, a tab or more than four spaces in a row.',
  templateValuesInvalid: 'Template variables must be a list of texts.',
  senderRateInvalid: (max: number) =>
    `Rate per second must be a whole number from 1 to ${formatCount(max)}.`,
  senderDailyLimitInvalid: (max: number) =>
    `Daily limit must be a whole number from 1 to ${formatCount(max)}, or empty for unlimited.`,
  // Pausing and resuming a campaign's sending.
  deliveryPaused: 'Sending paused.',
  deliveryResumed: 'Sending resumed.',
  deliveryNotSending: 'This campaign is not being sent.',
  deliveryNotPaused: 'This campaign is not paused.',
  notifyCampaignPausedByProvider: (campaign: Named, reason: string) =>
    `Sending of campaign '${campaign.name}' was paused: the provider answered "${reason}". ` +
    'Resume it from the campaign once the cause is dealt with.',
  // Delivery status webhooks and settlement.
  webhookProviderUnknown: 'Unknown delivery provider.',
  webhookSignatureInvalid: 'The webhook signature is not valid.',
  webhookBodyInvalid: 'The webhook body is not a valid status callback.',
  webhookNotWritten: 'The status events could not be saved. Please send them again.',
  // Why a provider adapter refused a message before sending it (a recipient's error text).
  providerBodyTooLong: (max: number) =>
    `The message is longer than the ${formatCount(max)} characters this message type allows.`,
  providerButtonTextTooLong: (max: number) =>
    `The button text is longer than the ${max} characters the provider allows.`,
  providerCallNeedsTemplate: 'A call button can only be sent through an approved template.',
  providerNoMessageId: 'The provider accepted the message without giving its id.',
  webhookSubscriptionRefused: 'The webhook verification token is not valid.',
  webhookBodyTooLarge: (maxMb: number) =>
    `The webhook body is too large: send at most ${maxMb} MB in one request.`,
  // The suppression list (docs/product.md, Opt-outs).
  suppressionPhoneInvalid: 'Enter a phone number of 7 to 15 digits.',
  suppressionSearchInvalid: (max: number) => `Search by 1 to ${max} digits of a number.`,
  suppressionAdded: (phone: string) => `${phone} is on the suppression list now.`,
  suppressionExists: (phone: string) => `${phone} is already on the suppression list.`,
  suppressionNotFound: 'This number is not on the suppression list.',
  suppressionRemoved: (phone: string) => `${phone} was removed from the suppression list.`,
  suppressionImportFileRequired: 'Choose a CSV file of numbers to import.',
  suppressionImportNotCsv: 'The import must be a .csv file.',
  suppressionImportTooLarge: (maxMb: number) =>
    `The import file is too large: at most ${maxMb} MB.`,
  suppressionImportTooManyRows: (max: number) =>
    `The import file has too many rows: at most ${formatCount(max)}.`,
  suppressionImportMalformed:
    'The file could not be read as CSV (text in UTF-8, one number per row or a "phone" column). Nothing was imported.',
  suppressionImportDone: (added: number, skipped: number, invalid: number) =>
    `Imported ${added} ${added === 1 ? 'number' : 'numbers'}; ${skipped} already listed, ${invalid} invalid.`,
  suppressionCheckTooMany: (max: number) => `Send at most ${formatCount(max)} numbers to check.`,
  // API keys (docs/api.md).
  apiKeyNameRequired: 'Enter a name for the key.',
  apiKeyNameTooLong: (max: number) => `The key's name must be at most ${max} characters.`,
  apiKeyKindInvalid: 'Choose a live or a test key.',
  apiKeyCreated: (name: string) =>
    `API key ${name} was created. Copy it now: it is not shown again.`,
  apiKeysTooMany: (max: number) => `You have ${max} API keys already. Revoke one to add another.`,
  apiKeyNotFound: 'This API key does not exist or was revoked.',
  apiKeyRevoked: (name: string) => `API key ${name} was revoked.`,
  apiKeyInvalid: 'This API key is not valid or was revoked.',
  apiKeyNeedsSession: 'API keys cannot manage API keys. Sign in to the web app to do this.',
  ...webhookMessages,
} as const;
