import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: `inventory_record` loses its primary key on `seq`; `(family, seq)` is the index
 * that finds a record by its sequence number, and every statement that does so names the
 * family. Each new record then costs one B-tree entry fewer (two, with `(family, id)`): W4's
 * events, PostgreSQL's CPU per event against the service's, 1.60 against 1.77 (README
 * "Performance"). `seq` stays unique: only its sequence writes it.
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
