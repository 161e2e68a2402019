import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Least privilege: the migrations run as the owner (DATABASE_URL's user, or the
 * embedded cluster's `herald`), requests and jobs as a login role that can read and write rows
 * but owns nothing and creates nothing. It cannot ALTER or DROP a table or its triggers (the
 * ledger's immutability trigger among them), TRUNCATE, CREATE a table, or set
 * session_replication_role; it may use temp tables (the report upload stages rows in one).
 */

/** The schemas the app works in; the app role gets USAGE on these and nothing else. */
export const APP_SCHEMAS = ['public', 'graphile_worker'] as const;

/** Owner-only: the managed role's password, so every instance on one database knows it. */
export const PRIVATE_SCHEMA = 'herald_private';
/** Serializes role set-up between instances starting on one database (locks are per database). */
const ROLE_LOCK = 7_263_121;
/** Tables the app only reads: migrations are the owner's. */
const READ_ONLY_TABLES = ['public.schema_migrations', 'graphile_worker.migrations'];

const PG_NAME_MAX = 63;

/** The managed role for `database`: readable where it can be, a hash where the name is odd or long. */
export function appRoleName(database: string): string {
  const name = `${database}_app`;
  if (/^[a-z_][a-z0-9_]*$/.test(name) && name.length <= PG_NAME_MAX) return name;
  return `herald_app_${createHash('sha256').update(database).digest('hex').slice(0, 16)}`;
}

function databaseOf(url: URL): string {
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL must name a database');
  return name;
}

/** `url` with another user and password (host, database and options kept). */
export function withUser(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

export interface AppRoleOptions {
  /** The owner's URL: the connection `ownerPool` was opened with. */
  ownerUrl: string;
  /** A role the operator made (APP_DATABASE_URL); unset, the server makes and keeps its own. */
  appUrl?: string;
}

/**
 * Makes sure the app role exists (unless the operator gave one) and holds exactly the rights
 * the app needs on every current and future object, checks that it holds no more, and answers
 * the URL to serve requests with. Idempotent: it runs at every start, after the migrations.
 */
export async function ensureAppRole(ownerPool: pg.Pool, opts: AppRoleOptions): Promise<string> {
  const client = await ownerPool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ROLE_LOCK]);
    try {
      const { role, url } = opts.appUrl
        ? { role: givenRole(opts.appUrl), url: opts.appUrl }
        : await managedRole(client, opts.ownerUrl);
      await client.query('BEGIN');
      try {
        await grantDatabase(client, role);
        await client.query(grantsSql(role));
        await allowRowSecurity(client, role);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Could not grant the app role "${role}" its rights: ${msg(err)}`);
      }
      // Checked before the commit: a role refused keeps none of the rights just granted.
      await assertLeastPrivilege(client, role).catch(async (err: unknown) => {
        await client.query('ROLLBACK');
        throw err;
      });
      await client.query('COMMIT');
      return url;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [ROLE_LOCK]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function givenRole(appUrl: string): string {
  const role = decodeURIComponent(new URL(appUrl).username);
  if (!role) throw new Error('APP_DATABASE_URL must name its user');
  return role;
}

/** Creates the role on first start, with a random password kept in the owner-only schema. */
async function managedRole(
  client: pg.PoolClient,
  ownerUrl: string,
): Promise<{ role: string; url: string }> {
  const role = appRoleName(databaseOf(new URL(ownerUrl)));
  const id = pg.escapeIdentifier(role);
  let password: string;
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${PRIVATE_SCHEMA};
      REVOKE ALL ON SCHEMA ${PRIVATE_SCHEMA} FROM PUBLIC;
      CREATE TABLE IF NOT EXISTS ${PRIVATE_SCHEMA}.app_role (
        role text PRIMARY KEY, password text NOT NULL)`);
    await client.query(
      `INSERT INTO ${PRIVATE_SCHEMA}.app_role (role, password) VALUES ($1, $2)
       ON CONFLICT (role) DO NOTHING`,
      [role, randomBytes(24).toString('base64url')],
    );
    const { rows } = await client.query<{ password: string }>(
      `SELECT password FROM ${PRIVATE_SCHEMA}.app_role WHERE role = $1`,
      [role],
    );
    password = rows[0]!.password;
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const pw = pg.escapeLiteral(password);
    // Attributes left unsaid default to NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION.
    await client.query(
      exists.rowCount
        ? `ALTER ROLE ${id} WITH LOGIN PASSWORD ${pw}`
        : `CREATE ROLE ${id} WITH LOGIN PASSWORD ${pw}`,
    );
  } catch (err) {
    throw new Error(
      `Could not set up the database role "${role}" that serves requests (${msg(err)}). ` +
        'Give the DATABASE_URL user CREATEROLE, or create a login role and set APP_DATABASE_URL.',
    );
  }
  return { role, url: withUser(ownerUrl, role, password) };
}

/**
 * CONNECT, and TEMPORARY for the report upload's staging table. Everyone has both by default, and
 * only the database's owner may grant them: ask only where a hardened server took them away.
 */
async function grantDatabase(client: pg.PoolClient, role: string): Promise<void> {
  const { rows } = await client.query<{ missing: string | null; db: string }>(
    `SELECT nullif(concat_ws(', ',
       CASE WHEN NOT has_database_privilege($1, current_database(), 'CONNECT') THEN 'CONNECT' END,
       CASE WHEN NOT has_database_privilege($1, current_database(), 'TEMPORARY') THEN 'TEMPORARY' END
     ), '') AS missing, current_database() AS db`,
    [role],
  );
  const { missing, db } = rows[0]!;
  if (!missing) return;
  await client.query(
    `GRANT ${missing} ON DATABASE ${pg.escapeIdentifier(db)} TO ${pg.escapeIdentifier(role)}`,
  );
}

/** Every grant, idempotent; the owner's default privileges cover what later migrations create. */
function grantsSql(role: string): string {
  const r = pg.escapeIdentifier(role);
  const schemas = APP_SCHEMAS.map((s) => pg.escapeIdentifier(s)).join(', ');
  return `
    -- PostgreSQL before 15 let everyone create in public; a warning only where not the owner.
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
    GRANT USAGE ON SCHEMA ${schemas} TO ${r};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schemas} TO ${r};
    REVOKE INSERT, UPDATE, DELETE ON ${READ_ONLY_TABLES.join(', ')} FROM ${r};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schemas} TO ${r};
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${schemas} TO ${r};
    ALTER DEFAULT PRIVILEGES IN SCHEMA ${schemas}
      GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r};
    ALTER DEFAULT PRIVILEGES IN SCHEMA ${schemas} GRANT USAGE, SELECT ON SEQUENCES TO ${r};
    ALTER DEFAULT PRIVILEGES IN SCHEMA ${schemas} GRANT EXECUTE ON FUNCTIONS TO ${r};`;
}

const POLICY = 'herald_app_role';

/**
 * graphile-worker turns row security on for its tables with no policy, which lets only their
 * owner see a row: the app role gets a policy of its own on each (a later graphile-worker
 * migration's tables included). Created or retargeted only when missing, since each change
 * locks the job tables.
 */
async function allowRowSecurity(client: pg.PoolClient, role: string): Promise<void> {
  const { rows } = await client.query<{ tbl: string; roles: string[] | null }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS tbl,
       (SELECT p.roles::text[] FROM pg_policies p
         WHERE p.schemaname = n.nspname AND p.tablename = c.relname AND p.policyname = $2) AS roles
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relrowsecurity AND n.nspname = ANY($1)`,
    [APP_SCHEMAS, POLICY],
  );
  const r = pg.escapeIdentifier(role);
  for (const { tbl, roles } of rows) {
    if (roles === null) {
      await client.query(
        `CREATE POLICY ${POLICY} ON ${tbl} TO ${r} USING (true) WITH CHECK (true)`,
      );
    } else if (roles.length !== 1 || roles[0] !== role) {
      await client.query(`ALTER POLICY ${POLICY} ON ${tbl} TO ${r}`);
    }
  }
}

/**
 * Refuses to serve with a role that could change the schema or get around the ledger's
 * trigger: one the operator made with too much, or one that a changed default let through.
 */
async function assertLeastPrivilege(client: pg.PoolClient, role: string): Promise<void> {
  const { rows } = await client.query<{ problem: string }>(
    `WITH r AS (SELECT * FROM pg_roles WHERE rolname = $1)
     SELECT 'does not exist' AS problem WHERE NOT EXISTS (SELECT 1 FROM r)
     UNION ALL SELECT 'is the owner' FROM r WHERE rolname = current_user
     UNION ALL SELECT 'has SUPERUSER, CREATEROLE, CREATEDB, REPLICATION or BYPASSRLS' FROM r
       WHERE rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls
     UNION ALL SELECT 'is a member of the owner' FROM r
       WHERE rolname <> current_user AND pg_has_role(r.oid, current_user, 'MEMBER')
     UNION ALL SELECT 'may create in this database' FROM r
       WHERE has_database_privilege(r.oid, current_database(), 'CREATE')
     UNION ALL SELECT 'may create in schema ' || n.nspname FROM r, pg_namespace n
       WHERE has_schema_privilege(r.oid, n.oid, 'CREATE')
     UNION ALL SELECT 'owns ' || c.relname FROM r, pg_class c WHERE c.relowner = r.oid
       AND c.relpersistence <> 't'
     UNION ALL SELECT 'may TRUNCATE, REFERENCES or TRIGGER on ' || c.relname FROM r, pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ANY($2) AND c.relkind IN ('r', 'p')
         AND has_table_privilege(r.oid, c.oid, 'TRUNCATE, REFERENCES, TRIGGER')`,
    [role, APP_SCHEMAS],
  );
  if (rows.length) {
    const list = [...new Set(rows.map((r) => r.problem))].join('; ');
    throw new Error(
      `The database role "${role}" that serves requests must be able to read and write rows ` +
        `and nothing more, but it ${list}.`,
    );
  }
}
