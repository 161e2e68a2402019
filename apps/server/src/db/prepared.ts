import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type Expression,
  type RawBuilder,
} from 'kysely';
import pg from 'pg';
import type { DbOrTx } from './database.js';
import type { Database } from './schema.js';

/**
 * Named prepared statements for the hot paths (token checks, the profile read, balances, ledger
 * writes). A statement is built once, at module load, from a typed query whose parameters are
 * declared with `param<T>()`; each connection then parses and plans its text once and afterwards
 * only binds and executes it (about 4x the throughput of building and sending the query each
 * time). Only fixed texts belong here; every other query stays unnamed, so PostgreSQL plans it
 * with its values.
 *
 *   const byId = prepared('users.byId', { id: param<string>() }, (p) =>
 *     compiler.selectFrom('users').selectAll().where('id', '=', p.id));
 *   const rows = await byId.run(pool, { id });
 */

/** A Kysely that only compiles: builds typed SQL at module load, never connects. */
export const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Declares a statement parameter of type T; its value is given to `run`. */
export class Param<T> {
  /** Only carries T for inference: never read. */
  declare readonly type: T;
}

export function param<T>(): Param<T> {
  return new Param<T>();
}

type Values<P> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };
type Expressions<P> = { [K in keyof P]: P[K] extends Param<infer T> ? Expression<T> : never };

export interface Prepared<P, Row> {
  readonly name: string;
  readonly text: string;
  /** Runs on the pool directly (the lightest path) or on a Kysely handle or transaction. */
  run(db: pg.Pool | DbOrTx, values: Values<P>): Promise<Row[]>;
}

/** A $n of the text: the value of a declared parameter, or a constant. */
type Slot<P> = { key: keyof P; value?: undefined } | { key?: undefined; value: unknown };

/** Statement names by text, so the pool wrapper (kysely-pool.ts) names them on the wire. */
const names = new Map<string, string>();

export function prepared<P extends Record<string, Param<unknown>>, Row>(
  name: string,
  params: P,
  build: (p: Expressions<P>) => Compilable<Row> | RawBuilder<Row>,
): Prepared<P, Row> {
  const keys = new Map<Param<unknown>, keyof P>();
  const expressions = {} as Record<keyof P, Expression<unknown>>;
  for (const key of Object.keys(params) as (keyof P)[]) {
    keys.set(params[key]!, key);
    expressions[key] = sql`${params[key]}`;
  }
  const query = build(expressions as Expressions<P>);
  const compiled = isRawBuilder(query) ? query.compile(compiler) : query.compile();
  const text = compiled.sql;
  // Each $n is a declared parameter or a constant the builder made a parameter (a LIMIT).
  const slots = compiled.parameters.map((value): Slot<P> =>
    value instanceof Param ? { key: keys.get(value)! } : { value },
  );
  const used = new Set(slots.flatMap((s) => (s.key === undefined ? [] : [s.key])));
  const unused = [...keys.values()].filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`${name}: parameters not used: ${unused.join(', ')}`);
  if ([...names.values()].includes(name) || names.has(text)) {
    throw new Error(`${name}: a prepared statement has this name or this text already.`);
  }
  names.set(text, name);

  return {
    name,
    text,
    async run(db, values) {
      const bound = slots.map((s) => (s.key === undefined ? s.value : values[s.key]));
      if (db instanceof pg.Pool) {
        return (await db.query<Row & pg.QueryResultRow>({ name, text, values: bound })).rows;
      }
      return (await db.executeQuery<Row>(CompiledQuery.raw(text, bound))).rows;
    },
  };
}

/** The statement name of a prepared text; undefined for every other query. */
export function preparedName(text: string): string | undefined {
  return names.get(text);
}

function isRawBuilder<Row>(q: Compilable<Row> | RawBuilder<Row>): q is RawBuilder<Row> {
  return 'isRawBuilder' in q && q.isRawBuilder === true;
}
