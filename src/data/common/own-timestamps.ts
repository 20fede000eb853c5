/** deskgate's own tables keep a row's creation and last change in created_at and updated_at. */
export const OWN_TIMESTAMP_COLUMNS = { created: 'created_at', updated: 'updated_at' } as const;

/** A new row's created_at and updated_at: both `at`. */
export function createdAt(at: string): { created_at: string; updated_at: string } {
  return { created_at: at, updated_at: at };
}
