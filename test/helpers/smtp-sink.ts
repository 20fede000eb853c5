import { createServer, type Socket } from 'node:net';

/** One message as the sink received it: envelope and the raw DATA (dot-unstuffed). */
export interface SunkMail {
  from: string;
  to: string[];
  data: string;
}

export interface SmtpSink {
  port: number;
  messages: SunkMail[];
  /** Resolves when `count` messages have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<SunkMail[]>;
  stop(): Promise<void>;
}

const ADDRESS = /<([^>]*)>/;

/**
 * A minimal SMTP server (RFC 5321 without extensions beyond 8BITMIME): it accepts every
 * envelope and keeps each message, so a test can assert what an application mailed.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMail[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let dataLines: string[] = [];
    let envelope: { from: string; to: string[] } = { from: '', to: [] };
    const reply = (line: string) => socket.write(`${line}\r\n`);

    const onLine = (line: string) => {
      if (inData) {
        if (line === '.') {
          inData = false;
          messages.push({ ...envelope, data: dataLines.join('\r\n') });
          dataLines = [];
          envelope = { from: '', to: [] };
          reply('250 2.0.0 queued');
          for (const wake of waiters) wake();
        } else {
          dataLines.push(line.startsWith('.') ? line.slice(1) : line);
        }
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO') reply('250-sink\r\n250 8BITMIME');
      else if (verb === 'HELO') reply('250 sink');
      else if (verb === 'MAIL') {
        envelope = { from: ADDRESS.exec(line)?.[1] ?? '', to: [] };
        reply('250 2.1.0 ok');
      } else if (verb === 'RCPT') {
        envelope.to.push(ADDRESS.exec(line)?.[1] ?? '');
        reply('250 2.1.5 ok');
      } else if (verb === 'DATA') {
        inData = true;
        reply('354 end with <CRLF>.<CRLF>');
      } else if (verb === 'RSET') {
        envelope = { from: '', to: [] };
        reply('250 ok');
      } else if (verb === 'NOOP') reply('250 ok');
      else if (verb === 'QUIT') {
        reply('221 bye');
        socket.end();
      } else reply('502 5.5.2 not implemented');
    };

    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        onLine(line);
      }
    });
    reply('220 sink ESMTP');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };

  return {
    port,
    messages,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(messages);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${messages.length} of ${count} mails arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
