/**
 * Messages both the first screens and the server use; the web app's other texts are in
 * ui-messages.ts. What the API answers in `{ message }` is in server-messages.ts.
 */
/** The first screens' messages stand alone, so the login route does not load all of `ui`. */
export const UNAUTHORIZED_ACCESS = 'Unauthorized Access';
export const loginMessages = {
  failed: 'Login failed. Please try again.',
  sendOtpFailed: 'Failed to send OTP. Please try again.',
  resetFailed: 'Failed to reset password.',
  resetSuccessSuffix: ' You can now log in with your new password.',
} as const;

/** The set-password page (the link a new user gets by mail) stands alone like the login. */
export const setPasswordMessages = {
  title: 'Set your password',
  intro: 'Choose the password you will log in with.',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  submit: 'Set password',
  saving: 'Saving...',
  failed: 'Failed to set the password. Please try again.',
  noToken: 'This link is incomplete. Open the link from your mail again.',
  checking: 'Checking the link...',
  done: 'Your password is set. You can now log in.',
  toLogin: 'Go to login',
} as const;

/** How a reply of the platform's Admin reads to those it serves through a brand. */
export const supportAuthor = (companyName: string) => `${companyName} Support`;

/**
 * Rule texts that the form shows and the server answers alike (docs/product.md, Limits and
 * messages).
 */
export const ruleMessages = {
  insufficientCredits: 'Insufficient credits for this message type.',
  noRecipients: 'Please add at least one recipient.',
  messageRequired: 'Message is required.',
  countryRequired: 'Country name and country code are required for international messages.',
  fileTooLarge: (mb: number) => `File is too large. Max size is ${mb}MB.`,
  dpDimensions: 'DP dimensions must be between 192x192 and 500x500 pixels.',
  selectReportFile: 'Please select a report file to upload.',
} as const;
