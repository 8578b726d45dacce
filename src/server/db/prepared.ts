import type { Db } from './client.js';

/**
 * A query built once per database handle, for statements run on most requests: `build` ends in
 * drizzle's `.prepare(name)`, so a request neither rebuilds the SQL (drizzle's query building was
 * a sixth of a signed-in answer's cost) nor has PostgreSQL parse it again on a connection that
 * already ran it. Values go in as `sql.placeholder(...)`. (`build` may also make a holder of several
 * such statements, one per shape of a query, filled as the shapes are first asked for.)
 */
export function preparedPerDatabase<T extends object>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}
