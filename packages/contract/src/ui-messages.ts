import { loginMessages, ruleMessages, UNAUTHORIZED_ACCESS } from './messages.js';
import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from './recipients.js';
import { SET_PASSWORD_LINK_TTL_HOURS } from './limits.js';
import { apiKeysUi } from './ui-api-keys.js';

/**
 * The web app's messages by screen. Apart from messages.ts: the spread below
 * is kept by the bundler wherever this module lands, so it must not land in the first chunk.
 */
export const ui = {
  unauthorizedAccess: UNAUTHORIZED_ACCESS,
  login: loginMessages,
  users: {
    loadFailed: 'Failed to load users.',
    createFailed: 'Error creating user.',
    created: 'User created successfully!',
    updateFailed: 'Failed to update user.',
    updated: 'User updated successfully!',
    resetFailed: 'Failed to reset password.',
    resetDone: 'Password reset successfully!',
    enterNewPassword: 'Please enter a new password.',
    confirmReset: (email: string) => `Are you sure you want to reset the password for ${email}?`,
    empty: 'No users yet.',
    noMatches: 'No users match your search.',
    passwordLinkTitle: 'Password link',
    passwordLinkHint: (email: string) =>
      `Mail ${email} a new link to set the password (it works once, for ${SET_PASSWORD_LINK_TTL_HOURS} hours; older links stop working).`,
    passwordLinkSend: 'Send password link',
    passwordLinkFailed: 'Could not send the link.',
  },
  profile: {
    loadFailed: 'Failed to fetch user profile data.',
    sessionExpired: 'Your session has expired. Please log in again.',
    authError: 'Authentication error. Please log in again.',
    noUserId: 'User ID not found in URL.',
    noData: 'No user data to display.',
    changePasswordFailed: 'Failed to change password.',
    passwordChanged: 'Password changed successfully!',
    passwordsMismatch: 'New passwords do not match.',
    mustChangePassword: 'An administrator reset your password. Choose a new one to continue.',
    notFound: 'User not found.',
    noBalances: 'No credit balances yet.',
    noCampaigns: 'No campaigns yet.',
  },
  credits: {
    loadFailed: 'Failed to load data.',
    pageFailed: 'Failed to fetch page data.',
    noCurrentUser: 'Could not identify current user. Please log in again.',
    transactionFailed: 'Transaction failed.',
    transactionDone: 'Credit transaction successful!',
    pleaseLogIn: 'Please log in to view this page.',
    noTransactions: 'No transactions found.',
  },
  history: {
    loadFailed: 'Failed to fetch transaction history. Unauthorized or server error.',
    pleaseLogIn: 'Please log in to view this page.',
    empty: 'No transactions found for the applied filters.',
    exportFailed: 'Failed to export transaction history.',
  },
  analytics: { loadFailed: 'Failed to load analytics data.' },
  dashboard: {
    loadFailed: 'Failed to load dashboard figures.',
    /** Under a per-type credit card that leaves out the types at 0. */
    otherTypesZero: 'Other types: 0',
    /** A per-type credit card where every type is at 0. */
    noCredits: 'None of any type',
  },
  campaigns: {
    nameHint: 'Optional. When empty, the campaign is named after the first words of its message.',
    namePlaceholder: 'e.g. Diwali offer',
    /** The recipients summary's count of tokens/cells that are not numbers (names, headers). */
    recipientsIgnored: 'Ignored (not a number)',
    /** The invalid entries under the recipient counts (docs/product.md, How numbers are read). */
    invalidEntriesTitle: (shown: number, total: number) =>
      shown < total
        ? `Invalid entries: the first ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`
        : 'Invalid entries',
    invalidEntryReason: (digits: number) =>
      digits < RECIPIENT_MIN_DIGITS
        ? `${digits} ${digits === 1 ? 'digit' : 'digits'}, fewer than ${RECIPIENT_MIN_DIGITS}`
        : `${digits} digits, more than ${RECIPIENT_MAX_DIGITS}`,
    invalidEntriesDownload: (total: number) =>
      `Download all ${total.toLocaleString('en-US')} invalid ${total === 1 ? 'entry' : 'entries'}`,
    invalidEntriesFile: 'invalid-numbers.txt',
    fileUnreadable: 'Could not read the file.',
    parserUnavailable: 'File parsing library is not available. Please contact support.',
    loadFailed: '❌ Failed to load page data.',
    createFailed: '❌ Error creating campaign.',
    created: '✅ Campaign created successfully!',
    downloadFailed: '❌ Failed to download campaign assets.',
    reportUploaded: '✅ Report uploaded successfully!',
    reportUploadFailed: '❌ Error uploading report.',
    statusUpdated: (status: string) => `✅ Status updated to ${status}`,
    statusFailed: '❌ Error updating campaign status.',
    approveFailed: '❌ Error approving the campaign.',
    rejectFailed: '❌ Error rejecting the campaign.',
    approved: '✅ Campaign approved.',
    rejected: '✅ Campaign rejected.',
    bulkApproveFailed: '❌ Error approving the selected campaigns.',
    mediaFailed: 'Could not load this file.',
    /** Under the recipient count (docs/product.md, Campaigns: cost, preview, confirm). */
    costLine: (count: string, type: string, left: string) =>
      `Uses ${count} ${type} credits; ${left} left after`,
    shortfall: (needed: string, have: string) => `Needs ${needed}, you have ${have}`,
    /** The message box's counter. */
    messageCounter: (used: string, max: string) => `${used} / ${max}`,
    /** One line under the Credit Type select for the types that add something. */
    typeExplainDp: 'DP types show your picture as the sender’s profile photo (DP).',
    typeExplainCta:
      'CTA types add a call button and a link button under the message, with one single creative.',
    typeExplainOwnNumber:
      'Own Number sends from the owner’s own number (set by the Admin), with a DP and buttons.',
    /** A chosen file the form refused: it stays listed until removed, and blocks submitting. */
    fileRejectedBlocks: 'Remove the refused file before creating the campaign.',
    removeFile: (name: string) => `Remove ${name}`,
    /** Shown when the form came back from this browser tab's draft. */
    draftRestored: 'Restored what you typed before. Files are not kept: choose them again.',
    confirmTitle: 'Confirm campaign',
    confirmCost: (count: string, type: string) => `${count} ${type} credits`,
    ...ruleMessages,
    empty: 'No campaigns found.',
    /** Under the recipient count (docs/product.md, Opt-outs). */
    suppressedLine: (n: number) =>
      `${n.toLocaleString('en-US')} of these ${n === 1 ? 'numbers is' : 'numbers are'} on the suppression list and will not be sent to.`,
    suppressedCheckFailed: 'Could not check the numbers against the suppression list.',
  },
  /** The Suppression List screen (docs/product.md, Opt-outs). */
  suppressions: {
    title: 'Suppression List',
    intro:
      'Campaigns never send to these numbers. People who reply STOP are added here, and removed when they reply START.',
    loadFailed: 'Could not load the suppression list.',
    empty: 'No numbers on the suppression list.',
    noMatches: 'No numbers match your search.',
    searchLabel: 'Search number',
    ownerFilterLabel: 'Owner',
    allOwners: 'All owners',
    phoneLabel: 'Phone number',
    addButton: 'Add number',
    addFailed: 'Could not add the number.',
    removeLabel: (phone: string) => `Remove ${phone}`,
    removeTitle: 'Remove number',
    removeConfirm: (phone: string) =>
      `Remove ${phone} from the suppression list? Campaigns will send to it again.`,
    removeFailed: 'Could not remove the number.',
    importLabel: 'Import CSV',
    importHint: 'One number per row, or a column named "phone".',
    importButton: 'Import',
    importFailed: 'Could not import the file.',
    exportButton: 'Export CSV',
    exportFailed: 'Could not export the list.',
    exportFile: 'suppression-list.csv',
    columns: {
      phone: 'Number',
      source: 'Added by',
      createdAt: 'Added',
      owner: 'Owner',
      actions: 'Actions',
    },
    sources: {
      manual: 'By hand',
      import: 'Import',
      keyword: 'STOP reply',
      provider: 'Provider',
    },
  },
  apiKeys: apiKeysUi,
  reports: {
    loadFailed: 'Failed to fetch report data.',
    filterLabel: 'Show',
    searchLabel: 'Search number',
    searchPlaceholder: 'Digits, e.g. 98765',
    searchHint: 'Digits only, up to 15.',
    noMatch: 'No recipients match.',
    columnRecipient: 'Recipient',
    columnStatus: 'Status',
    columnReason: 'Reason',
    columnChanged: 'Last change',
    exportAll: 'Export Report to CSV',
    exportFiltered: 'Export shown rows to CSV',
    exportNote: 'The CSV holds the rows the filter and search show.',
  },
  tickets: {
    loadFailed: 'Failed to load tickets and related data.',
    pleaseLogIn: 'You must be logged in to view this page.',
    createFailed: 'Failed to create ticket.',
    downloadFailed: 'Failed to download attachment.',
    replyFailed: 'Failed to post reply.',
    showEarlierReplies: 'Show earlier replies',
    earlierRepliesFailed: 'Failed to load earlier replies.',
    escalateFailed: 'Failed to escalate ticket.',
    statusFailed: 'Failed to update status.',
    assignFailed: 'Failed to assign ticket.',
    confirmEscalate: 'Are you sure you want to escalate this ticket to the Admin?',
    empty: 'No tickets found.',
  },
  announcements: {
    loadFailed: 'Failed to load data.',
    createFailed: 'Failed to create announcement.',
    deleteFailed: 'Failed to delete announcement.',
    historyFailed: 'Failed to load announcement history.',
    created: 'Announcement created successfully!',
    deleted: 'Announcement deleted successfully!',
    confirmDelete: (title: string) =>
      `Are you sure you want to delete the announcement "${title}"?`,
    empty: 'No announcements yet.',
    historyEmpty: 'No announcements to show.',
  },
  /** Whitelabel Settings. */
  whitelabel: {
    title: 'Whitelabel Settings',
    loadFailed: 'Failed to load current settings.',
    updateFailed: 'Failed to update settings.',
    updated: 'Settings updated successfully!',
    companyName: 'Company Name',
    companyLogo: 'Company Logo',
    logoHint: 'Recommended logo 200x50 pixels, transparent PNG.',
    logoPreview: 'Logo Preview',
    noLogo: 'No logo uploaded.',
    removeLogo: 'Remove logo',
    save: 'Save Settings',
    saving: 'Saving...',
    adminIntro:
      'This is the platform default: every user without a company name or logo of their own, or a branded Reseller above them, sees it in the layout and in their mail.',
    ownerIntro: 'Your users see this company name and logo in the layout and in their mail.',
    currentlyShown: (name: string) => `Shown now: ${name}`,
    reset: 'Reset to default',
    resetting: 'Resetting...',
    resetConfirmTitle: 'Reset branding',
    resetConfirm:
      'Clear the company name and logo? Those who see this branding now will see the default above it instead.',
    resetDone: 'Branding reset to the default.',
    resetFailed: 'Failed to reset the branding.',
  },
  /** Backup & Data Management and Storage Management. */
  backup: {
    title: 'Backup & Data Management',
    storageTitle: 'Storage Management',
    downloadFailed: 'Failed to download backup.',
    saveFailed: 'Failed to save backup to server.',
    cleanupFailed: 'Failed to perform data cleanup.',
    storageLoadFailed: 'Failed to load storage usage data.',
    fileCreated: 'Backup file created. Now downloading...',
    downloaded: 'Backup downloaded successfully!',
    fullBackup: 'Full Backup',
    fullBackupHint: 'Download every table as an Excel workbook, or save a copy on the server.',
    download: 'Download Full Backup',
    saveToServer: 'Save Backup to Server',
    building: (rows: number, total: number) =>
      `Building backup: ${rows.toLocaleString('en-IN')} of about ${total.toLocaleString('en-IN')} rows...`,
    downloading: 'Downloading...',
    saveQueued: 'Backup queued on the server; it starts in a moment...',
    saving: (rows: number, total: number) =>
      `Saving backup to server: ${rows.toLocaleString('en-IN')} of about ${total.toLocaleString('en-IN')} rows...`,
    savedBackups: 'Saved Backups',
    noSavedBackups: 'No backups saved on the server yet.',
    fileName: 'File',
    size: 'Size',
    date: 'Date',
    cleanupTitle: 'Data Cleanup',
    dataType: 'Data Type',
    dataTypes: { campaigns: 'Campaigns', users: 'Users', transactions: 'Transactions' },
    fromDate: 'From Date',
    toDate: 'To Date',
    cleanupButton: 'Clean Up Data',
    cleanupDatesRequired: "Please select both a 'from' and 'to' date for cleanup.",
    usersWarning:
      'Warning: deleting users also deletes their campaigns, tickets and transactions. Admin users are never deleted.',
    confirmTitle: 'Confirm Data Cleanup',
    confirmText: (what: string, from: string, to: string) =>
      `Are you sure you want to permanently delete all ${what} from ${from} to ${to}? A backup is saved to the server first.`,
    confirmButton: 'Delete',
    typeToConfirm: (word: string) => `Type ${word} to confirm`,
    fileStorage: 'File Storage',
    databaseStorage: 'Database Storage',
    megabytes: (mb: number) => `${mb.toFixed(2)} MB`,
    collections: 'Collections',
    collectionName: 'Name',
    collectionCount: 'Count',
    loading: 'Loading...',
  },
  /** The alerts bell. */
  /** The signed-in layout's skip link, its first Tab stop. */
  skipToMain: 'Skip to main content',
  alerts: {
    bell: 'Alerts',
    newAlerts: 'New Alerts',
    noNewAlerts: 'No new alerts',
    loading: 'Loading alerts...',
    notification: 'Notification',
    postedOn: 'Posted on',
    learnMore: 'Learn More',
    close: 'Close',
    markAsRead: 'Mark as Read',
    markAllRead: 'Mark all read',
    markAllFailed: 'Could not mark the notifications read.',
  },
  /** Delivery on the screens: campaign progress, pause/resume/cancel, settings. */
  delivery: {
    settingsTitle: 'Delivery Settings',
    sendersLoadFailed: 'Could not load the senders.',
    senderSaved: (name: string) => `Delivery settings of ${name} saved.`,
    senderSaveFailed: 'Could not save the delivery settings.',
    unlimited: 'Unlimited',
    dailyLimitHint: 'Leave empty for no daily limit.',
    breakdownTitle: 'Delivery',
    breakdownFailed: 'Could not load the delivery breakdown.',
    noErrors: 'No provider errors.',
    controlFailed: 'Could not change the sending. Please try again.',
    cancelTitle: 'Cancel Sending',
    cancelText: (recipients: number) =>
      `Stop sending this campaign of ${recipients.toLocaleString('en-US')} recipients and cancel it? Recipients not sent yet are refunded to the owner.`,
    // Each recipient's current state; Delivered and Read together are the results' delivered.
    stateLabels: {
      unsent: 'Not sent yet',
      queued: 'Waiting to retry',
      sending: 'Sending',
      sent: 'Sent, no receipt yet',
      delivered: 'Delivered, not read',
      read: 'Delivered and read',
      failed: 'Failed',
      opted_out: 'Opted out',
    },
    progressLabel: 'Delivery progress',
    results: {
      label: 'Delivery results',
      delivered: 'delivered',
      failed: 'failed',
      of: (total: string) => `of ${total}`,
      read: (n: string) => `${n} read`,
      pending: (n: string) => `${n} pending`,
    },
    dispatchLabels: {
      running: 'Sending',
      paused: 'Paused',
      waiting: 'Daily limit reached',
      cancelled: 'Sending stopped',
      done: 'Sending finished',
    },
    resumesAt: (when: string) => `Resumes ${when}`,
  },
} as const;
