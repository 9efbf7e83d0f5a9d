// A scripted stand-in for the server (node:net), for what the real server never does on purpose.

import { createServer } from "node:net";
import { MessageReader } from "../dist/index.js";

/** A TCP server whose connections are handed to `onConnection(socket, messages)`, where
 * `messages` is an async queue of what the client sent (parsed, either framing). */
export function fakeServer() {
  const sockets = [];
  let handler;
  const server = createServer((socket) => {
    sockets.push(socket);
    const reader = new MessageReader();
    const queue = [];
    const waiters = [];
    const raw = [];
    socket.on("data", (chunk) => {
      raw.push(chunk);
      for (const m of reader.push(chunk).messages) {
        const w = waiters.shift();
        if (w) w(m);
        else queue.push(m);
      }
    });
    socket.on("error", () => {});
    const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r)));
    handler?.({ socket, next, raw });
  });
  return {
    listen: () => new Promise((r) => server.listen(0, "127.0.0.1", () => r(server.address().port))),
    onConnection(fn) {
      handler = fn;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

