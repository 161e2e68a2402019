import pg from 'pg';

/**
 * A campaign sent by a server process (server-process.ts) through the HTTP API, and what the
 * database says about it afterwards: for the tests that crash something mid-campaign.
 */

export const CRASH_ADMIN = { email: 'root@test.local', password: 'root-password-1' };
const OWNER = { email: 'owner@test.local', password: 'owner-password-1' };
const CREDIT_TYPE = 'Normal Message - domestic';

export async function api<T>(
  port: number,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(body instanceof FormData || body === undefined
        ? {}
        : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function adminToken(port: number): Promise<string> {
  const { token } = await api<{ token: string }>(
    port,
    'POST',
    '/api/login',
    undefined,
    CRASH_ADMIN,
  );
  return token;
}

/**
 * An owner with credits, the sender at `ratePerSecond`, and a campaign to `recipients` numbers
 * (avoiding the simulator's test endings 0000, 1050, 1313, 5000 while below 3,331 of them),
 * approved: sending starts. Answers the campaign's id.
 */
export async function approveCampaign(
  port: number,
  token: string,
  recipients: number,
  ratePerSecond: number,
): Promise<string> {
  await api(port, 'POST', '/api/users', token, { name: 'Owner', role: 'User', ...OWNER });
  await api(port, 'POST', '/api/credits', token, {
    to: OWNER.email,
    creditType: CREDIT_TYPE,
    count: recipients,
    rate: 0.25,
    type: 'Added',
  });
  const [sender] = await api<{ id: string }[]>(port, 'GET', '/api/delivery/senders', token);
  await api(port, 'PUT', `/api/delivery/senders/${sender!.id}`, token, {
    ratePerSecond,
    dailyLimit: null,
  });
  const form = new FormData();
  form.set('userEmail', OWNER.email);
  form.set('creditType', CREDIT_TYPE);
  form.set('message', 'Crash test');
  const to = Array.from(
    { length: recipients },
    (_, i) => `98${String(i * 3 + 7).padStart(8, '0')}`,
  );
  form.set('to', to.join(','));
  const { campaign } = await api<{ campaign: { _id: string } }>(
    port,
    'POST',
    '/api/campaigns',
    token,
    form,
  );
  await api(port, 'PUT', `/api/campaigns/status/${campaign._id}`, token, { status: 'Approved' });
  return campaign._id;
}

/** The campaign's status through the API; undefined while the server cannot answer. */
export async function campaignStatus(
  port: number,
  token: string,
  id: string,
): Promise<string | undefined> {
  try {
    return (await api<{ status: string }>(port, 'GET', `/api/campaigns/${id}`, token)).status;
  } catch {
    return undefined;
  }
}

export interface Settlement {
  status: string;
  delivered: number;
  failed: number;
  /** Recipients in any other state (never sent, or still in flight). */
  other: number;
  /** The refund ledger entries' counts, one per entry. */
  refunds: number[];
  /** The owner's notifications about this campaign, oldest first. */
  notices: string[];
}

/** What the database holds about the campaign, read as the owner of `databaseUrl`. */
export async function settlement(databaseUrl: string, id: string): Promise<Settlement> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const c = await client.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [
      id,
    ]);
    const states = await client.query<{ state: string | null; n: string }>(
      'SELECT state, count(*) AS n FROM campaign_recipients WHERE campaign_id = $1 GROUP BY state',
      [id],
    );
    const count = (s: string) => Number(states.rows.find((r) => r.state === s)?.n ?? 0);
    const all = states.rows.reduce((sum, r) => sum + Number(r.n), 0);
    const refunds = await client.query<{ count: string }>(
      `SELECT count FROM credit_transactions
       WHERE campaign_id = $1 AND kind = 'campaign_refund' AND type = 'Added'`,
      [id],
    );
    const notices = await client.query<{ message: string }>(
      `SELECT n.message FROM notifications n JOIN campaigns c ON c.user_id = n.user_id
       WHERE c.id = $1 AND position('''' || c.name || '''' in n.message) > 0 ORDER BY n.seq`,
      [id],
    );
    const delivered = count('delivered') + count('read');
    return {
      status: c.rows[0]?.status ?? 'missing',
      delivered,
      failed: count('failed'),
      other: all - delivered - count('failed'),
      refunds: refunds.rows.map((r) => Number(r.count)),
      notices: notices.rows.map((r) => r.message),
    };
  } finally {
    await client.end();
  }
}
