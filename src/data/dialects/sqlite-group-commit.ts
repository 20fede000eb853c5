import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';

/** Most writes one shared transaction takes; a longer queue is served by the next one. */
export const GROUP_COMMIT_MAX_WRITES = 64;

type Work = (trx: Transaction<unknown>) => Promise<unknown>;

interface QueuedWrite {
  db: Kysely<unknown>;
  work: Work;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint batched_write');
const RELEASE = CompiledQuery.raw('release batched_write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to batched_write');

/**
 * Group commit for SQLite: the writes queued for the one connection run in ONE `BEGIN IMMEDIATE
 * … COMMIT` transaction, each in a savepoint of its own, so that one fsync (`synchronous=FULL`)
 * makes all of them durable. better-sqlite3 is synchronous: each COMMIT's fsync stops the event
 * loop, so one transaction per write caps a process at the disk's fsync rate however little else
 * it does. See docs/decisions/091-group-commit-on-sqlite.md.
 *
 * - A write that fails (a unique violation, a trigger) is rolled back to its savepoint and fails
 *   alone; the others go on.
 * - If SQLite ends the shared transaction itself (SQLITE_FULL, SQLITE_IOERR, …) or the COMMIT
 *   fails, every write of the batch fails with that error and none of it is left.
 * - Every caller is answered only after the COMMIT has returned, failures included: nothing is
 *   acknowledged before it is durable, and a failed write's follow-up reads (who holds this
 *   address?) see the rows its batch committed.
 *
 * A batch starts on the event loop's check phase one turn after the first write is queued, so
 * requests read in the I/O phases between (those that arrived during the previous fsync, and
 * those sent in reply to its answers) join it; writes queued while it waits for another
 * process's write lock join it when that lock is granted, or fail with it (503) when the wait
 * runs past the query timeout.
 */
export class SqliteGroupCommit {
  readonly #database: SQLite.Database;
  readonly #queue: QueuedWrite[] = [];
  /** A batch is scheduled or running; the next one is scheduled when it ends. */
  #busy = false;
  /** Writes taken into the next batch, whose BEGIN has not yet been granted the write lock. */
  #beginning = 0;

  constructor(database: SQLite.Database) {
    this.#database = database;
  }

  /**
   * Writes not yet running: queued, or taken into a batch still waiting for the write lock
   * (another process's transaction, e.g. a topics import). For the deskgate_sqlite_writes_waiting
   * gauge.
   */
  get waiting(): number {
    return this.#queue.length + this.#beginning;
  }

  /** Runs `work` in the next shared transaction; resolves or rejects once that has committed. */
  run<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Kysely's types are invariant in the database type; each write gets back its own `db`'s.
      this.#queue.push({
        db: db as unknown as Kysely<unknown>,
        work: work as unknown as Work,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#busy || this.#queue.length === 0) return;
    this.#busy = true;
    const run = () => {
      void this.#runBatch().finally(() => {
        this.#busy = false;
        this.#schedule();
      });
    };
    // Two hops: a batch ends in the check phase, where its answers wait for the next turn's
    // (src/http/end-with-turn.ts). Starting the next batch one turn later lets those answers go
    // out first and the requests their clients send back join it; one hop made every other
    // batch a small one (about 15% fewer creations per second).
    setImmediate(() => setImmediate(run));
  }

  /** Up to `count` queued writes made through `db` (a batch runs in one Kysely's transaction). */
  #take(db: Kysely<unknown>, count: number): QueuedWrite[] {
    const taken: QueuedWrite[] = [];
    for (let i = 0; i < this.#queue.length && taken.length < count; ) {
      if (this.#queue[i]?.db === db) taken.push(...this.#queue.splice(i, 1));
      else i++;
    }
    return taken;
  }

  async #runBatch(): Promise<void> {
    const first = this.#queue[0];
    if (!first) return;
    const { db } = first;
    const batch = this.#take(db, GROUP_COMMIT_MAX_WRITES);
    const outcomes: Outcome[] = [];
    let begun = false;
    this.#beginning = batch.length;
    try {
      await db.transaction().execute(async (trx) => {
        begun = true;
        this.#beginning = 0;
        // Writes queued while BEGIN waited for another process's write lock join at once.
        batch.push(...this.#take(db, GROUP_COMMIT_MAX_WRITES - batch.length));
        for (const write of batch) outcomes.push(await this.#runInSavepoint(trx, write.work));
      });
    } catch (error) {
      this.#beginning = 0;
      // BEGIN failed (e.g. another process held the write lock past the query timeout): every
      // write waiting behind it fails now, so none waits longer than that, however long the queue.
      if (!begun) batch.push(...this.#take(db, Number.POSITIVE_INFINITY));
      for (const write of batch) write.reject(error);
      return;
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  async #runInSavepoint(trx: Transaction<unknown>, work: Work): Promise<Outcome> {
    await trx.executeQuery(SAVEPOINT);
    try {
      const value = await work(trx);
      await trx.executeQuery(RELEASE);
      return { ok: true, value };
    } catch (error) {
      // SQLite rolled the whole transaction back itself: the batch fails with the real cause.
      if (!this.#database.inTransaction) throw error;
      await trx.executeQuery(ROLLBACK_TO);
      await trx.executeQuery(RELEASE);
      return { ok: false, error };
    }
  }
}
