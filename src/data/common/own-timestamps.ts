/** deskgate's own tables keep a row's creation and last change in created_at and updated_at. */
export const OWN_TIMESTAMP_COLUMNS = { created: 'created_at', updated: 'updated_at' } as const;

/** The timestamp columns of every own table, UTC `YYYY-MM-DD HH:MM:SS` text. */
export interface OwnTimestamps {
  created_at: string;
  updated_at: string;
}

/** A new row's created_at and updated_at: both `at`. */
export function createdAt(at: string): OwnTimestamps {
  return { created_at: at, updated_at: at };
}
