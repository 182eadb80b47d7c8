import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
// Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself runs headless) when it is
// installed, else the whole browser: the shell renders the same pages for less CPU (on 2 cores, the suite alone took
// 1,391 to 1,526 busy CPU-seconds with it, over 1,616 with the whole browser; four of its files 324 to 345 against 443).
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
// A fresh data folder per run, so the browser tests also prove a first start: embedded database, migrations, seed
// and (when stale) the production build, exactly as `npm start` does on a new clone.
const dataDir = process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `ck-e2e-${Date.now()}`);
process.env.E2E_DATA_DIR = dataDir;
// The browser tests' mail server (e2e/mail-sink.setup.ts, a real SMTP server): the platform sends every email to it
// (CHARTKEY_SMTP_URL), and the tests read each message from this folder to follow its links.
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 15);
process.env.E2E_SMTP_PORT = String(smtpPort);
process.env.E2E_MAIL_DIR ??= `${dataDir}-mail`;

/** Exported for e2e/operator.spec.ts, which signs this account up. */
export const OPERATOR_EMAIL = "operator@e2e.example.test";
/** A second operator, for e2e/live-connect.spec.ts (its own account, so the files run in any order). */
export const LIVE_OPERATOR_EMAIL = "live-operator@e2e.example.test";
/** A third operator, for e2e/dashboard-email.spec.ts's outbox page. */
export const OUTBOX_OPERATOR_EMAIL = "outbox-operator@e2e.example.test";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/mail-sink.setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  // npm test runs these beside Vitest on 2 cores: a click's navigation took over the default 5 s there.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "npm start",
    url: `http://127.0.0.1:${port}/api/v1/health`,
    timeout: 420_000,
    reuseExistingServer: false,
    stdout: "pipe",
    // The webhook tests' receivers listen on this machine, which only a deployment that opts in lets sandbox
    // webhooks reach (the default refuses loopback and private addresses). Every test signs up and in from the
    // one address 127.0.0.1, far more often than a person would: the per-address password checks are raised to
    // match (lib/accounts/accounts.int.test.ts proves the default limit).
    env: {
      PORT: String(port),
      CHARTKEY_DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      CHARTKEY_ALLOW_PRIVATE_WEBHOOKS: "on",
      CHARTKEY_PASSWORD_CHECKS_PER_MINUTE: "1000",
      // The operators of the browser tests' deployment (e2e/operator.spec.ts and e2e/live-connect.spec.ts sign them up).
      CHARTKEY_OPERATOR_EMAILS: `${OPERATOR_EMAIL},${LIVE_OPERATOR_EMAIL},${OUTBOX_OPERATOR_EMAIL}`,
      // The provider directory test's SMART server and the third-party SMART server of e2e/live-connect.spec.ts
      // listen on this machine.
      CHARTKEY_PROVIDER_PRIVATE_HOSTS: "127.0.0.1",
      // Email goes to the tests' SMTP server (e2e/mail-sink.setup.ts): sign-up's confirmation link, resets, invitations.
      CHARTKEY_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    },
  },
});
