import { expect, test } from "@playwright/test";
import { expectAccessible, keepScreenshot } from "./dashboard-helpers";

test("the API reference shows a platform operation and a demo operation", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const platform = page.locator("section#platform");
  await expect(platform.getByRole("heading", { name: "Chartkey API" })).toBeVisible();
  await expect(platform.locator("article#platform-getApp")).toContainText("Resolve the application and environment of the calling key");
  await expect(platform.locator("article#platform-getApp")).toContainText("missing_api_key");

  const demo = page.locator("section#demo");
  await expect(demo.getByRole("heading", { name: "Chartkey demo API" })).toBeVisible();
  const records = demo.locator("article#demo-getDemoHealthRecord");
  await expect(records).toContainText("/users/{subject}/records");
  await expect(records).toContainText("consent_scope_exceeded");
});

test("the home page links to the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: /Keyless demo API/ })).toHaveAttribute("href", "/demo/v1");
  await expect(page.getByRole("link", { name: /Dashboard/ })).toHaveAttribute("href", "/dashboard");
  await page.getByRole("link", { name: /API reference/ }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
});

for (const width of [390, 1280]) {
  test(`the docs explain agent credentials and the two MCP servers, with copyable configurations and the tools (${width}px)`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/docs");
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
    // The generated API reference below is long; these two sections are what this test adds.
    await expectAccessible(page, `docs at ${width}px`, ["section#agent-credentials", "section#mcp", "nav[aria-label=Documents]"]);
    // These sections fit the width (their wide tables scroll inside their own regions); the generated reference
    // below them is checked elsewhere.
    for (const section of [agents, mcp]) {
      const fits = await section.evaluate((element) => element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().right <= window.innerWidth);
      expect(fits).toBe(true);
    }
    await keepScreenshot(page, testInfo, `docs-agents-mcp-${width}`);
  });
}
