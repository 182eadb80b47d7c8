// The platform's HTTP server in its own process, as `CHARTKEY_WORKER=off npm start` serves the API (dispatch tables
// called directly, no job worker; pages are not served, so no Next.js build is needed), for tests that kill it:
// `tsx test/run-platform-server.ts` with DATABASE_URL and PORT set. Prints "serving" once it listens.
import { createPlatformServer, directApiHandler, type NextHandler } from "@/lib/server";

const port = Number(process.env.PORT);
if (!process.env.DATABASE_URL || !port) throw new Error("DATABASE_URL and PORT must be set");
const noPages: NextHandler = async (_req, res) => {
  res.statusCode = 404;
  res.end();
};
const directApi = directApiHandler({ hostname: "localhost", port });
const server = createPlatformServer(noPages, 0, directApi);
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
console.log("serving");
