import { expect, test } from "@playwright/test";
import { expectAccessible } from "./dashboard-helpers";

// The check every page's test relies on (expectAccessible) must itself fail on a page that is not accessible.
test("the accessibility check refuses serious violations, anywhere or only where it is told to look", async ({ page }) => {
  await page.goto("/");
  await expectAccessible(page, "the home page");

  await page.evaluate(() => {
    const faint = Object.assign(document.createElement("p"), { id: "faint", textContent: "Barely legible" });
    faint.style.cssText = "color:#ddd;background:#fff";
    const unnamed = document.createElement("button");
    unnamed.id = "unnamed";
    document.querySelector("main")!.append(faint, unnamed);
  });
  const refusal = await expectAccessible(page, "the altered home page").then(
    () => "passed",
    (error: Error) => error.message,
  );
  expect(refusal).toContain("color-contrast (serious)");
  expect(refusal).toContain("button-name (critical)");
  expect(refusal).toContain("#faint");

  // Told to look at one part only, it judges that part (the same document, axe already loaded in it).
  await expectAccessible(page, "the page's heading", ["h1"]);
  await expect(expectAccessible(page, "the unnamed button", ["#unnamed"])).rejects.toThrow(/button-name/);
});
