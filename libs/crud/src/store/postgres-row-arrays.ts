import type { PoolClient } from 'pg';
import { prepareValue } from 'pg/lib/utils';

/** A statement's columns: their names and PostgreSQL type ids, in order. */
export interface RowColumns {
  names: readonly string[];
  typeIds: readonly number[];
}

/** A statement's answer: its columns, and each row's columns as PostgreSQL's text (null for NULL). */
export interface RowArrays {
  columns: RowColumns;
  rows: (string | null)[][];
}

/** What pg hands a query object of one's own: the connection's message writers and its prepared statements. */
interface PgConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(query: { text: string; name: string }): void;
  bind(config: { statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: object): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/**
 * The columns of each named statement, from its first answer's description. A name stands for one
 * text (`statementName` derives it from the text), so for one list of columns on every connection.
 */
const columnsOfNamed = new Map<string, RowColumns>();

/**
 * Runs one read statement on `client` and answers its rows as arrays of texts, through pg's
 * interface for query objects of one's own (pg-cursor's: pg calls `submit`, then a `handle…`
 * method per message). pg's own query asks PostgreSQL to describe its columns at every
 * statement, sets up a parser per column from that description, builds an object per row and a
 * Result; here a named statement is described once per process, and a row stays the array pg's
 * protocol parser made. The store alone spent 47–51 µs of CPU per W3 read on PostgreSQL this
 * way against 54–61 through pg's queries, alternated (README "Performance").
 *
 * `text` and `name` as pg's queries take them: a name is prepared once per connection.
 */
export function queryRowArrays(client: PoolClient, text: string, name: string | undefined, values: unknown[]): Promise<RowArrays> {
  return new Promise((resolve, reject) => {
    const query = new RowArraysQuery(text, name ?? '', values);
    query.callback = (error, answer) => (error ? reject(error) : resolve(answer!));
    (client as unknown as { query(query: RowArraysQuery): void }).query(query);
  });
}

class RowArraysQuery {
  /**
   * How the query ends, once. pg wraps it before `submit` when the connection has a
   * `query_timeout` (the service's has): the wrapper clears the timer that would otherwise hold
   * the query, its rows included, until it fired.
   */
  callback: (error: Error | undefined, answer?: RowArrays) => void = () => undefined;
  private columns: RowColumns | undefined;
  private readonly rows: (string | null)[][] = [];
  private ended = false;

  constructor(
    readonly text: string,
    /** pg reads it: it marks the statement prepared on the connection when parsed, and not after an error. */
    readonly name: string,
    private readonly values: unknown[],
  ) {
    this.columns = name === '' ? undefined : columnsOfNamed.get(name);
  }

  submit(connection: PgConnection): null {
    // One write for the messages of the statement, as pg's queries do.
    connection.stream.cork?.();
    try {
      if (this.name === '' || !(this.name in connection.parsedStatements || this.name in connection.submittedNamedStatements)) {
        connection.parse({ text: this.text, name: this.name });
        if (this.name !== '') connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values: this.values, valueMapper: prepareValue });
      if (!this.columns) connection.describe({ type: 'P', name: '' });
      connection.execute({});
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: { name: string; dataTypeID: number }[] }): void {
    this.columns = { names: message.fields.map((field) => field.name), typeIds: message.fields.map((field) => field.dataTypeID) };
    if (this.name !== '') columnsOfNamed.set(this.name, this.columns);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows.push(message.fields);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('a read takes no COPY');
  }

  handleCopyData(): void {}

  /** The server's error (pg then forgets the query: no ReadyForQuery reaches it), or the connection's. */
  handleError(error: Error): void {
    this.end(error);
  }

  handleReadyForQuery(): void {
    this.end(undefined, { columns: this.columns ?? { names: [], typeIds: [] }, rows: this.rows });
  }

  private end(error: Error | undefined, answer?: RowArrays): void {
    if (this.ended) return;
    this.ended = true;
    this.callback(error, answer);
  }
}
