// The second anchor of storage-transfer.bench.mjs: the same bytes through the same kind of path with
// nothing but Node sockets and files in it. A relay process (a gateway doing nothing but copying) passes a
// client's socket to a store process, which writes the bytes to a file (upload) or reads the file into
// the socket (download). No HTTP, no auth, no hashing: the fastest a Node gateway in front of a Node
// storage service could move a body on this machine, so `x of relay` says how much of that our stack
// reaches, and `x of dd` how much of the disk.
//
// Run by the bench as `node bare-relay.mjs store <file>` and `node bare-relay.mjs relay <storePort>`;
// each prints `listening <port>` once ready. A connection's first byte says its way: 'U' up, 'D' down.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import net from 'node:net';
import { pipeline } from 'node:stream/promises';

const [role, arg] = process.argv.slice(2);

/** Reads the one-byte way ('U' or 'D') off `socket` and hands back the rest of what arrived with it. */
async function readWay(socket) {
  const [first] = await once(socket, 'data');
  socket.pause();
  return { way: String.fromCharCode(first[0]), rest: first.subarray(1) };
}

function listen(server) {
  server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
}

if (role === 'store') {
  const file = arg;
  listen(
    // Half-open: the client ends its upload and still reads the answer.
    net.createServer({ allowHalfOpen: true }, async (socket) => {
      const { way, rest } = await readWay(socket);
      if (way === 'U') {
        // Like the storage service: the bytes go to the file, and the answer follows once it is closed.
        const out = createWriteStream(file, { highWaterMark: 1024 * 1024 });
        if (rest.length) out.write(rest);
        socket.resume();
        await pipeline(socket, out, { end: true });
        socket.end('ok');
      } else {
        await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), socket);
      }
    }),
  );
} else if (role === 'relay') {
  const storePort = Number(arg);
  listen(
    net.createServer({ allowHalfOpen: true }, (client) => {
      const store = net.connect({ port: storePort, host: '127.0.0.1', allowHalfOpen: true });
      client.pipe(store);
      store.pipe(client);
      client.on('error', () => store.destroy());
      store.on('error', () => client.destroy());
    }),
  );
} else {
  throw new Error(`unknown role ${role}`);
}
