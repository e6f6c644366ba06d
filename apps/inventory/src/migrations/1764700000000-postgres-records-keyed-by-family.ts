import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: `inventory_record` loses its primary key on `seq`; `(family, seq)` is the index
 * that finds a record by its sequence number, and every statement that does so names the
 * family. Each new record then costs one B-tree entry fewer (its `(family, id)` and
 * `(family, seq)` entries remain): in W4, PostgreSQL's CPU per event over the service's read
 * 1.35 and 1.38 against 1.68 and 1.51 (README "Performance"). `seq` stays unique: only its
 * sequence writes it.
 *
 * `down` builds the key again, which reads the whole table once.
 */
export class PostgresRecordsKeyedByFamily1764700000000 implements MigrationInterface {
  name = 'PostgresRecordsKeyedByFamily1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('ALTER TABLE inventory_record DROP CONSTRAINT inventory_record_pkey');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('ALTER TABLE inventory_record ADD PRIMARY KEY (seq)');
  }
}
