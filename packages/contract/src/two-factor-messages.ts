import {
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_CHALLENGE_MINUTES,
  TWO_FACTOR_DIGITS,
} from './two-factor.js';

/**
 * Two-factor sign-in's texts (docs/product.md, Two-factor sign-in). `twoFactorMessages`: what
 * the API answers in `{ message }` and the forms check alike; the login page uses them too, so
 * they stand apart from `ui`. `twoFactorUi`: the profile, enrolment and Users screens' texts.
 */
export const twoFactorMessages = {
  codeRequired: 'Enter the code from your authenticator app.',
  codeDigits: `The code is ${TWO_FACTOR_DIGITS} digits.`,
  codeWrong: 'Wrong code. Check your authenticator app (or the recovery code) and try again.',
  codeUsed: 'This code was already used. Wait for the next one in your authenticator app.',
  challengeExpired: `Your sign-in waited more than ${TWO_FACTOR_CHALLENGE_MINUTES} minutes for the code. Please log in again.`,
  passwordRequired: 'Password is required.',
  passwordWrong: 'Current password is incorrect.',
  enrolRequired:
    'Set up two-factor sign-in to continue: the administrator requires it for your role.',
  alreadyOn: 'Two-factor sign-in is already on.',
  setupMissing: 'Start the set-up again: scan the new QR code, then enter its code.',
  notOn: 'Two-factor sign-in is not on for this account.',
  enabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor sign-in is off.',
  recoveryRegenerated: 'New recovery codes made: the old ones no longer work.',
  resetDone: 'Two-factor sign-in was reset. The user’s sessions and API keys ended.',
  resetSelf: 'Turn off two-factor sign-in on your profile for your own account.',
  resetNotOn: 'This user has no two-factor sign-in to reset.',
  cannotTurnOffRequired: 'Two-factor sign-in is required for your role: it cannot be turned off.',
  settingInvalid: 'Choose whether two-factor sign-in is required.',
  settingNeedsOwn:
    'Turn on two-factor sign-in for your own account first, then require it for others.',
  settingSaved: 'Security settings saved.',
  // The login page's second step.
  stepTitle: 'Two-factor sign-in',
  stepIntro: `Enter the ${TWO_FACTOR_DIGITS}-digit code from your authenticator app, or one of your recovery codes.`,
  codeLabel: 'Code',
  verify: 'Verify',
  verifying: 'Verifying...',
  back: 'Back to login',
} as const;

export const twoFactorUi = {
  title: 'Two-factor sign-in',
  statusOn: 'On',
  statusOff: 'Off',
  intro:
    'After your password, sign-in asks for a code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password and others).',
  requiredNote: 'The administrator requires two-factor sign-in for your role.',
  recoveryLeft: (n: number) => `${n} of ${RECOVERY_CODE_COUNT} recovery codes left.`,
  enable: 'Set up two-factor sign-in',
  disable: 'Turn off',
  regenerate: 'New recovery codes',
  loadFailed: 'Could not load the two-factor sign-in state.',
  setupFailed: 'Could not start the set-up. Please try again.',
  // Enrolment.
  setupTitle: 'Set up two-factor sign-in',
  scanStep: '1. Scan this QR code with your authenticator app.',
  qrAlt: 'QR code of the two-factor secret',
  secretLabel: 'Or type this secret into the app:',
  confirmStep: '2. Enter the code the app shows.',
  confirm: 'Turn on',
  confirming: 'Turning on...',
  cancel: 'Cancel',
  // Recovery codes, shown once.
  codesTitle: 'Your recovery codes',
  codesIntro: `Each of these ${RECOVERY_CODE_COUNT} codes signs you in once if you lose your phone. They are shown only now: save or print them.`,
  codesListLabel: 'Recovery codes',
  codesDone: 'I saved them',
  // Turning off, new codes.
  disableTitle: 'Turn off two-factor sign-in',
  disableIntro: 'Enter your password and a code from your authenticator app (or a recovery code).',
  passwordLabel: 'Password',
  codeLabel: 'Code',
  disableConfirm: 'Turn off',
  regenerateTitle: 'New recovery codes',
  regenerateIntro: 'Enter a code from your authenticator app. The new codes replace every old one.',
  regenerateConfirm: 'Make new codes',
  working: 'Working...',
  actionFailed: 'That did not work. Please try again.',
  // The forced enrolment page.
  requiredTitle: 'Two-factor sign-in is required',
  requiredIntro: 'The administrator requires two-factor sign-in for your role. Set it up to go on.',
  logout: 'Log out',
  // Users screen (Admin).
  userStatus: (on: boolean) => `Two-factor sign-in: ${on ? 'on' : 'off'}`,
  resetButton: 'Reset two-factor sign-in',
  confirmReset: (email: string) =>
    `Reset two-factor sign-in for ${email}? Their sessions and API keys end; they sign in with the password alone (and must set it up again if it is required).`,
  resetFailed: 'Could not reset two-factor sign-in.',
  // Security setting (Admin, Users screen).
  settingTitle: 'Security',
  settingLabel: 'Require two-factor sign-in for Admins and Resellers',
  settingHint:
    'Such a user without it is taken to the set-up after the password, and can do nothing else until it is done.',
  settingFailed: 'Could not save the security settings.',
  settingLoadFailed: 'Could not load the security settings.',
} as const;
