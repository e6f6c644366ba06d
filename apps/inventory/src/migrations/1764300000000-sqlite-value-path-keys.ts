import { MigrationInterface, QueryRunner } from 'typeorm';
import { SQLITE_VALUE_INDEXES } from './1763700000000-initial-schema';

/**
 * SQLite: a value row names its family and path by one integer (`inventory_value_path`) instead
 * of both texts, in the row and in each of its index entries; why and what it saved is in
 * `SqlitePathKeys`. PostgreSQL keeps its layout.
 *
 * The value table is rebuilt once, in the migration's transaction (as by 1764200000000), the
 * trigger that deletes a record's rows along with it made again around it: 2.0 s for 1.5M value
 * rows (500k events with three indexed paths) on a 2-core VM.
 */
export class SqliteValuePathKeys1764300000000 implements MigrationInterface {
  name = 'SqliteValuePathKeys1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await queryRunner.query('DROP TRIGGER inventory_record_deleted');
    await queryRunner.query(
      'CREATE TABLE inventory_value_path (key INTEGER PRIMARY KEY, family TEXT NOT NULL, path TEXT NOT NULL, UNIQUE (family, path))',
    );
    await queryRunner.query(
      'INSERT INTO inventory_value_path (family, path) SELECT DISTINCT family, path FROM inventory_value ORDER BY family, path',
    );
    await queryRunner.query(`CREATE TABLE inventory_value_rebuilt (
       seq INTEGER NOT NULL,
       path_key INTEGER NOT NULL,
       kind TEXT NOT NULL,
       text TEXT,
       num REAL)`);
    await queryRunner.query(`INSERT INTO inventory_value_rebuilt (seq, path_key, kind, text, num)
       SELECT v.seq, p.key, v.kind, v.text, v.num FROM inventory_value v
       JOIN inventory_value_path p ON p.family = v.family AND p.path = v.path ORDER BY v.rowid`);
    await replaceValueTable(queryRunner, PATH_KEY_INDEXES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await queryRunner.query('DROP TRIGGER inventory_record_deleted');
    await queryRunner.query(`CREATE TABLE inventory_value_rebuilt (
       seq INTEGER NOT NULL,
       family TEXT NOT NULL,
       path TEXT NOT NULL,
       kind TEXT NOT NULL,
       text TEXT,
       num REAL)`);
    await queryRunner.query(`INSERT INTO inventory_value_rebuilt (seq, family, path, kind, text, num)
       SELECT v.seq, p.family, p.path, v.kind, v.text, v.num FROM inventory_value v
       JOIN inventory_value_path p ON p.key = v.path_key ORDER BY v.rowid`);
    await replaceValueTable(queryRunner, SQLITE_VALUE_INDEXES);
    await queryRunner.query('DROP TABLE inventory_value_path');
  }
}

const PATH_KEY_INDEXES = [
  'CREATE INDEX inventory_value_text ON inventory_value (path_key, text, seq)',
  'CREATE INDEX inventory_value_num ON inventory_value (path_key, num, seq) WHERE num IS NOT NULL',
  'CREATE INDEX inventory_value_seq ON inventory_value (seq, path_key)',
];

async function replaceValueTable(queryRunner: QueryRunner, indexes: readonly string[]): Promise<void> {
  await queryRunner.query('DROP TABLE inventory_value');
  await queryRunner.query('ALTER TABLE inventory_value_rebuilt RENAME TO inventory_value');
  for (const index of indexes) await queryRunner.query(index);
  await queryRunner.query(`CREATE TRIGGER inventory_record_deleted AFTER DELETE ON inventory_record
    BEGIN DELETE FROM inventory_value WHERE seq = old.seq; END`);
}
