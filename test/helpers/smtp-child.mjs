// A real SMTP server in a child process, for the test of a server killed mid-send
// (src/notifications/mail-delivery.test.ts): it prints `LISTENING <port>` once it listens and
// `DATA <Message-ID>` as soon as the first bytes of a message arrive, and never answers one, so
// the test can SIGKILL it while the message is being transmitted.
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  logger: false,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  onData(stream) {
    let told = false;
    let head = '';
    stream.on('data', (chunk) => {
      if (told) return;
      head += chunk.toString('utf8');
      const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1];
      if (id || head.length > 4096) {
        told = true;
        process.stdout.write(`DATA ${id ?? '?'}\n`);
      }
    });
  },
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${server.server.address().port}\n`);
});
