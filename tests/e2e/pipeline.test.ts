// Journey (issue 42, the pipeline): an admin imports two prospects, picks one's stage by keyboard, drags the other to
// Engaged and then marks it won, opens its timeline (each move with its cause) and invites it as a client: the invitation is in the outbox.
// The moves events make on their own are the worker tests' (tests/worker/pipeline). Screens at 1280 and 375 px.
import { describe, expect, it } from "vitest";
import { adminSession, signedInPage } from "./accounts";
import { baseUrl, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

describe("the pipeline", () => {
  it("moves prospects on their own and by hand, and invites a won one as a client", { timeout: 120_000 }, async () => {
    const admin = await adminSession();
    const auth = { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" };
    const tag = Date.now().toString(36);
    const names = { open: `Summit Roofing ${tag}`, keyboard: `Canyon Plumbing ${tag}` };
    const email = uniqueEmail("owner");
    // Description, name, area, phone, email (the import's columns).
    const text = [`Roof repair\t${names.open}\tAustin, TX\t(512) 555-0101\t${email}`, `Drain cleaning\t${names.keyboard}\tRound Rock, TX\t(512) 555-0102\t`].join("\n");
    const imported = await fetch(`${baseUrl()}/api/prospects/import`, { method: "POST", headers: auth, body: JSON.stringify({ text }) });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const { context, page } = await signedInPage(browser(), admin.email);
    try {
      await page.goto("/admin/pipeline");
      await page.getByRole("heading", { level: 1, name: "Pipeline" }).waitFor();
      await page.getByLabel("Search prospects").fill(tag);
      const column = (stage: string) => page.getByRole("region", { name: new RegExp(`^${stage}: `) });
      const cardOf = (name: string) => page.getByRole("listitem", { name });
      await cardOf(names.keyboard).waitFor();

      // By keyboard: the stage picked on the card.
      await cardOf(names.keyboard).getByLabel(`Stage of ${names.keyboard}`).selectOption("contacted");
      await column("Contacted").getByRole("listitem", { name: names.keyboard }).waitFor();
      // By dragging: to Engaged (a column in view); then won, picked on the card.
      await cardOf(names.open).dragTo(column("Engaged"), { sourcePosition: { x: 4, y: 4 } });
      await column("Engaged").getByRole("listitem", { name: names.open }).waitFor();
      await cardOf(names.open).getByLabel(`Stage of ${names.open}`).selectOption("won");
      await column("Won").getByRole("listitem", { name: names.open }).waitFor();
      await shot(page, "pipeline-1280");

      // Its timeline, and the invitation.
      await cardOf(names.open).getByRole("button", { name: names.open }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/Moved to Won \(by /).waitFor();
      await dialog.getByRole("button", { name: "Invite as a client" }).click();
      await dialog.getByText(/Invitation sent\./).waitFor();
      await shot(page, "pipeline-invite-1280");
      const outbox = await fetch(`${baseUrl()}/auth/v1/outbox?email=${encodeURIComponent(email.toLowerCase())}`);
      const { messages } = (await outbox.json()) as { messages: { subject: string; body: string }[] };
      expect(messages.some((m) => /account for/.test(m.subject) && m.body.includes("/signup?email="))).toBe(true);
      await dialog.getByRole("button", { name: "Close" }).click();

      await page.getByRole("tab", { name: "List" }).click();
      await page.getByRole("button", { name: names.keyboard }).waitFor();
      await shot(page, "pipeline-list-1280");
      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByRole("tab", { name: "Board" }).click();
      await shot(page, "pipeline-375");
    } finally {
      await context.close();
    }
  });
});
