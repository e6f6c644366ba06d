import { RecordProblems } from '../validation/record-problems';
import { assertRecordIdInPath } from './path-id';

describe('assertRecordIdInPath', () => {
  it('lets a missing or valid path id through', () => {
    for (const id of [undefined, 'p2p', 'X\ufffd', '😀'.repeat(256)]) expect(() => assertRecordIdInPath(id)).not.toThrow();
  });

  it.each([
    ['\u0000', 'must not contain control characters'],
    ['..', 'must not be "." or ".."'],
    ['_x', 'must not start with "_"'],
    ['😀'.repeat(257), 'must be at most 256 characters'],
  ])('answers %j with the 406 of an id: %s', (id, reason) => {
    let thrown: unknown;
    try {
      assertRecordIdInPath(id);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RecordProblems);
    expect((thrown as RecordProblems).httpStatus).toBe(406);
    expect((thrown as RecordProblems).problems).toEqual({ id: reason });
  });
});
