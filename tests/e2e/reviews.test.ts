// Journey (issue 28): a business connects the fake Google Business Profile, opens Reviews, checks now, sees its
// reviews with replies drafted in its voice, edits a draft and publishes it to Google; without Google connected the
// page says what to do.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launch, newPage, shot, uniqueEmail } from "./browser";
import { signIn, signUpAndIn } from "./accounts";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("Reviews", () => {
  it("connect Google → the inbox fills → edit a drafted reply → Publish → Google has it", async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail("reviews");
    await signUpAndIn(page, email, "10.79.1.1");

    // Not connected yet: the inbox says what to do, in the customer's words.
    await page.goto("/tools/reviews");
    await page.getByRole("heading", { level: 1, name: "Reviews" }).waitFor();
    await page.getByRole("heading", { name: "Connect Google to see your reviews" }).waitFor();
    await shot(page, "reviews-not-connected-1280");
    await page.getByRole("link", { name: "Connect Google" }).click();
    await page.waitForURL("**/integrations");

    await page.getByRole("button", { name: "Connect Google Business Profile" }).click();
    await page.getByRole("link", { name: "Continue as owner@example.com" }).click();
    await page.waitForURL("**/integrations?step=locations");
    await page.getByRole("group", { name: "Which locations should Porchlight post to?" }).getByText("Ridge Roofing — Austin").click();
    await page.getByRole("button", { name: "Save locations" }).click();
    await page.getByText("Connected", { exact: true }).waitFor();

    // The sidebar's Reputation group leads to the inbox.
    await page.getByRole("button", { name: "Reputation" }).click();
    await page.getByRole("link", { name: "Reviews" }).click();
    await page.waitForURL("**/tools/reviews");
    await page.getByRole("button", { name: "Check now" }).click();
    const maria = page.locator("li.rv-card", { hasText: "Maria Gonzalez" });
    await maria.waitFor({ timeout: 45_000 });
    await page.locator("li.rv-card", { hasText: "Tom Becker" }).waitFor();
    await maria.getByText("Drafted reply (AI, in your voice)").waitFor();
    await shot(page, "reviews-inbox-1280");

    const reply = `Thank you, Maria! We're glad the roof repair went well. — Dana, Ridge Roofing ${Date.now().toString(36)}`;
    await maria.getByRole("textbox").fill(reply);
    await maria.getByRole("button", { name: "Publish" }).click();
    await maria.getByText("Replied", { exact: true }).waitFor({ timeout: 45_000 });
    await maria.getByText(reply).waitFor();
    const google = (await (await fetch(`${inject("googleUrl")}/__reviews`)).json()) as { reviews: { reviewId: string; reviewReply?: { comment: string } }[] };
    expect(google.reviews.find((r) => r.reviewId === "AbFvOqm1")?.reviewReply?.comment).toBe(reply);

    // Filters: the 1–3 star review alone.
    await page.getByRole("button", { name: /^1–3 stars/ }).click();
    await page.locator("li.rv-card", { hasText: "Tom Becker" }).waitFor();
    expect(await page.locator("li.rv-card").count()).toBe(1);
    await shot(page, "reviews-low-1280");

    const phone = await newPage(browser, 375);
    await signIn(phone.page, email);
    await phone.page.goto("/tools/reviews");
    await phone.page.locator("li.rv-card", { hasText: "Maria Gonzalez" }).waitFor();
    await shot(phone.page, "reviews-inbox-375");
    await phone.context.close();
    await context.close();
  });
});
