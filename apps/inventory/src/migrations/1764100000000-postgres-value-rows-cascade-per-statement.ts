import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: the value rows of deleted records go with them by one statement-level trigger
 * instead of a foreign key. The key ran a referential-integrity check per value row inserted,
 * three or more per event: W4 (batches of 1,000 events) 30–36k records/s with it, 40–42k without
 * (README "Performance"). What it guaranteed still holds: every delete of records, by this
 * service or by any other client, removes their value rows in the same statement; and value rows
 * are only written with their record (one statement) or under its row lock (updates, learned-path
 * builds), so none can name a record that is gone. SQLite followed in 1764200000000.
 */
export class PostgresValueRowsCascadePerStatement1764100000000 implements MigrationInterface {
  name = 'PostgresValueRowsCascadePerStatement1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(`CREATE FUNCTION inventory_value_delete_with_records() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM inventory_value v USING deleted_records d WHERE v.seq = d.seq;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER inventory_record_deleted AFTER DELETE ON inventory_record
      REFERENCING OLD TABLE AS deleted_records FOR EACH STATEMENT EXECUTE FUNCTION inventory_value_delete_with_records()`);
    // Named by PostgreSQL when the initial schema was created; looked up rather than assumed.
    const keys = (await queryRunner.query(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'inventory_value'::regclass AND contype = 'f'`,
    )) as { conname: string }[];
    for (const { conname } of keys) await queryRunner.query(`ALTER TABLE inventory_value DROP CONSTRAINT "${conname}"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('ALTER TABLE inventory_value ADD FOREIGN KEY (seq) REFERENCES inventory_record (seq) ON DELETE CASCADE');
    await queryRunner.query('DROP TRIGGER inventory_record_deleted ON inventory_record');
    await queryRunner.query('DROP FUNCTION inventory_value_delete_with_records()');
  }
}
