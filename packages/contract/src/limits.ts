/** Business constants and limits (docs/product.md, Limits and messages). */
export const DEFAULT_COMPANY_NAME = 'Herald';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
/** Hint shown on Add User when the password is left empty (docs/product.md, Roles and scope). */
export const DEFAULT_PASSWORD_HINT = 'Default: generated and shown once';

export const OTP_LENGTH = 6;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;

/**
 * A new user's mailed link to set a password works once, for this long (docs/product.md, Roles
 * and scope). The token in it is random; only its hash is stored.
 */
export const SET_PASSWORD_LINK_TTL_HOURS = 72;
/** Where the link opens in the web app; the token follows after `#`, so no server logs it. */
export const SET_PASSWORD_PATH = '/set-password';
/** The sign-in page, and the page a signed-in user lands on when a screen is not for their role. */
export const LOGIN_PATH = '/login';
export const UNAUTHORIZED_PATH = '/unauthorized';

/** Access tokens live this long; blocking or a password change ends them sooner. */
export const TOKEN_TTL_SECONDS = 8 * 60 * 60;

/**
 * Rate limits: attempts per window, kept in PostgreSQL so instances share them. An account is
 * limited per (account, IP) pair, so a stranger's guesses lock out only the stranger's address;
 * its per-account ceiling is larger and `leaky`: one attempt frees every windowSeconds / max, so
 * guesses spread over many addresses are slowed to that pace (a refusal asks to come back within
 * one such step, at most 60 s) instead of locking the owner out for the whole window.
 */
export const RATE_LIMITS = {
  loginFailuresPerAccountIp: { max: 10, windowSeconds: 15 * 60 },
  loginFailuresPerAccount: { max: 50, windowSeconds: 15 * 60, leaky: true },
  loginFailuresPerIp: { max: 50, windowSeconds: 15 * 60 },
  forgotPerAccountIp: { max: 5, windowSeconds: 60 * 60 },
  forgotPerAccount: { max: 15, windowSeconds: 15 * 60, leaky: true },
  forgotPerIp: { max: 20, windowSeconds: 60 * 60 },
  resetPerIp: { max: 20, windowSeconds: 15 * 60 },
  /** Per target user: a manager sends a new set-password link now and then, not in a loop. */
  setPasswordLinkPerUser: { max: 5, windowSeconds: 60 * 60 },
  /**
   * Per user, counted before the upload is read: a person creating campaigns by hand makes a few
   * an hour; 30 in 10 minutes leaves room for a script's honest burst while bounding the disk,
   * COPY and ledger work one account can cause.
   */
  campaignCreatePerUser: { max: 30, windowSeconds: 10 * 60 },
  /** Per (Admin) user: a report upload replaces up to 1,000,000 rows in one transaction. */
  reportUploadPerUser: { max: 60, windowSeconds: 10 * 60 },
  /**
   * Per user: Transaction History's Export to Excel streams the whole filtered ledger (up to
   * millions of rows); a person exports a few times an hour.
   */
  historyExportPerUser: { max: 10, windowSeconds: 10 * 60 },
  /**
   * Per user, counted before the upload is read: a ticket carries up to 25 MB of attachments,
   * and a person opens a few a day; 20 in 10 minutes bounds the disk one account can fill.
   */
  ticketCreatePerUser: { max: 20, windowSeconds: 10 * 60 },
  /**
   * Per user: each reply notifies every Active Admin and the ticket's chain; a conversation by
   * hand is a reply a minute at most, so 30 in 10 minutes stops a flood, not a person.
   */
  ticketReplyPerUser: { max: 30, windowSeconds: 10 * 60 },
  /**
   * Per address, on the providers' status webhooks, counted before the body is read or its
   * signature checked: 100 requests a second sustained (one drains every 10 ms) with a burst of
   * 6,000, far above what a provider sends (docs/delivery.md, Status webhooks and signatures).
   */
  webhookPerIp: { max: 6000, windowSeconds: 60, leaky: true },
  /**
   * Per API key, on every request it authenticates (docs/api.md, Rate limits): 10 a second on
   * average over a minute, a fixed window so RateLimit-Remaining and RateLimit-Reset read plainly.
   */
  apiKeyRequests: { max: 600, windowSeconds: 60 },
} as const;

/**
 * Replies one ticket may hold, so a ticket is bounded in size (the detail pages them, but each
 * notifies the ticket's audience); a conversation longer than this goes on in a new ticket.
 */
export const TICKET_REPLIES_MAX = 200;

/**
 * Attachment bytes one user may add to tickets in 24 hours: a person attaches a few screenshots
 * a day; the rate limit alone let one account write about 72 GB a day.
 */
export const TICKET_ATTACHMENT_BYTES_PER_DAY = 100 * 1024 * 1024;

/** A status webhook's body at most: a provider's batch of hundreds of events is ~100 KB. */
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

export const MAX_LOGO_BYTES = 1024 * 1024;
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg'] as const;

export const SESSION_ERROR_REDIRECT_MS = 2000;
export const RESET_DIALOG_CLOSE_MS = 3000;
export const ALERT_POLL_MS = 30_000;
/**
 * Open live streams (GET /api/live) one user may hold on one instance (tabs and devices), and
 * one instance holds in all; past either, the oldest is closed to make room (its page reconnects
 * within seconds, or polls), so one token cannot hold thousands of sockets.
 */
export const LIVE_STREAMS_PER_USER = 10;
export const LIVE_STREAMS_PER_INSTANCE = 20_000;
export const ANNOUNCEMENT_PREVIEW_CHARS = 70;
export const ADMIN_RECENT_TRANSACTIONS = 20;
export const PROFILE_RECENT_CAMPAIGNS = 10;

/** GET /api/users pages (keyset, newest first) and its name/email search. */
export const USERS_PAGE_DEFAULT = 50;
export const USERS_PAGE_MAX = 200;
export const USERS_SEARCH_MAX = 100;
/** How many matches a search-as-you-type user picker shows at once. */
export const USER_PICKER_RESULTS = 20;
/** Pause after the last keystroke before a user search is sent. */
export const USER_SEARCH_DEBOUNCE_MS = 250;

export const FILE_LIMITS = {
  image: 3145728,
  pdf: 3145728,
  audio: 3145728,
  dp: 3145728,
  video: 5242880,
  singleCreative: 5242880,
} as const;
export const DP_MIN_PX = 192;
export const DP_MAX_PX = 500;
export const MAX_CAMPAIGN_IMAGES = 3;

/**
 * A campaign's recipients (up to 1,000,000) are never sent in one answer: the detail carries
 * the first CAMPAIGN_DETAIL_RECIPIENTS numbers and GET /api/campaigns/{id}/recipients pages
 * the rest (keyset, RECIPIENT_PAGE_DEFAULT per page unless asked, at most RECIPIENT_PAGE_MAX).
 */
export const CAMPAIGN_DETAIL_RECIPIENTS = 100;
export const RECIPIENT_PAGE_DEFAULT = 500;
export const RECIPIENT_PAGE_MAX = 5000;

/**
 * History export: at most HISTORY_EXPORTS_AT_ONCE per user run at once (a further one answers
 * 429 with Retry-After HISTORY_EXPORT_BUSY_RETRY_SECONDS). The slot is given back when the
 * export ends, fails or the client leaves; one a crashed instance held lapses after
 * HISTORY_EXPORT_LEASE_SECONDS.
 */
export const HISTORY_EXPORTS_AT_ONCE = 1;
export const HISTORY_EXPORT_LEASE_SECONDS = 10 * 60;
export const HISTORY_EXPORT_BUSY_RETRY_SECONDS = 10;

/**
 * GET /api/credits/balances without `email`: users per page (keyset by email), and the most.
 */
export const BALANCES_PAGE_DEFAULT = 200;
export const BALANCES_PAGE_MAX = 500;
/** Users per page of Reports › Credit Balances (more load as the table scrolls). */
export const BALANCES_SCREEN_PAGE = 50;

/**
 * Transaction History's first page lists at most this many of the caller's users (by name) for
 * the User filter; the filter itself searches GET /api/users as the user types.
 */
export const HISTORY_FILTER_USERS_MAX = 200;

/** Ticket attachments (docs/product.md, Tickets): up to 5 files of up to 5 MB each. */
export const TICKET_MAX_ATTACHMENTS = 5;
export const TICKET_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

/** The suppression list (docs/product.md, Opt-outs): its pages, search and CSV import. */
export const SUPPRESSIONS_PAGE_DEFAULT = 50;
export const SUPPRESSIONS_PAGE_MAX = 200;
/** A search is part of a number: 1 to 15 digits. */
export const SUPPRESSION_SEARCH_MAX_DIGITS = 15;
/** A CSV import at most: 100,000 rows of up to ~40 bytes fit in 5 MB. */
export const SUPPRESSION_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const SUPPRESSION_IMPORT_MAX_ROWS = 100_000;
/**
 * POST /api/suppressions/check's body at most: the campaign maximum (1,000,000 numbers of up to
 * 15 digits) as a JSON array of strings is about 19 MB.
 */
export const SUPPRESSION_CHECK_BODY_BYTES = 20 * 1024 * 1024;
/** Pause after the last change of the Create Campaign numbers before the suppressed count is asked. */
export const SUPPRESSION_CHECK_DEBOUNCE_MS = 600;

/** API keys (docs/api.md): a key's name at most, and how many keys one user may hold at once. */
export const API_KEY_NAME_MAX = 64;
export const API_KEYS_PER_USER = 20;
/** The Admin's list of every user's keys pages (keyset, newest first). */
export const API_KEYS_PAGE_DEFAULT = 50;
export const API_KEYS_PAGE_MAX = 200;
/** A key's "last used" is written at most once per this many seconds, not on every request. */
export const API_KEY_LAST_USED_STEP_SECONDS = 60;

/**
 * Webhooks to customers (docs/api.md, Webhooks): endpoints per user, an endpoint's URL and
 * description at most, the recipients of one `recipients.updated` call at most, and the pages of
 * an endpoint's delivery log.
 */
export const WEBHOOK_ENDPOINTS_PER_USER = 10;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_RECIPIENTS_BATCH_MAX = 1000;
export const WEBHOOK_DELIVERIES_PAGE_DEFAULT = 20;
export const WEBHOOK_DELIVERIES_PAGE_MAX = 100;
/** The low-balance threshold a user may set, in credits. */
export const LOW_BALANCE_THRESHOLD_MAX = 1_000_000_000;
