/**
 * `npm start`'s command line after `node` (package.json's `start` is held to it by start-command.test.ts), for what
 * starts the platform as npm start does: the bench, and the browser tests that restart or stop it. Node runs the
 * server itself (no tsx wrapper process, so a signal reaches it) with tsx's loader and these V8 flags:
 *
 * `--max-semi-space-size=64`: each half of V8's young generation may grow to 64 MB (16 MB by default on 64-bit). A
 * request allocates tens of kilobytes that die within it; the scavenger that frees them runs whenever the young
 * generation fills, and each run costs about what survives it (the requests in flight), not what died. Four times
 * the room is a quarter of the runs. The young-generation collector was about a tenth of the server's CPU under
 * load; in three batches of paired `GET /app` runs the flag took the server's median CPU per request down by 8% and
 * 11% in two and left it the same in the third, and the server's resident memory under load was lower with it
 * (438 against 632 MB). V8 reads the flag only at start, so it is a command-line flag, not a setting the server
 * could apply to itself.
 */
export const START_NODE_ARGS = ["--max-semi-space-size=64", "--import", "tsx", "scripts/start.ts"] as const;
