// Journey (issue 28): a business connects the fake Google Business Profile, opens Reviews, checks now, sees its
// reviews with replies drafted in its voice, edits a draft and publishes it to Google; without Google connected the
// page says what to do.
import { describe, expect, inject, it } from "vitest";
import { newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { signedInPage, signedUpPage } from "./accounts";
import { deliveredLink } from "./dev-server";

const browser = useBrowser();

describe("Reviews", () => {
  it("connect Google → the inbox fills → edit a drafted reply → Publish → Google has it", async () => {
    const email = uniqueEmail("reviews");
    const { context, page } = await signedUpPage(browser(), email, "10.79.1.1");

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

    const phone = await signedInPage(browser(), email, 375);
    await phone.page.goto("/tools/reviews");
    await phone.page.locator("li.rv-card", { hasText: "Maria Gonzalez" }).waitFor();
    await shot(phone.page, "reviews-inbox-375");
    await phone.context.close();
    await context.close();
  });

  it("ask a customer → the mail's link opens Google's review page on a phone → the click is counted", async () => {
    const email = uniqueEmail("askreviews");
    const { context, page } = await signedUpPage(browser(), email, "10.79.1.2");
    await page.goto("/tools/reviews");
    await page.getByRole("tab", { name: "Ask for reviews" }).click();

    // The listing the link sends customers to, no delay and no quiet hours, so the request goes at once.
    const placeId = "ChIJN1t_tDeuEmsRUsoyG83frY4";
    await page.getByLabel("Send after (minutes)", { exact: true }).fill("0");
    await page.getByLabel("Quiet from", { exact: true }).fill("00:00");
    await page.getByLabel("Until", { exact: true }).fill("00:00");
    await page.getByLabel("Google place ID", { exact: true }).fill(placeId);
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor();
    await page.getByText("0 clicks so far").waitFor();
    // The field-service hook's address (its button then reads "Make a new address (the old one stops working)").
    await page.getByRole("button", { name: "Make the address" }).click();
    await page.getByText("Copy it now: it is shown only once.").waitFor();

    const customer = uniqueEmail("customer");
    await page.getByLabel("Customer name", { exact: true }).fill("Fay Wong");
    await page.getByLabel("Email", { exact: true }).fill(customer);
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByText("Request for Fay Wong scheduled.").waitFor();
    await shot(page, "review-requests-1280");
    // The Print button's view: the QR card alone (print stylesheet).
    await page.emulateMedia({ media: "print" });
    await shot(page, "review-qr-print");
    await page.emulateMedia({ media: "screen" });

    // The customer opens the mail's link on a phone. Every customer gets the same Google page (no rating question
    // first); the redirect is answered here so the browser never leaves loopback.
    const mailed = await deliveredLink(inject("mailUrl"), customer, "How did we do, Fay?");
    expect(mailed).toMatch(/\/r\/[^/?]+\?r=/);
    // Mail links carry APP_ORIGIN (local development's http://localhost:8787); this run's server has its own port.
    const link = mailed.replace(/^https?:\/\/[^/]+/, inject("baseUrl"));
    const phone = await newPage(browser(), 375);
    let location: string | null = null;
    await phone.context.route("**/r/**", async (route) => {
      const res = await route.fetch({ maxRedirects: 0 });
      location = res.headers()["location"] ?? null;
      await route.fulfill({ status: 200, contentType: "text/html", body: `<h1>Google review page</h1><p>${location}</p>` });
    });
    await phone.page.goto(link);
    await phone.page.getByRole("heading", { name: "Google review page" }).waitFor();
    expect(location).toBe(`https://search.google.com/local/writereview?placeid=${placeId}`);
    await phone.context.close();

    // The owner sees the click counted and the request opened, on a phone too.
    await page.reload();
    await page.getByRole("tab", { name: "Ask for reviews" }).click();
    await page.getByText("1 click so far").waitFor();
    const row = page.locator("tr", { hasText: "Fay Wong" });
    await row.getByText("Opened", { exact: true }).waitFor();
    const owner = await signedInPage(browser(), email, 375);
    await owner.page.goto("/tools/reviews");
    await owner.page.getByRole("tab", { name: "Ask for reviews" }).click();
    await owner.page.getByText("1 click so far").waitFor();
    await owner.page.locator("tr", { hasText: "Fay Wong" }).getByText("Opened", { exact: true }).waitFor();
    await owner.page.getByAltText("QR code of your review link").waitFor();
    // Nothing is wider than the phone's screen: the page does not scroll sideways (issue 39: it was 405 px wide).
    expect(await owner.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(owner.page, "review-requests-375");
    await owner.context.close();
    await context.close();
  });
});
