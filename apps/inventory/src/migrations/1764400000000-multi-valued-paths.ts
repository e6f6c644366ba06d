import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which of a family's indexed paths some record holds more than one value at (a list, or a path
 * under a list of objects). Where no record does, two bounds on the path hold of one value, and
 * a time window is one range of the value index instead of two halves of the family crossed
 * (`mergedRange`, seq-tree-plan). Set in the transaction that writes such a record and never
 * cleared: a stale mark only costs the merge.
 *
 * SQLite marks its path keys; PostgreSQL, which had none until 1764500000000, lists the paths.
 * Both are filled from the value rows already stored.
 */
export class MultiValuedPaths1764400000000 implements MigrationInterface {
  name = 'MultiValuedPaths1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query('CREATE TABLE inventory_value_multi (family TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (family, path))');
      await queryRunner.query(
        'INSERT INTO inventory_value_multi (family, path) SELECT DISTINCT family, path FROM inventory_value GROUP BY family, path, seq HAVING count(*) > 1',
      );
      return;
    }
    await queryRunner.query('ALTER TABLE inventory_value_path ADD COLUMN multi INTEGER NOT NULL DEFAULT 0');
    await queryRunner.query(
      'UPDATE inventory_value_path SET multi = 1 WHERE key IN (SELECT path_key FROM inventory_value GROUP BY seq, path_key HAVING count(*) > 1)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query('DROP TABLE inventory_value_multi');
      return;
    }
    await queryRunner.query('ALTER TABLE inventory_value_path DROP COLUMN multi');
  }
}
