import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The machine's temporary folder, which outlasts a run. `npm test` points TMPDIR at a folder in
 * memory that it removes at the end (scripts/run-tests.ts) and names this one in
 * DESKGATE_TEST_MACHINE_TMPDIR; what a later run reuses (the extracted osTicket) belongs here.
 */
export const MACHINE_TMPDIR = process.env.DESKGATE_TEST_MACHINE_TMPDIR || tmpdir();
