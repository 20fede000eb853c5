// Moved to test/support/database-rows.ts; kept so that tests written before the move still run.
export * from '../../../test/support/database-rows.ts';
