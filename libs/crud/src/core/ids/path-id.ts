import { RecordProblems } from '../validation/record-problems';
import { recordIdProblem } from './record-id';

/**
 * A `{id}` path segment obeys the id rules for every method, reads and deletes too: `/%00`
 * reached PostgreSQL as text it cannot hold (422) while SQLite answered 404 (docs/records.md).
 * Throws the 406 `{"id": reason}` a write would answer.
 */
export function assertRecordIdInPath(pathId: string | undefined): void {
  if (pathId === undefined) return;
  const problem = recordIdProblem(pathId);
  if (problem) throw RecordProblems.at('id', problem);
}
