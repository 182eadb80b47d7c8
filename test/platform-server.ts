import { createPlatformServer, directApiHandler, type NextHandler } from "@/lib/server";
import { listenOnFreePort } from "@/test/raw-http";

/**
 * The platform server as `npm start` runs it, on a free port: API requests served by their dispatch tables directly,
 * everything else handed to `next` (a stand-in: these tests do not render pages).
 */
export async function startPlatformServer(next: NextHandler = async (_req, res) => void res.end("page")) {
  const directApi = directApiHandler({ hostname: "localhost", port: 3000 });
  return listenOnFreePort(createPlatformServer(next, 0, directApi));
}
