/**
 * `npm run user -- add NAME` adds a Basic user (or replaces its password); the password is the
 * first line of stdin, or typed at a prompt without echo when stdin is a terminal.
 * `npm run user -- remove NAME` removes one.
 */
import '../library-paths';
import 'reflect-metadata';
import { runSql } from '../database/sql-text';
import { setUserPassword } from '../database/users';
import { CliError, runCli, withCliDatabase } from './cli-database';

const USAGE = 'usage: npm run user -- add NAME   (password on stdin) | npm run user -- remove NAME';

function checkName(name: string | undefined): string {
  if (name === undefined || name === '') throw new CliError(USAGE);
  // HTTP Basic separates user and password with the first colon.
  if (name.includes(':')) throw new CliError('a user name cannot contain ":"');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new CliError('a user name cannot contain control characters');
  return name;
}

/** The first line of a piped stdin. */
async function readPipedLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  process.stdin.pause();
  return text.split('\n')[0].replace(/\r$/, '');
}

/** A password typed at the terminal, not echoed. */
function promptPassword(): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write('Password: ');
  return new Promise((resolve, reject) => {
    let password = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(password);
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish();
        if (character === '\u0003') return finish(new CliError('cancelled'));
        if (character === '\u007f' || character === '\b') password = [...password].slice(0, -1).join('');
        else password += character;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function readPassword(): Promise<string> {
  const password = process.stdin.isTTY ? await promptPassword() : await readPipedLine();
  if (password === '') throw new CliError('the password is empty (give it as the first line of stdin)');
  return password;
}

async function main(): Promise<void> {
  const [command, name, ...rest] = process.argv.slice(2);
  if (rest.length > 0) throw new CliError(USAGE);
  if (command === 'add') {
    const username = checkName(name);
    const password = await readPassword();
    await withCliDatabase({}, ({ dataSource }) => setUserPassword(dataSource, username, password));
    process.stderr.write(`User "${username}" saved\n`);
    return;
  }
  if (command === 'remove') {
    const username = checkName(name);
    const removed = await withCliDatabase({}, async ({ dataSource }) => {
      const existing = await runSql(dataSource, 'SELECT 1 FROM inventory_user WHERE username = ?', [username]);
      if (existing.length === 0) return false;
      await runSql(dataSource, 'DELETE FROM inventory_user WHERE username = ?', [username]);
      return true;
    });
    if (!removed) throw new CliError(`no user "${username}"`);
    process.stderr.write(`User "${username}" removed\n`);
    return;
  }
  throw new CliError(USAGE);
}

runCli('user', main);
