import { joinedDocsOf, postgresJoinedDocsSql } from './postgres-joined-docs';

describe('postgresJoinedDocsSql and joinedDocsOf', () => {
  it('the statement answers its snapshot first in `id`, then the joined sequence numbers', () => {
    const sql = postgresJoinedDocsSql('SELECT r.seq, r.id, r.doc FROM inventory_record r');
    expect(sql).toMatch(
      /^SELECT 0 AS seq, pg_current_snapshot\(\)::text \|\| ' ' \|\| coalesce\(string_agg\(j\.seq::text, ','\), ''\) AS id, /,
    );
  });

  it('splits a row into its snapshot, sequence numbers and documents', () => {
    expect(joinedDocsOf({ id: '745:749:745,747 3,8,12', doc: '{"id":"a"},{"id":"b"},{"id":"c"}' })).toEqual({
      snapshot: '745:749:745,747',
      seqs: '3,8,12',
      docs: '{"id":"a"},{"id":"b"},{"id":"c"}',
    });
  });

  it('a row of no match: a snapshot and no texts', () => {
    expect(joinedDocsOf({ id: '745:745: ', doc: null })).toEqual({ snapshot: '745:745:', seqs: null, docs: null });
  });

  it('refuses a missing row, or one without a snapshot', () => {
    expect(() => joinedDocsOf(undefined)).toThrow('no row with a snapshot');
    expect(() => joinedDocsOf({ id: '3,8,12', doc: '{}' })).toThrow('no row with a snapshot');
  });
});
