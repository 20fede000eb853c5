import { createServer } from 'node:http';

/**
 * The ceiling for any Node server here: bare node:http answering every request with a constant
 * JSON body as long as deskgate's topic response. It reads (and drops) the request body, as a
 * real server must.
 */
const size = Number(process.argv[2] ?? 280);
const prefix = '{"status":"Success","time":0.0001,"data":"';
const body = `${prefix}${'x'.repeat(Math.max(0, size - prefix.length - 2))}"}`;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ msg: 'reference listening', port: typeof address === 'object' && address ? address.port : 0 })}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
