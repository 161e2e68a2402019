import { loginMessages, ruleMessages, UNAUTHORIZED_ACCESS } from './messages.js';

/**
 * The web app's messages by screen (spec section 8). Apart from messages.ts: the spread below
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
  dashboard: { loadFailed: 'Failed to load dashboard figures.' },
  campaigns: {
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
    ...ruleMessages,
    empty: 'No campaigns found.',
  },
  reports: {
    loadFailed: 'Failed to fetch report data.',
  },
} as const;
