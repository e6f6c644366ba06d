import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One generic record table for every family (so a family brings no migration), the value index
 * that queries run on, settings (the generated JWT secret, the demo-data mark) and Basic users.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const statements = postgres ? POSTGRES : SQLITE;
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['inventory_value', 'inventory_record', 'inventory_setting', 'inventory_user']) {
      await queryRunner.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}

/** Also built again when a later migration rebuilds the value table. */
export const SQLITE_VALUE_INDEXES = [
  `CREATE INDEX inventory_value_text ON inventory_value (family, path, text, seq)`,
  `CREATE INDEX inventory_value_num ON inventory_value (family, path, num, seq) WHERE num IS NOT NULL`,
  `CREATE INDEX inventory_value_seq ON inventory_value (seq, path)`,
];

const SQLITE = [
  `CREATE TABLE inventory_record (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     family TEXT NOT NULL,
     id TEXT NOT NULL,
     doc TEXT NOT NULL,
     UNIQUE (family, id))`,
  `CREATE TABLE inventory_value (
     seq INTEGER NOT NULL REFERENCES inventory_record (seq) ON DELETE CASCADE,
     family TEXT NOT NULL,
     path TEXT NOT NULL,
     kind TEXT NOT NULL,
     text TEXT,
     num REAL)`,
  `CREATE INDEX inventory_record_family_seq ON inventory_record (family, seq)`,
  ...SQLITE_VALUE_INDEXES,
  `CREATE TABLE inventory_setting (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE inventory_user (username TEXT PRIMARY KEY, password_hash TEXT NOT NULL)`,
];

/** Also built again when a later migration rebuilds the value table. */
export const POSTGRES_VALUE_INDEXES = [
  // A B-tree entry must stay under ~2.7 kB: the text index covers a prefix (POSTGRES_TEXT_PREFIX).
  `CREATE INDEX inventory_value_text ON inventory_value (family, path, left(text, 200), seq)`,
  `CREATE INDEX inventory_value_num ON inventory_value (family, path, num, seq) WHERE num IS NOT NULL`,
  `CREATE INDEX inventory_value_seq ON inventory_value (seq, path)`,
];

// Text compares bytewise (COLLATE "C") so that ranges and order agree with SQLite and with the
// in-memory evaluator. `doc` is `json`, not `jsonb`: it keeps the record's text exactly as sent
// (`text` since 1764600000000).
// `text` holds U+0000 encoded (see encodePostgresText), since PostgreSQL text cannot.
const POSTGRES = [
  `CREATE TABLE inventory_record (
     seq BIGSERIAL PRIMARY KEY,
     family TEXT COLLATE "C" NOT NULL,
     id TEXT COLLATE "C" NOT NULL,
     doc JSON NOT NULL,
     UNIQUE (family, id))`,
  `CREATE TABLE inventory_value (
     seq BIGINT NOT NULL REFERENCES inventory_record (seq) ON DELETE CASCADE,
     family TEXT COLLATE "C" NOT NULL,
     path TEXT COLLATE "C" NOT NULL,
     kind CHAR(1) NOT NULL,
     text TEXT COLLATE "C",
     num DOUBLE PRECISION)`,
  `CREATE INDEX inventory_record_family_seq ON inventory_record (family, seq)`,
  ...POSTGRES_VALUE_INDEXES,
  `CREATE TABLE inventory_setting (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE inventory_user (username TEXT PRIMARY KEY, password_hash TEXT NOT NULL)`,
];
