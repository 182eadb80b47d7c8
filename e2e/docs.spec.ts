import { expect, test, type Page } from "@playwright/test";
import { devSandboxKey } from "@/test/e2e-platform";
import { expectAccessible, expectNoHorizontalOverflow, keepScreenshot } from "./dashboard-helpers";

/** The reference once Scalar has loaded the keyed API's document. */
async function openReference(page: Page) {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Chartkey API" })).toBeVisible({ timeout: 20_000 });
}

test("the reference finds an operation by search, shows its samples in four languages and the error codes", async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openReference(page);

  // The error table, generated from the declarations, in the document's introduction.
  await expect(page.getByRole("cell", { name: "invalid_cursor", exact: true }).first()).toBeAttached();

  // Search from the keyboard, as a reader used to Stripe's docs would.
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox", { name: "Enter search query" }).fill("changes after a cursor");
  await page.getByRole("listbox", { name: "Reference Search Results" }).getByRole("option").filter({ hasText: "A category's changes after a cursor" }).first().click();
  await expect(page).toHaveURL(/\/changes$/);

  // Request samples: curl, the SDK (TypeScript), Python and Go.
  await page.getByRole("button", { name: /^Change code sample language/ }).first().click();
  const clients = page.getByRole("listbox").last();
  await expect(clients.getByRole("option").first()).toBeVisible();
  const listed = await clients.textContent();
  for (const language of [/curl/i, /@chartkey\/sdk/, /Python/, /Go/]) expect(listed).toMatch(language);
});

test("try it: a pasted sandbox key calls the API from the page and is not stored", async ({ page }) => {
  test.setTimeout(90_000);
  const key = devSandboxKey();
  await openReference(page);
  await page.goto("/docs#platform/tag/platform/GET/app");
  await page.getByRole("button", { name: "Test Request (get /app)" }).click();
  const client = page.getByRole("dialog").last();
  // The bearer field is a masked <input>, or Scalar's contenteditable code input once unmasked.
  await client.getByPlaceholder("Token", { exact: true }).or(client.locator('[data-placeholder="Token"]')).first().fill(key);
  const answered = page.waitForResponse((response) => response.url().endsWith("/api/v1/app"));
  await client.getByRole("button", { name: /^Send/i }).first().click();
  const response = await answered;
  expect(response.status()).toBe(200);
  const { id } = (await response.json()) as { id: string };
  await expect(client.getByText(id).first()).toBeVisible();
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  expect(stored).not.toContain(key);
});

for (const width of [390, 1280]) {
  test(`the reference is accessible and fits ${width}px, with a dark mode`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    await openReference(page);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `/docs at ${width}px`);
    await keepScreenshot(page, testInfo, `docs-reference-${width}`);
  });
}

test("the reference switches to dark mode", async ({ page }) => {
  test.setTimeout(60_000);
  await openReference(page);
  await page.getByRole("button", { name: "Set dark mode" }).click();
  await expect(page.getByRole("button", { name: "Set light mode" })).toBeVisible();
  await expect(page.locator("body")).toHaveClass(/dark-mode/);
  await expectAccessible(page, "/docs in dark mode");
});

test("the home page links to the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: /Keyless demo API/ })).toHaveAttribute("href", "/demo/v1");
  await expect(page.getByRole("link", { name: /Dashboard/ })).toHaveAttribute("href", "/dashboard");
  await page.getByRole("link", { name: /API reference/ }).click();
  // Scalar puts the document it shows in the fragment.
  await expect(page).toHaveURL(/\/docs(#platform)?$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
});

const GUIDES = [
  ["quickstart", "Quickstart", "npm run dev:key"],
  ["connect", "Connect", "createConnectSession"],
  ["records", "Records and the change feed", "syncCategory"],
  ["webhooks", "Webhooks", "verifyWebhook"],
  ["sandbox", "Sandbox scenarios", "records.advance"],
  ["tefca", "TEFCA", "/tefca/sessions"],
  ["agents-and-mcp", "Agents and MCP", "/api/v1/agent-credentials"],
  ["going-live", "Going live", "production_not_enabled"],
] as const;

test("every guide is reachable from the reference, accessible and fits a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 900 });
  await openReference(page);
  await page.getByRole("navigation", { name: "Guides" }).getByRole("link", { name: "Quickstart" }).click();
  await expect(page).toHaveURL(/\/docs\/guides\/quickstart$/, { timeout: 15_000 });
  for (const [slug, title, mentions] of GUIDES) {
    await page.goto(`/docs/guides/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(mentions);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `/docs/guides/${slug} at 390px`);
  }
});

for (const width of [390, 1280]) {
  test(`the agents guide explains agent credentials and the two MCP servers, with copyable configurations and the tools (${width}px)`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/docs/guides/agents-and-mcp");
    const agents = page.locator("section#agent-credentials");
    await expect(agents.getByRole("heading", { name: "Agent credentials" })).toBeVisible();
    await expect(agents).toContainText("/api/v1/agent-credentials");
    await expect(agents).toContainText("-X DELETE");
    await expect(agents.getByRole("table", { name: "What a delegated credential is answered" })).toContainText("authority_changed");

    const mcp = page.locator("section#mcp");
    const origin = new URL(page.url()).origin;
    await expect(mcp).toContainText(`${origin}/api/v1/mcp`);
    await expect(mcp).toContainText(`${origin}/demo/v1/mcp`);
    await expect(mcp.getByRole("button", { name: /Copy/ })).toHaveCount(2);
    const platformTools = mcp.getByRole("table", { name: "Tools of the authenticated MCP server" });
    await expect(platformTools.getByRole("row")).toHaveCount(15);
    await expect(platformTools.getByRole("row").filter({ hasText: "get_health_record" })).toContainText("GET /users/{subject}/records");
    await expect(mcp.getByRole("table", { name: "Tools of the demo MCP server" }).getByRole("row").filter({ hasText: "search_fhir" })).toContainText("GET /fhir/{resourceType}");
    await expectAccessible(page, `agents guide at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, `docs-agents-mcp-${width}`);
  });
}
