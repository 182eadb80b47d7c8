import { test as base, expect, type Page } from "@playwright/test";
import { devSandboxKey } from "@/test/e2e-platform";
import { expectAccessible, expectNoHorizontalOverflow, keepScreenshot } from "./dashboard-helpers";

// Every test here also proves the docs run under the enforced page CSP and fetch only from this deployment: Scalar
// is bundled, not loaded from a CDN, and sends no fonts, telemetry or proxied requests anywhere else.
const test = base.extend<{ sameOriginUnderCsp: void }>({
  sameOriginUnderCsp: [
    async ({ page, baseURL }, use) => {
      const origin = new URL(baseURL!).origin;
      const elsewhere: string[] = [];
      const violations: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== origin) elsewhere.push(request.url());
      });
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`));
      });
      await use();
      expect({ elsewhere, violations }).toEqual({ elsewhere: [], violations: [] });
    },
    { auto: true },
  ],
});

/** The samples each operation offers, in order (lib/openapi/reference-document.ts). */
const SAMPLES = ["@chartkey/sdk", "curl", "Python (requests)", "Go (net/http)"];

/** The reference once Scalar has loaded the keyed API's document. */
async function openReference(page: Page) {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // Scalar is a large bundle: on a loaded 2-core machine it renders some seconds after the page.
  await expect(page.getByRole("heading", { level: 1, name: "Chartkey API" })).toBeVisible({ timeout: 45_000 });
}

test("the reference finds an operation by search, shows its samples in four languages, the error codes and both documents", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openReference(page);

  // The error table, generated from the declarations, in the document's introduction.
  await expect(page.getByRole("cell", { name: "invalid_cursor", exact: true }).first()).toBeAttached();

  // Search from the keyboard, as a reader used to Stripe's docs would.
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox", { name: "Enter search query" }).fill("changes after a cursor");
  await page.getByRole("listbox", { name: "Reference Search Results" }).getByRole("option").filter({ hasText: "A category's changes after a cursor" }).first().click();
  await expect(page).toHaveURL(/#platform\/tag\/records\/GET\/users\/.*\/changes$/);
  const operation = page.locator('section[id="platform/tag/records/GET/users/{subject}/records/{category}/changes"]');

  // Request samples: the SDK first and shown by default, then curl, Python and Go, and nothing else.
  await expect(operation.locator("pre").first()).toContainText('import { Chartkey } from "@chartkey/sdk";');
  await expect(operation.locator("pre").first()).toContainText("chartkey.syncCategory(");
  // The introduction's language tabs start with the SDK, selected.
  await expect(page.getByRole("tab").filter({ hasText: /typescript/i }).first()).toHaveAttribute("aria-selected", "true");
  await operation.getByRole("button", { name: /^Change code sample language/ }).first().click();
  const clients = page.getByRole("listbox").last();
  await expect(clients.getByRole("option")).toHaveText(SAMPLES);
  await clients.getByRole("option", { name: "Go (net/http)", exact: true }).click();
  await expect(operation.locator("pre").first()).toContainText('http.NewRequest("GET", "http://localhost:3000/api/v1/users/');
  // Picking a language there picks it in the introduction too.
  await expect(page.getByRole("tab").filter({ hasText: /typescript/i }).first()).toHaveAttribute("aria-selected", "false");

  // The keyless demo API's document, with its own error table.
  await page.getByRole("button", { name: "Chartkey API (/api/v1)" }).click();
  await page.getByRole("option", { name: "Demo API (/demo/v1, keyless)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Chartkey demo API" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("cell", { name: "consent_scope_exceeded", exact: true }).first()).toBeAttached();
});

// With an operation open and the Try it client open, on a phone and on a laptop: nothing wider than the window, no
// serious or critical axe violation (Scalar's client had aria-required-attr and aria-prohibited-attr ones), and the
// error table's Status header on one line.
for (const width of [390, 1280]) {
  test(`an operation and its Try it client are accessible and fit ${width}px`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/docs");
    await expect(page.getByRole("heading", { level: 1, name: "Chartkey API" })).toBeVisible({ timeout: 45_000 });
    await expectNoHorizontalOverflow(page);
    // Opened from the reference, as a reader following a link would.
    await page.goto("/docs#platform/tag/records/GET/users/{subject}/records/{category}/changes");
    const status = page.getByRole("columnheader", { name: "Status", exact: true }).first();
    await expect(status).toBeAttached();
    expect(await status.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }), "lines of the Status header").toBe(1);
    const operation = page.locator('section[id="platform/tag/records/GET/users/{subject}/records/{category}/changes"]');
    await expect(operation.locator("pre").first()).toContainText("chartkey.syncCategory(", { timeout: 20_000 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `/docs with an operation open at ${width}px`);
    await operation.getByRole("button", { name: /^Test Request/ }).first().click();
    const client = page.getByRole("dialog").last();
    await expect(client.getByRole("button", { name: /^Send/i }).first()).toBeVisible({ timeout: 20_000 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `/docs with Try it open at ${width}px`);
  });
}

test("try it: a pasted sandbox key calls the API from the page and is not stored", async ({ page }) => {
  test.setTimeout(90_000);
  const key = devSandboxKey();
  await page.goto("/docs#platform/tag/platform/GET/app");
  await expect(page.getByRole("heading", { level: 1, name: "Chartkey API" })).toBeVisible({ timeout: 45_000 });
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
  // Nothing the page can keep holds the key: web storage, cookies, IndexedDB.
  const stored = await page.evaluate(async () => {
    const kept = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage }), document.cookie];
    for (const { name } of await indexedDB.databases()) {
      const database = await new Promise<IDBDatabase>((resolve, reject) => Object.assign(indexedDB.open(name!), { onsuccess: (event: Event) => resolve((event.target as IDBOpenDBRequest).result), onerror: reject }));
      for (const store of database.objectStoreNames) {
        kept.push(JSON.stringify(await new Promise((resolve) => Object.assign(database.transaction(store).objectStore(store).getAll(), { onsuccess: (event: Event) => resolve((event.target as IDBRequest).result) }))));
      }
    }
    return kept.join("\n");
  });
  expect(stored).not.toContain(key);
});

// No full-page screenshots here: Scalar's page is many screens tall, and capturing it outlasts the checks. Both widths
// in one test: Scalar's bundle is loaded and rendered once, then the page is resized as a reader's window would be.
test("the reference is accessible at 1280px in light and dark mode, and fits 1280px and 390px", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openReference(page);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page, "/docs at 1280px");
  await page.getByRole("button", { name: "Set dark mode" }).click();
  await expect(page.getByRole("button", { name: "Set light mode" })).toBeVisible();
  await expect(page.locator("body")).toHaveClass(/dark-mode/);
  await expectAccessible(page, "/docs in dark mode");
  await page.getByRole("button", { name: "Set light mode" }).click();
  await expect(page.locator("body")).not.toHaveClass(/dark-mode/);

  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page, "/docs at 390px");
});

test("the operations are listed, linked, at first paint, before Scalar has loaded", async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  // In the server's HTML: no script is needed to list them.
  const html = await (await request.get("/docs")).text();
  expect(html).toContain('href="#platform/tag/records/GET/users/{subject}/records/{category}/changes"');
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/docs", { waitUntil: "commit" });
  const outline = page.getByRole("navigation", { name: /^Operations/ });
  const link = outline.getByRole("link", { name: /A category's changes after a cursor/ });
  await expect(link).toBeVisible({ timeout: 2_000 });
  // From the start of the navigation to the outline link being visible, as this machine measured it.
  const visibleAfter = Math.round(await page.evaluate(() => performance.now()));
  testInfo.annotations.push({ type: "outline visible after (ms)", description: String(visibleAfter) });
  console.log(`/docs outline link visible ${visibleAfter} ms after navigation start`);
  await expect(outline.getByRole("heading", { level: 3 })).toHaveText(["Platform", "Connect", "Records", "Sandbox", "FHIR", "MCP", "TEFCA", "Conformance"]);
  await expectNoHorizontalOverflow(page);
  // Each link is its operation's anchor in Scalar's reference; once Scalar has rendered, its navigation takes the
  // outline's place. The anchors are read from the server's HTML: on a busy machine Scalar can have replaced the
  // outline by the time they would be read from the page.
  const anchors = [...html.matchAll(/href="#([^"]+)"/g)].map((match) => decodeURIComponent(match[1]!.replaceAll("&amp;", "&")));
  expect(anchors).toContain("platform/tag/records/GET/users/{subject}/records/{category}/changes");
  await expect(page.getByRole("heading", { level: 1, name: "Chartkey API" })).toBeVisible({ timeout: 45_000 });
  await expect(outline).toBeHidden();
  // Scalar renders the operations of its first tag at once and the others when their tag opens or their anchor is
  // followed.
  const first = anchors.filter((anchor) => anchor.startsWith("platform/tag/platform/"));
  expect(first.length).toBeGreaterThan(2);
  expect(await page.evaluate((ids) => ids.filter((id) => !document.getElementById(id)), first), "outline anchors Scalar does not render").toEqual([]);
  const later = anchors.find((anchor) => anchor.startsWith("platform/tag/connect/POST/connect/sessions"))!;
  await page.goto(`/docs#${later}`);
  await expect(page.locator(`[id="${later}"]`)).toBeAttached({ timeout: 20_000 });
});

test("the home page links to the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: /Keyless demo API/ })).toHaveAttribute("href", "/demo");
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
  ["fhir", "FHIR R4", "$everything"],
  ["webhooks", "Webhooks", "verifyWebhook"],
  ["sandbox", "Sandbox scenarios", "records.advance"],
  ["tefca", "TEFCA", "/tefca/sessions"],
  ["agents-and-mcp", "Agents and MCP", "/api/v1/agent-credentials"],
  ["going-live", "Going live", "production_not_enabled"],
] as const;

test("the reference's header links every guide", async ({ page }) => {
  await page.goto("/docs");
  const guides = page.getByRole("navigation", { name: "Guides" });
  await expect(guides.getByRole("link")).toHaveText(GUIDES.map(([, title]) => title));
  // They work before the reference below them has loaded.
  await guides.getByRole("link", { name: "Quickstart" }).click();
  await expect(page).toHaveURL(/\/docs\/guides\/quickstart$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Quickstart" })).toBeVisible();
});

// The agents guide is checked at both widths by its own tests below.
// One page walks every guide, a step each (a failure names its guide).
test("every guide is accessible and fits a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 900 });
  for (const [slug, title, mentions] of GUIDES.filter(([slug]) => slug !== "agents-and-mcp")) {
    await test.step(`the ${slug} guide`, async () => {
      await page.goto(`/docs/guides/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole("main")).toContainText(mentions);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page, `/docs/guides/${slug} at 390px`);
    });
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
    // The spec's fourteen tools, search_fhir (the FHIR search), and the header row.
    await expect(platformTools.getByRole("row")).toHaveCount(16);
    await expect(platformTools.getByRole("row").filter({ hasText: "get_health_record" })).toContainText("GET /users/{subject}/records");
    await expect(mcp.getByRole("table", { name: "Tools of the demo MCP server" }).getByRole("row").filter({ hasText: "search_fhir" })).toContainText("GET /fhir/{resourceType}");
    await expectAccessible(page, `agents guide at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, `docs-agents-mcp-${width}`);
  });
}
