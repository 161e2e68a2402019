import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import type { CreateUserReply, LoginReply, Role } from '@herald/contract';

export const baseUrl = () => inject('baseUrl');
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.out');

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** Saves a screenshot under e2e/.out for a person to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** Screenshots `<name>-1366` and `<name>-390` (a laptop and a phone), then the page's own size. */
export async function shotWidths(page: Page, name: string): Promise<void> {
  const own = page.viewportSize();
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
  }
  if (own) await page.setViewportSize(own);
}

export async function loginUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export function apiLogin(email: string, password: string): Promise<LoginReply> {
  return post<LoginReply>('/api/login', { email, password });
}

export const USER_PASSWORD = 'e2e-user-pass-1';

/** Creates a user through the API as `creator` and returns it with its password. */
export async function apiCreateUser(
  creatorToken: string,
  role: Role,
  name: string,
): Promise<{ email: string; password: string; id: string; name: string }> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${Date.now() % 1e7}@e2e.local`;
  const reply = await post<CreateUserReply>(
    '/api/users',
    { name, email, password: USER_PASSWORD, role },
    creatorToken,
  );
  return { email, password: USER_PASSWORD, id: reply.user.id, name };
}

export interface Credentials {
  email: string;
  password: string;
}

export function adminCredentials(): Credentials {
  return { email: inject('adminEmail'), password: inject('adminPassword') };
}

/** A journey file's Chromium and Admin session, set once its beforeAll ran. */
export interface Journey {
  readonly browser: Browser;
  /** The Admin's API token. */
  readonly adminToken: string;
  /** A new page, logged in through the login screen as `who` (the Admin when not given). */
  page(who?: Credentials): Promise<Page>;
}

/**
 * Registers a journey file's beforeAll (Chromium, the Admin's API token, then `prepare` with that
 * token for the file's own users and data) and afterAll (Chromium closes). Call it at the top of
 * the file: afterAll hooks the file adds later run before Chromium closes.
 */
export function journey(prepare?: (adminToken: string) => Promise<void>): Journey {
  let browser: Browser | undefined;
  let adminToken = '';
  const launched = () => {
    if (!browser) throw new Error('journey(): Chromium is not running (beforeAll failed?)');
    return browser;
  };
  beforeAll(async () => {
    browser = await launch();
    const admin = adminCredentials();
    adminToken = (await apiLogin(admin.email, admin.password)).token;
    await prepare?.(adminToken);
  });
  afterAll(() => browser?.close());
  return {
    get browser() {
      return launched();
    },
    get adminToken() {
      return adminToken;
    },
    async page(who = adminCredentials()) {
      const page = await newPage(launched());
      await loginUi(page, who.email, who.password);
      return page;
    },
  };
}

/**
 * The newest mail to `email` in DATA_DIR/outbox whose decoded text matches `pattern`: its first
 * group. The mail is sent by a job after the request's commit, so its file may appear a moment
 * after the reply: wait up to 10 s. Quoted-printable soft breaks and `=XX` escapes are undone.
 */
async function fromOutbox(email: string, pattern: RegExp, what: string): Promise<string> {
  const dir = path.join(inject('dataDir'), 'outbox');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const files = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse()
      : [];
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      if (!text.includes(`To: ${email}`)) continue;
      const decoded = text
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      const m = pattern.exec(decoded);
      if (m) return m[1]!;
    }
    if (Date.now() > deadline) throw new Error(`no ${what} for ${email} in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The newest OTP mailed to `email`. */
export function otpFromOutbox(email: string): Promise<string> {
  return fromOutbox(email, /password is (\d{6})/, 'OTP');
}

/** The path and token (`/set-password#…`) of the set-password link mailed to a new user. */
export function setPasswordLinkFromOutbox(email: string): Promise<string> {
  return fromOutbox(
    email,
    /https?:\/\/[^/\s]+(\/set-password#[A-Za-z0-9_-]+)/,
    'set-password link',
  );
}

/** The raw .eml text of the newest mail to `email` (headers included). */
export function mailFromOutbox(email: string): Promise<string> {
  return fromOutbox(email, /^([\s\S]*)$/, 'mail');
}

// ---- Campaign helpers (campaigns and reports journeys) ----

/** A JSON call to the API with a bearer token; throws on a non-2xx answer. */
export async function apiJson<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  // 204 No Content (a removal) has no body to read.
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Admin mints `count` credits of a type for `to`. */
export function apiGiveCredits(
  adminToken: string,
  to: string,
  creditType: string,
  count: number,
): Promise<unknown> {
  return apiJson('POST', '/api/credits', adminToken, {
    to,
    creditType,
    count,
    rate: 0.1,
    type: 'Added',
  });
}

/**
 * The row of a campaigns table for the campaign made for `forEmail` with `count` recipients. The
 * e2e database is shared by every journey file: a count alone may name another file's campaign.
 */
export function campaignRow(table: Locator, forEmail: string, count: number): Locator {
  const page = table.page();
  return table
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: count.toLocaleString('en-US'), exact: true }) })
    .filter({ has: page.getByText(forEmail, { exact: true }) });
}

/** Creates a campaign through the multipart API (text fields only) and returns its id. */
export async function apiCreateCampaign(
  token: string,
  fields: { to: string; creditType: string; message: string; userEmail?: string },
): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  const res = await fetch(`${baseUrl()}/api/campaigns`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`POST /api/campaigns: ${res.status} ${await res.text()}`);
  const reply = (await res.json()) as { campaign: { _id: string } };
  return reply.campaign._id;
}

/** The caller's balance of one credit type (0 when it has none). */
export async function apiBalance(token: string, email: string, creditType: string) {
  const balances = await apiJson<Record<string, Record<string, number>>>(
    'GET',
    '/api/credits/balances',
    token,
  );
  return balances[email]?.[creditType] ?? 0;
}
