import net from "node:net";

const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
const AUTHENTICATION_OK = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);

function commandComplete(tag: string): Buffer {
  const text = Buffer.from(`${tag}\0`);
  const head = Buffer.alloc(5);
  head.write("C", 0);
  head.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([head, text]);
}

/**
 * A loopback server that speaks just enough of PostgreSQL's protocol to look like a database that stopped answering,
 * as a client sees a frozen or partitioned server: with `startup: "silent"` it never completes a connection's
 * startup; with "answered" it completes it (trust) and then answers only the simple-protocol statements `answers`
 * accepts (with an empty CommandComplete), leaving every other statement unanswered.
 */
export async function silentPostgres(options: { startup: "silent" | "answered"; answers?: (sql: string) => boolean }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let started = false;
    socket.on("data", (chunk) => {
      if (!started) {
        started = true;
        if (options.startup === "answered") socket.write(Buffer.concat([AUTHENTICATION_OK, READY]));
        return;
      }
      // One simple query per chunk is all the tests send: 'Q', length, the statement's text.
      if (chunk[0] !== 0x51) return;
      const sql = chunk.subarray(5, chunk.length - 1).toString();
      if (options.answers?.(sql)) socket.write(Buffer.concat([commandComplete(sql.split(" ")[0]!), READY]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgresql://chartkey@127.0.0.1:${port}/silent`,
    /** Connections the server holds open now. */
    connections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
