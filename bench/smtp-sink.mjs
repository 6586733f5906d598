// The bench's mail server (bench/mail.ts): a real SMTP server (smtp-server) in its own process, so
// the load generator's busy event loop does not slow its answers. Accepts every message and prints
// `MSG <Message-ID>` for each, after `LISTENING <port>`.
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  logger: false,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk) => {
      if (head.length < 8192) head += chunk.toString('utf8');
    });
    stream.on('end', () => {
      process.stdout.write(`MSG ${/^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? '?'}\n`);
      callback(null, 'Ok');
    });
  },
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`LISTENING ${server.server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
