import { MigrationInterface, QueryRunner } from 'typeorm';
import { SQLITE_VALUE_INDEXES } from './1763700000000-initial-schema';

/**
 * SQLite: the value rows of deleted records go with them by a trigger instead of a foreign key,
 * as on PostgreSQL since 1764100000000. The key cost a parent lookup per value row inserted
 * (better-sqlite3 enforces keys by default): the store's insert of events with three indexed
 * paths ran ~8 % faster without it (README "Performance"). The trigger also holds for clients
 * that do not enforce keys, such as the sqlite3 shell, whose deletes the key let leave rows behind.
 *
 * SQLite cannot drop a constraint, so the value table is rebuilt: once, in the migration's
 * transaction, ~1 s per 450,000 value rows (an event with three indexed paths has three).
 */
export class SqliteValueRowsCascadeByTrigger1764200000000 implements MigrationInterface {
  name = 'SqliteValueRowsCascadeByTrigger1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await rebuildValueTable(queryRunner, '');
    await queryRunner.query(`CREATE TRIGGER inventory_record_deleted AFTER DELETE ON inventory_record
      BEGIN DELETE FROM inventory_value WHERE seq = old.seq; END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await queryRunner.query('DROP TRIGGER inventory_record_deleted');
    await rebuildValueTable(queryRunner, 'REFERENCES inventory_record (seq) ON DELETE CASCADE');
  }
}

async function rebuildValueTable(queryRunner: QueryRunner, seqConstraint: string): Promise<void> {
  await queryRunner.query(`CREATE TABLE inventory_value_rebuilt (
     seq INTEGER NOT NULL ${seqConstraint},
     family TEXT NOT NULL,
     path TEXT NOT NULL,
     kind TEXT NOT NULL,
     text TEXT,
     num REAL)`);
  await queryRunner.query(
    'INSERT INTO inventory_value_rebuilt (seq, family, path, kind, text, num) SELECT seq, family, path, kind, text, num FROM inventory_value',
  );
  await queryRunner.query('DROP TABLE inventory_value');
  await queryRunner.query('ALTER TABLE inventory_value_rebuilt RENAME TO inventory_value');
  for (const index of SQLITE_VALUE_INDEXES) await queryRunner.query(index);
}
