/**
 * Database driver errors that are the record's fault, not the server's. The duplicate key on
 * (family, id) is the create race that the primary key decides: the contract's 406.
 */
export function storeErrorStatus(error: unknown): { status: number; message: string } | undefined {
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') {
    return { status: 406, message: 'Id already found' };
  }
  if (code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH' || code === 'SQLITE_TOOBIG') {
    return { status: 422, message: 'The store could not accept the record' };
  }
  if (/^2[23][0-9A-Z]{3}$/.test(code)) return { status: 422, message: 'The store could not accept the record' };
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { status: 503, message: 'The database is busy' };
  return undefined;
}
