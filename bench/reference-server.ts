import { createServer } from 'node:http';

/**
 * The ceiling for any Node server here: bare node:http answering every request with the bytes of
 * deskgate's topic answer: its headers (X-Request-Id, the rate-limit headers, Content-Type and
 * Content-Length, given as a JSON list of names and values) and a constant body as long as its
 * body. It reads (and drops) the request body, as a real server must.
 */
const { headers, length } = JSON.parse(process.argv[2] ?? '{}') as {
  headers: string[];
  length: number;
};
const prefix = '{"status":"Success","time":0.0001,"data":"';
const body = `${prefix}${'x'.repeat(Math.max(0, length - prefix.length - 2))}"}`;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, headers);
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
