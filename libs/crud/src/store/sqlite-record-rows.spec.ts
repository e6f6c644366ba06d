import { joinedRecordSql, recordRowOfText } from './sqlite-record-rows';
import { createDatabase } from './store.fixtures';

describe('joinedRecordSql', () => {
  it('selects each record as one text, the rest of the statement unchanged', () => {
    expect(joinedRecordSql('SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.family = ? ORDER BY r.seq LIMIT 3')).toBe(
      'SELECT r.seq || char(2) || r.id || char(2) || r.doc FROM inventory_record r WHERE r.family = ? ORDER BY r.seq LIMIT 3',
    );
  });

  it('leaves alone a statement that selects anything else', () => {
    expect(joinedRecordSql('SELECT r.seq FROM inventory_record r')).toBeUndefined();
    expect(joinedRecordSql('SELECT r.seq, r.id FROM inventory_record r')).toBeUndefined();
    expect(joinedRecordSql('SELECT seq, value FROM t')).toBeUndefined();
  });
});

describe('recordRowOfText', () => {
  it('gives back the stored record, in the order the statement chose, whatever its text holds', () => {
    const db = createDatabase();
    const docs = [
      '{"id":"a","note":"tab\\t, \\u0002 escaped, \\"quoted\\", é, 😀"}',
      '{ "id" : "b-é",\n  "n": [1, {"x": null}] }',
      '{"id":"10","big":12345678901234567890}',
    ];
    const insert = db.prepare('INSERT INTO inventory_record (seq, family, id, doc) VALUES (?, ?, ?, ?)');
    insert.run(9_007_199_254_740_000, 'f', 'a', docs[0]);
    insert.run(7, 'f', 'b-é', docs[1]);
    insert.run(8, 'f', '10', docs[2]);
    const sql = 'SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.family = ? ORDER BY r.id DESC';
    const rows = db.prepare(sql).all('f');
    const joined = (db.prepare(joinedRecordSql(sql)!).pluck().all('f') as string[]).map(recordRowOfText);
    expect(joined).toEqual(rows);
    expect(joined.map((row) => row.id)).toEqual(['b-é', 'a', '10']);
    expect(joined[1]).toEqual({ seq: 9_007_199_254_740_000, id: 'a', doc: docs[0] });
    db.close();
  });
});
