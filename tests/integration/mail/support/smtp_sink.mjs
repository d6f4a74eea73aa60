// A real SMTP server on loopback for the mail integration tests (nodemailer's smtp-server):
// STARTTLS with the certificate the test made, AUTH required, and every accepted message
// written to --out as one JSON file (envelope, whether the session was TLS, who logged in,
// the message as received). Prints {"port": N} once listening; exits when its standard input
// closes (the test that started it is gone) or on SIGTERM.
//
//   node smtp_sink.mjs --out DIR --user U --password P [--cert F --key F] [--no-starttls]
//                      [--auth-methods PLAIN,LOGIN] [--port-from 57000 --port-to 57999]
import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const name = process.argv[i].replace(/^--/, '');
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith('--')) {
    args[name] = true;
  } else {
    args[name] = next;
    i++;
  }
}
const starttls = !args['no-starttls'];
const portFrom = Number(args['port-from'] ?? 57000);
const portTo = Number(args['port-to'] ?? 57999);
let written = 0;

const server = new SMTPServer({
  secure: false,
  name: 'localhost',
  logger: false,
  authMethods: String(args['auth-methods'] ?? 'PLAIN,LOGIN').split(','),
  // AUTH before MAIL FROM, and only over TLS unless this sink offers none.
  authOptional: false,
  allowInsecureAuth: !starttls,
  hideSTARTTLS: !starttls,
  disabledCommands: starttls ? [] : ['STARTTLS'],
  ...(starttls ? { key: fs.readFileSync(args.key), cert: fs.readFileSync(args.cert) } : {}),
  onAuth(auth, session, callback) {
    if (auth.username === args.user && auth.password === args.password) {
      callback(null, { user: auth.username });
      return;
    }
    const refusal = new Error('Invalid username or password');
    refusal.responseCode = 535;
    callback(refusal);
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const record = {
        from: session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((r) => r.address),
        secure: session.secure,
        user: session.user ?? null,
        message: Buffer.concat(chunks).toString('utf8'),
      };
      const name = `${Date.now()}-${++written}.json`;
      const temporary = path.join(args.out, `.${name}`);
      fs.writeFileSync(temporary, JSON.stringify(record));
      fs.renameSync(temporary, path.join(args.out, name));
      callback(null, 'Message accepted');
    });
  },
});

function listen(port) {
  if (port > portTo) {
    console.error('smtp_sink: no free port in the range');
    process.exit(2);
  }
  const onError = (error) => {
    if (error.code === 'EADDRINUSE') {
      listen(port + 1);
    } else {
      console.error(`smtp_sink: ${error.message}`);
      process.exit(2);
    }
  };
  server.once('error', onError);
  server.listen(port, '127.0.0.1', () => {
    server.off('error', onError);
    server.on('error', (error) => console.error(`smtp_sink: ${error.message}`));
    console.log(JSON.stringify({ port }));
  });
}

const start = portFrom + (process.pid % Math.max(1, portTo - portFrom));
listen(start);
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => server.close(() => process.exit(0)));
