// Journey: a business fills its profile and uploads a logo (still there after a reload), generates a Facebook post
// against the fake AI, edits and copies it, and the usage panel then shows that call with its tokens and cost.
import { crc32, deflateSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { signUpAndIn } from "./accounts";

const browser = useBrowser();

/** A real 96x96 PNG (an amber house on slate), so the browser can draw the stored logo. */
function logoPng(): Buffer {
  const size = 96;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const roof = y >= 18 && y < 48 && Math.abs(x - 48) <= y - 18;
      const walls = y >= 48 && y < 80 && x >= 24 && x < 72;
      const [r, g, b] = roof || walls ? [242, 161, 32] : [27, 36, 51];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function logoLoaded(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 96);
}

/** The same signed-in session in a phone-sized window, for the 375 px screenshots. */
async function phone(context: BrowserContext) {
  const state = await context.storageState();
  const mobile = await browser().newContext({ baseURL: baseUrl(), viewport: { width: 375, height: 812 }, storageState: state });
  return { mobile, page: await mobile.newPage() };
}

describe("Business Settings, the post generator and AI usage", () => {
  it("profile + logo survive a reload; a post is generated, edited and copied; the usage panel shows the call", async () => {
    const email = uniqueEmail("owner");
    const { context, page } = await newPage(browser());
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await signUpAndIn(page, email);

    // ---- Business Settings: fill the profile, upload the logo.
    await page.goto("/settings/personal");
    await page.getByRole("heading", { name: "Business Settings" }).waitFor();
    await page.getByText("No AI usage yet").waitFor();
    await page.getByLabel("Company Name").fill("Lakeside Plumbing");
    await page.getByLabel("Website").fill("lakesideplumbing.com");
    await page.getByLabel("Phone").fill("(608) 555-0199");
    await page.getByLabel("Location").fill("Madison, WI");
    await page.getByLabel("Email").last().fill("hello@lakesideplumbing.com");
    await page.getByLabel("Category").selectOption("Plumbing");
    await page.getByLabel("Description").fill("Family plumbers fixing leaks, water heaters and drains since 2004.");
    await page.getByRole("button", { name: "Save Company Profile" }).click();
    await page.getByText("Business profile updated successfully").waitFor();

    await page.locator('input[type="file"]').setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng() });
    await page.locator('img.logo-preview[src^="/api/files/logos/"]').waitFor();
    await shot(page, "settings-1280");

    await page.reload();
    await page.getByRole("heading", { name: "Business Settings" }).waitFor();
    expect(await page.getByLabel("Company Name").inputValue()).toBe("Lakeside Plumbing");
    expect(await page.getByLabel("Website").inputValue()).toBe("https://lakesideplumbing.com");
    expect(await page.getByLabel("Category").inputValue()).toBe("Plumbing");
    await page.locator('img.logo-preview[src^="/api/files/logos/"]').waitFor();
    await expect.poll(() => logoLoaded(page, "img.logo-preview")).toBe(true);
    // The sidebar shows the logo too.
    await expect.poll(() => logoLoaded(page, "aside img.avatar")).toBe(true);

    // ---- The generator: empty state, generating, preview, edit, copy.
    await page.goto("/tools/facebook-post-generator");
    await page.getByRole("heading", { name: "No Post Generated Yet" }).waitFor();
    await page.getByText("Lakeside Plumbing").first().waitFor();
    await shot(page, "generator-empty-1280");

    await page.getByRole("radio", { name: /Educational/ }).click();
    await page.getByRole("button", { name: "Advanced Options" }).click();
    await page.getByLabel("Tone").selectOption("casual");
    await page.getByLabel("Length").selectOption("short");
    await page.getByLabel("What should the post be about?").fill("How to keep pipes from freezing this winter");

    // Hold the answer a moment so the skeleton can be seen (and photographed).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/posts/facebook", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Generate Facebook Post" }).click();
    await page.getByRole("status", { name: "Generating your post" }).waitFor();
    await shot(page, "generator-generating-1280");
    release();

    const preview = page.getByRole("article", { name: "Facebook post preview" });
    await preview.waitFor();
    await page.unroute("**/api/posts/facebook");
    const title = (await preview.locator(".post-title").textContent())!.trim();
    expect(title).toContain("Lakeside Plumbing");
    expect(await preview.getByText("24 likes").isVisible()).toBe(true);
    expect(await preview.getByText("5 comments").isVisible()).toBe(true);
    expect(await preview.getByText("2 shares").isVisible()).toBe(true);
    expect(await preview.locator("img.post-avatar").count()).toBe(1);
    await shot(page, "generator-preview-desktop-1280");

    await page.getByRole("button", { name: "Mobile" }).click();
    expect(Math.round((await preview.boundingBox())!.width)).toBe(375);
    await shot(page, "generator-preview-mobile-1280");
    await page.getByRole("button", { name: "Desktop" }).click();

    await page.getByRole("button", { name: "Edit Post" }).click();
    const draft = page.getByLabel("Post content");
    await draft.fill("Cold snap coming! Let a faucet drip overnight and open the cabinet doors under your sinks.");
    await shot(page, "generator-edit-1280");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await preview.getByText("Cold snap coming!").waitFor();

    await page.getByRole("button", { name: "Copy Title" }).click();
    await page.getByRole("button", { name: "Title Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(title);
    await page.getByRole("button", { name: "Copy Full Post" }).click();
    await page.getByRole("button", { name: "Full Post Copied" }).waitFor();
    const full = await page.evaluate(() => navigator.clipboard.readText());
    expect(full.startsWith(`${title}\n\nCold snap coming!`)).toBe(true);

    // Kept: the recent list has it, and a reload reopens the edited text.
    await page.reload();
    await page.getByRole("button", { name: `Open ${title}` }).click();
    await preview.getByText("Cold snap coming!").waitFor();

    // ---- The usage panel shows the call (logged through the usage-events queue, so it may take a few seconds).
    await page.goto("/settings/personal");
    const toolRow = page.locator(".usage-table tr", { hasText: "Facebook Post Generator" }).first();
    await expect
      .poll(
        async () => {
          if (await toolRow.isVisible().catch(() => false)) return true;
          await page.reload();
          await page.getByText("Loading your AI usage statistics...").waitFor({ state: "detached" });
          return toolRow.isVisible();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    const cells = await toolRow.locator("td").allTextContents();
    expect(cells[0]).toBe("Facebook Post Generator");
    expect(cells[1]).toBe("1");
    expect(Number(cells[2]!.replace(/,/g, ""))).toBeGreaterThan(100);
    // Money in cents (issue 26): a post's few hundred tokens cost less than one.
    expect(cells[3]).toBe("< $0.01");
    expect(await page.getByText("Token usage and costs are estimates and may vary based on the actual API usage.").isVisible()).toBe(true);
    await shot(page, "settings-usage-1280");

    await page.goto("/usage");
    await page.locator(".usage-chart svg").waitFor();
    expect(await page.locator(".usage-chart-bar[height]:not([height=\"0\"])").count()).toBe(1);
    await shot(page, "usage-1280");
    // The Tool column reads alike in both tables: left, like the text it holds.
    const toolAlign = await page
      .locator(".usage-table th")
      .filter({ hasText: /^Tool$/ })
      .evaluateAll((ths) => ths.map((th) => getComputedStyle(th).textAlign));
    expect(toolAlign).toEqual(["left", "left"]);

    // ---- The same screens at 375 px.
    const { mobile, page: small } = await phone(context);
    for (const [path, name, ready] of [
      ["/settings/personal", "settings-375", "Company Profile"],
      ["/tools/facebook-post-generator", "generator-empty-375", "Recent posts"],
      ["/usage", "usage-375", "AI Usage"],
    ] as const) {
      await small.goto(path);
      await small.getByRole("heading", { name: ready }).first().waitFor();
      await small.locator(".spinner").first().waitFor({ state: "detached" }).catch(() => undefined);
      await shot(small, name);
    }
    // The chart's day labels stay readable on a phone (the last page of the loop is /usage).
    const labelPx = await small.locator(".usage-chart-labels").evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(labelPx).toBeGreaterThanOrEqual(11);
    await small.goto("/tools/facebook-post-generator");
    await small.getByRole("button", { name: `Open ${title}` }).click();
    await small.getByRole("article", { name: "Facebook post preview" }).waitFor();
    await shot(small, "generator-preview-375");
    await small.getByRole("button", { name: "Edit Post" }).click();
    await shot(small, "generator-edit-375");
    await mobile.close();
    await context.close();
  });
});
