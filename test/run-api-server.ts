// An app instance in its own process, for tests of several instances on one database: `tsx test/run-api-server.ts`
// with DATABASE_URL set; prints `serving <origin>` once it listens.
import { startApiServer } from "./api-server";

const server = await startApiServer();
console.log(`serving ${server.origin}`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
