import { createHash } from 'node:crypto';

/** See `StatementNames`. */
export const MAX_NAMED_STATEMENTS = 200;

/**
 * Names for the SQL texts of reads, so that each PostgreSQL connection parses a text once and
 * PostgreSQL can keep its plan, instead of parsing and planning every query again (an unnamed
 * statement). A read's text depends only on its query's shape, so a service sees few; the first
 * `MAX_NAMED_STATEMENTS` get names and any later one runs unnamed, which bounds what every
 * connection keeps prepared.
 *
 * The pg driver requires a name to stand for one text on a connection, and stores built on one
 * pool share its connections (start-up loads the demo data through a store of its own), so a
 * name is derived from the text alone, never from the order texts were seen in.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(readonly cap = MAX_NAMED_STATEMENTS) {}

  nameOf(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.cap) return known;
    const name = statementName('read', sql);
    this.names.set(sql, name);
    return name;
  }
}

/** A read's statement as pg takes it: its text and, within `StatementNames`' cap, its name. */
export interface ReadStatement {
  text: string;
  name: string | undefined;
}

/**
 * Each read text (`?` placeholders, as the compiler writes it) turned into pg's text and named
 * once, not at every statement: numbering the placeholders with a regex and hashing the result
 * for its name were 1.2 % of the service's busy samples in W3 on PostgreSQL
 * (`toPostgresPlaceholders` 0.7, `nameOf` 0.5), for a service that sees few texts. Texts past the cap are turned again each time and go unnamed, as `StatementNames` says.
 */
export class ReadStatements {
  private readonly known = new Map<string, ReadStatement>();

  /** `names` may be shared by several of these, so that their texts count against one cap. */
  constructor(
    private readonly toText: (sql: string) => string,
    private readonly names: StatementNames,
  ) {}

  of(sql: string): ReadStatement {
    const known = this.known.get(sql);
    if (known) return known;
    const text = this.toText(sql);
    const statement = { text, name: this.names.nameOf(text) };
    if (statement.name !== undefined && this.known.size < this.names.cap) this.known.set(sql, statement);
    return statement;
  }
}

/** A statement's name, derived from its text alone (see `StatementNames`): `inventory-KIND-HASH`. */
export function statementName(kind: 'read' | 'write', sql: string): string {
  return `inventory-${kind}-${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
}
