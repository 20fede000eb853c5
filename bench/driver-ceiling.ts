import SQLite from 'better-sqlite3';

/**
 * The database's own ceiling for user creation: the same transaction deskgate runs (user, email,
 * default email id, account, audit entry), straight through better-sqlite3 with the same
 * pragmas (WAL, synchronous=FULL), in a loop for a fixed time. Prints one JSON line.
 */
const [path, seconds] = [process.argv[2] ?? '', Number(process.argv[3] ?? 5)];
const db = new SQLite(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

const insertUser = db.prepare(
  'insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at) values (0, 0, 1, ?, 351210000000, ?, ?) returning id',
);
const insertEmail = db.prepare(
  'insert into user_emails (user_id, address, address_key) values (?, ?, ?) returning id',
);
const setDefault = db.prepare('update users set default_email_id = ? where id = ?');
const insertAccount = db.prepare(
  'insert into user_accounts (user_id, timezone, password_hash, registered_at) values (?, ?, ?, ?)',
);
const insertAudit = db.prepare(
  'insert into audit_log (at, api_key_id, client_ip, operation, target_id) values (?, 1, ?, ?, ?)',
);
const hash = '$2y$10$abcdefghijklmnopqrstuuG9n0zMvVQk5a0hQ4dT2yOQf7rN5kq8a';
const create = db.transaction((n: number) => {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const email = `ceiling${n}@bench.example`;
  const { id } = insertUser.get(`User ${n}`, at, at) as { id: number };
  const { id: emailId } = insertEmail.get(id, email, email) as { id: number };
  setDefault.run(emailId, id);
  insertAccount.run(id, 'UTC', hash, at);
  insertAudit.run(at, '127.0.0.1', 'user/add', String(id));
});

const end = performance.now() + seconds * 1000;
let n = 0;
const started = performance.now();
while (performance.now() < end) create(n++);
const elapsed = (performance.now() - started) / 1000;
db.close();
process.stdout.write(
  `${JSON.stringify({ transactions: n, seconds: elapsed, perSecond: n / elapsed })}\n`,
);
