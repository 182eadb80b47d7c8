import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "@/lib/db";
import { launchPlatform } from "@/test/launch-platform";

// A second platform, started as `npm start` starts it (the build the web server made is fresh by now), so that
// stopping it cannot disturb the instance the other tests use.
test("a first start's development account signs in to the dashboard; SIGTERM stops the HTTP server, the worker and the embedded database, and exits cleanly", async ({ page }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const dataDir = path.join(tmpdir(), `ck-e2e-shutdown-${Date.now()}`);
  const { child, output, exited, ready } = launchPlatform({ port, dataDir });

  try {
    await ready;
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    expect(health.status).toBe(200);
    const postmasterPid = path.join(dataDir, "postgres", "cluster", "postmaster.pid");
    expect(existsSync(postmasterPid)).toBe(true);

    // The seeded account works out of the box with the password the first start printed once.
    const signIn = /dashboard sign-in: (\S+) \/ (\S+)/.exec(output());
    expect(signIn, output()).not.toBeNull();
    await page.goto(`http://127.0.0.1:${port}/sign-in`);
    await page.getByLabel("Email address").fill(signIn![1]!);
    await page.getByLabel("Password").fill(signIn![2]!);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("link", { name: /Development App/ })).toBeVisible();

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output()).toContain("Chartkey stopped.");
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    // PostgreSQL removes its pid file only on a clean shutdown.
    expect(existsSync(postmasterPid)).toBe(false);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
});
