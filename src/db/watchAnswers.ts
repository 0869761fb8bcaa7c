import type { Socket } from 'node:net';

import { DatabaseDeadlineError } from './withDeadline.js';

/**
 * Destroys a database connection's socket once the server has owed an answer for `deadlineMs`
 * without sending a byte: the queries on it then fail with a DatabaseDeadlineError instead of
 * waiting forever, and the pool opens a fresh connection for the next one. postgres.js has no
 * query timeout, and over a frozen connection (a hung server, a stalled network path) the
 * server-side timeouts cannot answer either, while TCP keep-alives are still acknowledged.
 *
 * The server owes an answer from the client's last write until a read that ends with
 * ReadyForQuery (the end of every answer); a read that does not restarts the wait. The
 * statement_timeout of the session must stay well below `deadlineMs`, so that a working server
 * always answers in time. Limits, on the side of never cutting a healthy connection: a query sent
 * behind another whose answer then completes is not watched; over TLS the bytes bypass this socket
 * object and nothing is watched (the deadlines of writeTransaction and withDeadline still hold).
 */
export function watchAnswers(socket: Socket, deadlineMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const onData = (chunk: Buffer) => (endsWithReadyForQuery(chunk) ? disarm() : arm());
  const trip = () => {
    timer = undefined;
    // postgres.js removes every listener of this socket when TLS takes it over: not ours to watch then.
    if (!socket.listeners('data').includes(onData)) return;
    // postgres.js fails the queries waiting on this connection with the error, and forgets the
    // connection at 'close'. Both at once: a destroy emits 'close' a moment later, and a query sent
    // on the connection in that moment would wait forever.
    socket.emit('error', new DatabaseDeadlineError('statement', deadlineMs));
    socket.emit('close', false);
    socket.destroy();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(trip, deadlineMs);
    timer.unref();
  };
  const write = socket.write;
  socket.write = function watchedWrite(this: Socket, ...args: Parameters<Socket['write']>) {
    arm();
    return write.apply(this, args);
  } as Socket['write'];
  socket.on('data', onData);
  socket.once('close', disarm);
}

/** Whether the chunk ends with a ReadyForQuery message: 'Z', length 5, status I, T or E. */
function endsWithReadyForQuery(chunk: Buffer): boolean {
  const n = chunk.length;
  if (n < 6 || chunk[n - 6] !== 0x5a || chunk.readInt32BE(n - 5) !== 5) return false;
  const status = chunk[n - 1];
  return status === 0x49 || status === 0x54 || status === 0x45;
}
