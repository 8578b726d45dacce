import { Column, SQL, is, type SQLWrapper } from 'drizzle-orm';
import { PgDialect, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.js';

/**
 * A query built once per database handle, for statements run on most requests: `build` ends in
 * drizzle's `.prepare(name)`, so a request neither rebuilds the SQL (drizzle's query building was
 * a sixth of a signed-in answer's cost) nor has PostgreSQL parse it again on a connection that
 * already ran it. Values go in as `sql.placeholder(...)`. (`build` may also make a holder of several
 * such statements, one per shape of a query, filled as the shapes are first asked for.)
 */
export function preparedPerDatabase<T extends object, D extends Db | Tx = Db>(build: (db: D) => T): (db: D) => T {
  const built = new WeakMap<D, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}

/** A select's columns, flat: a table's columns and `sql` fields, in the order the select lists them. */
export type FlatFields = Record<string, Column | SQL | SQL.Aliased>;

export interface RowsStatement<R> {
  execute: (values?: Record<string, unknown>) => Promise<R[]>;
}

/** Column types whose values node-postgres already hands over as drizzle reads them: text, numbers, booleans, parsed JSON. */
const READ_AS_GIVEN = new Set(['PgUUID', 'PgText', 'PgNumeric', 'PgJsonb', 'PgBoolean', 'PgInteger']);
const dialect = new PgDialect();

/**
 * Selects of `fields` whose rows are read by a loop over the fields, not through drizzle's mapping
 * of every column of every row (a sixth of a sender's list answer, in a profile): node-postgres
 * hands each row over as an array in the order of `fields`, and only the columns it reads otherwise
 * than drizzle go through their column's own reading (timestamps, which drizzle's driver leaves as
 * text, become Dates). An `sql` field's value is taken as node-postgres gives it.
 */
export function rowsOf<R>(fields: FlatFields) {
  const keys = Object.keys(fields);
  const read = Object.values(fields).map((field) => (is(field, Column) && !READ_AS_GIVEN.has(field.columnType) ? field : null));
  const toRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      const column = read[i];
      row[keys[i]!] = value === null || !column ? value : column.mapFromDriverValue(value);
    }
    return row as R;
  };
  /**
   * `query`, a select of `fields`, prepared as `name` (once per connection), or unnamed (parsed on
   * each run); on a transaction's handle it runs on that transaction's connection.
   */
  return (db: Db | Tx, query: SQLWrapper, name?: string): RowsStatement<R> => {
    const statement = db._.session.prepareQuery<PreparedQueryConfig & { execute: R[] }>(
      dialect.sqlToQuery(query.getSQL()), undefined, name, true, (rows) => rows.map(toRow));
    return { execute: (values) => statement.execute(values) };
  };
}
