// Journey: an admin opens a prospect's chat from its card, uses a chip, sees a streamed reply and shares the link;
// a signed-out visitor chats on a phone and leaves contact details; the admin reads that conversation; the AI fails and the fallback answers.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { adminSession, createPlumberReport, signIn, signedInPage } from "./accounts";
import { baseUrl, newPage, shot, useBrowser } from "./browser";

const browser = useBrowser();

const FALLBACK_NOTICE = "Using local AI fallback due to API service interruption";

/** Sends a message with Enter and waits for the streamed reply to finish (the composer is enabled again). */
async function sendAndWait(page: Page, text: string) {
  const input = page.getByLabel("Message", { exact: true });
  await input.fill(text);
  const response = page.waitForResponse((r) => r.url().includes("/messages") && r.request().method() === "POST");
  await input.press("Enter");
  const res = await response;
  await page.waitForFunction(() => !(document.getElementById("chat-input") as HTMLTextAreaElement | null)?.disabled);
  return res;
}

/** The screen at 1280 and 375 px wide (SHOTS_DIR), back at the width it had. */
async function shotBoth(page: Page, name: string) {
  const before = page.viewportSize()!;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
    // Let the sidebar drawer finish its transition: this is a picture, not an assertion.
    // Only for a picture (SHOTS_DIR): without one there is nothing to wait for.
    if (process.env.SHOTS_DIR) await page.waitForTimeout(350);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize(before);
}

async function lastReply(page: Page) {
  return (await page.getByTestId("chat-assistant").last().textContent()) ?? "";
}

describe("prospect chat", () => {
  it("admin chat from a card → chip → streamed reply → share; visitor chats on a phone and becomes a lead; admin reads it", async () => {
    const { email, token } = await adminSession();
    const { name, reportId } = await createPlumberReport(token, { phone: "(407) 555-0142", description: "Emergency plumbing and water heaters", area: "Orlando, FL", keyword: "plumber orlando", generate: false });

    const { context, page } = await newPage(browser());
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await signIn(page, email);

    // From the prospect card.
    await page.goto("/admin/report-generator");
    await page.getByLabel("Search prospects").fill(name);
    const card = page.locator("article.prospect-card", { hasText: name });
    await card.getByRole("link", { name: "AI Chat" }).click();
    await page.waitForURL(`**/admin/prospect-chat/${reportId}`);
    await page.getByRole("heading", { level: 1, name }).waitFor();
    expect(await page.getByText("Orlando, FL").first().isVisible()).toBe(true);
    await shotBoth(page, "chat-admin-empty");

    // The system prompt shows and hides.
    await page.getByRole("button", { name: "Show system prompt" }).click();
    expect(await page.locator(".chat-prompt pre").textContent()).toContain(name);
    await page.getByRole("button", { name: "Hide system prompt" }).click();

    // A chip fills the input; Send is disabled while blank.
    const send = page.getByRole("button", { name: "Send message" });
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "What type of plumbing issue are you dealing with?" }).click();
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe("What type of plumbing issue are you dealing with?");
    const replyResponse = page.waitForResponse((r) => r.url().endsWith("/messages"));
    await send.click();
    const res = await replyResponse;
    expect(res.headers()["content-type"]).toContain("text/event-stream");
    await page.getByText('Thanks for asking "What type of plumbing issue are you dealing with?"').waitFor();
    await shotBoth(page, "chat-admin-mid");

    // Share copies the public link.
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByText("Link copied to clipboard!").waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${baseUrl()}/shared/chat/${reportId}`);

    // Reset: back to the greeting only.
    await page.getByRole("button", { name: "Reset" }).click();
    expect(await page.getByTestId("chat-user").count()).toBe(0);
    expect(await page.getByTestId("chat-assistant").count()).toBe(1);

    // A signed-out visitor on a phone.
    const visitor = await newPage(browser(), 375);
    await visitor.page.goto(link);
    await visitor.page.getByRole("heading", { level: 1, name }).waitFor();
    expect(await visitor.page.getByText("Orlando, FL", { exact: true }).count()).toBe(0);
    await shotBoth(visitor.page, "chat-shared-empty");
    // Voice on: the finished reply is spoken through /api/tts, sentence by sentence, each signed by the server.
    await visitor.page.getByRole("button", { name: "Voice off" }).click();
    const tts = visitor.page.waitForResponse((r) => r.url().endsWith("/api/tts"));
    await sendAndWait(visitor.page, "Do you fix water heaters?");
    expect((await tts).status()).toBe(200);
    await visitor.page.getByRole("button", { name: "Voice on" }).click();
    expect(await lastReply(visitor.page)).toContain('Thanks for asking "Do you fix water heaters?"');
    await sendAndWait(visitor.page, "How soon could someone come?");
    await sendAndWait(visitor.page, "Do you offer a warranty?");
    expect(await lastReply(visitor.page)).toContain("could you share your name and the best phone number or email");
    await sendAndWait(visitor.page, "Sure, I'm Dana Reyes, 407-555-0188");
    await shotBoth(visitor.page, "chat-shared-mid");

    // The AI fails: the fallback notice appears and the chat still answers.
    await sendAndWait(visitor.page, "How much does a new water heater cost? [fake:500]");
    await visitor.page.getByText(FALLBACK_NOTICE).waitFor();
    expect(await lastReply(visitor.page)).toContain("15% off their first service");
    await shotBoth(visitor.page, "chat-shared-fallback");
    await visitor.context.close();

    // The admin sees that conversation, the lead on top.
    await page.getByRole("button", { name: "Conversations" }).click();
    const convo = page.locator(".chat-convo", { hasText: "Do you fix water heaters?" });
    await convo.locator("summary").click();
    const lead = convo.getByLabel("Lead");
    await lead.getByText("Dana Reyes").waitFor();
    expect(await lead.getByText("407-555-0188").isVisible()).toBe(true);
    await shotBoth(page, "chat-admin-conversations");

    // The admin's AI fails too: notice and fallback.
    await page.getByRole("button", { name: "Conversations" }).click();
    await sendAndWait(page, "Can you come tomorrow? [fake:500]");
    await page.getByText(FALLBACK_NOTICE).waitFor();
    expect(await lastReply(page)).toContain("100% satisfaction guarantee");
    await shotBoth(page, "chat-admin-fallback");
    await context.close();
  });

  it("shows the load errors: 'Invalid chat ID' with Back to Reports for the admin; the removed-link text for visitors", async () => {
    const { email } = await adminSession();
    const { page, context } = await signedInPage(browser(), email);
    await page.goto("/admin/prospect-chat/not-a-report");
    await page.getByRole("heading", { name: "Invalid chat ID" }).waitFor();
    await shotBoth(page, "chat-admin-error");
    await page.getByRole("link", { name: "Back to Reports" }).click();
    await page.waitForURL("**/admin/report-generator");
    await context.close();

    const visitor = await newPage(browser(), 375);
    await visitor.page.goto(`/shared/chat/${crypto.randomUUID()}`);
    await visitor.page.getByRole("heading", { name: "Chat not found" }).waitFor();
    expect(await visitor.page.getByText("This chat may have been removed or the link is invalid.").isVisible()).toBe(true);
    await shotBoth(visitor.page, "chat-shared-error");
    await visitor.page.goto("/shared/chat/bad-link");
    await visitor.page.getByRole("heading", { name: "Invalid chat link" }).waitFor();
    await visitor.context.close();
  });
});
