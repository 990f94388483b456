// Journey (issue 41): an admin with three clients opens Needs Attention and finds, ranked, a lost verification, a
// change Google made to a profile and a 1–3 star review waiting; publishes the drafted reply (Google receives it),
// rejects Google's change (Google receives the owner's value back) and marks the verification item done after the
// steps it gives; each item closes. Clients connect the fake Google through the real OAuth flow; the cron and queues
// of the local worker do the rest.
import { describe, expect, inject, it } from "vitest";
import { adminSession, confirmedAccount, saveProfile, signedInPage } from "./accounts";
import { baseUrl, shot, uniqueEmail, useBrowser } from "./browser";
import { runCron } from "./dev-server";

const browser = useBrowser();
const google = (path: string, init?: RequestInit) => fetch(`${inject("googleUrl")}${path}`, init);

/** Connects a client to the fake Google as a person would (consent as the owner), choosing one location. */
async function connectGoogle(token: string, location: string) {
  const auth = { Authorization: `Bearer ${token}` };
  const start = await fetch(`${baseUrl()}/api/integrations/google/start`, { headers: auth });
  expect(start.status).toBe(200);
  const cookie = (start.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  const consent = await (await fetch(((await start.json()) as { authorizeUrl: string }).authorizeUrl)).text();
  const back = new URL(/data-user="owner" href="([^"]+)"/.exec(consent)![1]!.replace(/&amp;/g, "&"));
  const callback = await fetch(`${baseUrl()}${back.pathname}${back.search}`, { redirect: "manual", headers: { Cookie: cookie } });
  expect(callback.status).toBe(302);
  const chosen = await fetch(`${baseUrl()}/api/integrations/google/locations`, { method: "PUT", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ locations: [location] }) });
  expect(chosen.status, await chosen.clone().text()).toBe(200);
}

async function client(name: string, ip: string, location: string) {
  const email = uniqueEmail("client");
  const account = await confirmedAccount(email, ip);
  await saveProfile(account.token, { company_name: name, company_location: "Austin, TX 78701", company_category: "Roofing" });
  await connectGoogle(account.token, location);
  return { ...account, email };
}

async function until<T>(what: string, read: () => Promise<T | null | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const AUSTIN = "accounts/1001/locations/2001";
const ROUND_ROCK = "accounts/1001/locations/2002";

describe("Needs Attention", () => {
  it("a lost verification, Google's edit and a low review across three clients: each acted on, each closes", { timeout: 150_000 }, async () => {
    const admin = await adminSession();
    const tag = Date.now().toString(36);
    const names = { review: `Summit Roofing ${tag}`, edit: `Ridge Roofing ${tag}`, verify: `Canyon Roofing ${tag}` };

    // A: its Google reviews read (the fixture's 2-star review from Tom Becker waited since November 12).
    const a = await client(names.review, "10.91.0.1", AUSTIN);
    const sync = await fetch(`${baseUrl()}/api/reviews/sync`, { method: "POST", headers: { Authorization: `Bearer ${a.token}` } });
    expect(sync.status).toBe(202);
    await until("A's reviews", async () => {
      const inbox = (await (await fetch(`${baseUrl()}/api/reviews?business=own&filter=all`, { headers: { Authorization: `Bearer ${a.token}` } })).json()) as { counts: { all: number } };
      return inbox.counts.all > 0;
    });
    // B: Google changed its phone number. The night's guard (the cron) checks A's and B's locations.
    await google("/__gbp/locations/2002", { method: "POST", body: JSON.stringify({ google: { phoneNumbers: { primaryPhone: "(512) 555-0177" } }, diffMask: ["phoneNumbers.primaryPhone"] }) });
    const ownerPhone = ((await (await google("/__gbp/locations/2002")).json()) as { location: { owner: { phoneNumbers: { primaryPhone: string } } } }).location.owner.phoneNumbers.primaryPhone;
    const b = await client(names.edit, "10.91.0.2", ROUND_ROCK);
    await runCron(baseUrl());
    const checked = async (token: string) => {
      const guard = (await (await fetch(`${baseUrl()}/api/gbp/guard?business=own`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { locations: { status: string }[] };
      return guard.locations.length > 0 && guard.locations.every((l) => l.status === "checked");
    };
    await until("tonight's checks of A and B", async () => (await checked(a.token)) && (await checked(b.token)));
    // C: connected later the same night, its profile suspended by Google.
    await google("/__gbp/locations/2001", { method: "POST", body: JSON.stringify({ voiceOfMerchant: "suspended" }) });
    const c = await client(names.verify, "10.91.0.3", AUSTIN);
    await runCron(baseUrl());

    const { context, page } = await signedInPage(browser(), admin.email);
    try {
      await page.goto("/admin/attention");
      await page.getByRole("heading", { level: 1, name: "Needs Attention" }).waitFor();
      // A client can have more than one item (C's reviews are read too): each card by its client and kind.
      const card = (client: string, kind?: string) => page.locator(`li.att-card${kind ? `.att-${kind}` : ""}`, { hasText: client });
      // The guard's checks and the review sweep land within a few cron runs.
      await until(
        "the three items",
        async () => {
          await runCron(baseUrl());
          await page.reload();
          await page.getByRole("heading", { level: 1, name: "Needs Attention" }).waitFor();
          return (await card(names.review, "low_review").count()) && (await card(names.edit, "google_updated").count()) && (await card(names.verify, "verification_lost").count());
        },
        60_000,
      );
      // Ranked: the lost verification first, then Google's edit, then the low review.
      const expected = [`${names.verify} verification_lost`, `${names.edit} google_updated`, `${names.review} low_review`];
      const order = await page.locator("li.att-card").evaluateAll((cards) => cards.map((c) => `${c.querySelector(".att-client")?.textContent} ${[...c.classList].find((k) => k.startsWith("att-") && k !== "att-card")?.slice(4)}`));
      expect(order.filter((o) => expected.includes(o))).toEqual(expected);
      await card(names.verify, "verification_lost").locator(".att-title", { hasText: "Google suspended the profile" }).waitFor();
      await shot(page, "attention-1280");

      // The low review: publish its drafted reply; Google receives it and the item closes.
      const review = card(names.review, "low_review");
      await review.getByText("2-star review from Tom Becker unanswered").waitFor();
      const reply = `Tom, we're sorry we missed you. Please call us. ${tag}`;
      await review.getByLabel("Drafted reply").fill(reply);
      await review.getByRole("button", { name: "Publish reply" }).click();
      await review.waitFor({ state: "detached", timeout: 45_000 });
      const reviews = (await (await google("/__reviews")).json()) as { reviews: { reviewer: { displayName: string }; reviewReply?: { comment: string } }[] };
      expect(reviews.reviews.find((r) => r.reviewer.displayName === "Tom Becker")?.reviewReply?.comment).toBe(reply);

      // Google's edit: both values side by side; reject it and Google gets the owner's phone number back.
      const edit = card(names.edit, "google_updated");
      await edit.locator(".guard-sides").getByText("(512) 555-0177").waitFor();
      await edit.locator(".guard-sides").getByText(ownerPhone).waitFor();
      await edit.getByRole("button", { name: "Reject: keep yours" }).click();
      await edit.waitFor({ state: "detached" });
      const patches = (await (await google("/__gbp/patches?location=locations/2002")).json()) as { patches: { updateMask: string[]; body: { phoneNumbers: { primaryPhone: string } } }[] };
      expect(patches.patches.at(-1)).toMatchObject({ updateMask: ["phoneNumbers"], body: { phoneNumbers: { primaryPhone: ownerPhone } } });

      // The lost verification: what to do, then marked done (who and when kept).
      const verify = card(names.verify, "verification_lost");
      await verify.getByText("ask for reinstatement").waitFor();
      await verify.getByRole("button", { name: "Mark done" }).click();
      await verify.waitFor({ state: "detached" });
      await page.getByRole("tab", { name: /^Done/ }).click();
      await card(names.verify, "verification_lost").getByText(/Marked done/).waitFor();
      await card(names.edit, "google_updated").getByText("This item closed itself").waitFor();
      await shot(page, "attention-done-1280");

      // The clients view: the three clients, their health marks from the same events, found by search.
      await runCron(baseUrl());
      await page.goto("/admin/clients");
      await page.getByRole("heading", { level: 1, name: "Clients" }).waitFor();
      await page.getByLabel("Search clients").fill(tag);
      const rowOf = (name: string) => page.locator("tr", { hasText: name });
      await rowOf(names.verify).waitFor();
      await rowOf(names.review).waitFor();
      await rowOf(names.edit).waitFor();
      // Each mark says why on hover; Canyon's reviews (read by the cron) still hold Tom's review unanswered.
      for (const name of Object.values(names)) expect(await rowOf(name).locator(".cl-health").getAttribute("title")).toBeTruthy();
      await rowOf(names.edit).getByText("Connected", { exact: true }).waitFor();
      await shot(page, "clients-1280");

      // Bulk: the three selected, one estimate for all of them, then each client's outcome beside its name.
      await page.getByRole("checkbox", { name: "Select every client on this page" }).check();
      const bar = page.getByRole("region", { name: "Bulk actions" });
      await bar.getByText("3 selected").waitFor();
      await bar.getByLabel("Action").selectOption("sync_reviews");
      await bar.getByRole("button", { name: "Review cost…" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("3 of 3 clients ready · nothing from their AI allowance").waitFor();
      await shot(page, "clients-bulk-1280");
      await dialog.getByRole("button", { name: "Start for 3 clients" }).click();
      await dialog.getByText(/^Started for \d client/).waitFor();
      for (const name of Object.values(names)) await dialog.locator("li", { hasText: name }).getByText(/^(Started|Did not start)$/).waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();

      // A figure opens the screen behind it, read as the client: Summit's reviews, with Tom's review waiting.
      await rowOf(names.review).getByRole("link", { name: /unanswered/ }).click();
      await page.getByText("Reading a client's screen").first().waitFor();
      await page.getByText("Tom Becker").first().waitFor();
      await shot(page, "client-reviews-1280");
      await page.getByRole("button", { name: "Back to Clients" }).first().click();
      await page.getByRole("heading", { level: 1, name: "Clients" }).waitFor();

      const phone = await signedInPage(browser(), admin.email, 375);
      await phone.page.goto("/admin/clients");
      await phone.page.getByRole("heading", { level: 1, name: "Clients" }).waitFor();
      await shot(phone.page, "clients-375");
      await phone.page.goto("/admin/attention");
      await phone.page.getByRole("heading", { level: 1, name: "Needs Attention" }).waitFor();
      await shot(phone.page, "attention-375");
      await phone.context.close();

      // The suspended client sees it too, on its Integrations page: the profile guard says what to do.
      const owner = await signedInPage(browser(), c.email);
      await owner.page.goto("/integrations");
      const guard = owner.page.locator("section.guard-section");
      await guard.getByText("Not verified", { exact: true }).waitFor();
      await guard.getByText(/ask for reinstatement/).waitFor();
      await shot(owner.page, "guard-1280");
      // The owner's own edit of the name is checked before it is sent: a city in the name is a suspension trigger.
      await guard.getByRole("button", { name: "Edit on Google" }).first().click();
      const editDialog = owner.page.getByRole("dialog");
      await editDialog.getByLabel("Business name").fill(`${names.verify} Austin`);
      await editDialog.getByRole("button", { name: "Check and send" }).click();
      await editDialog.getByText(/could get the profile suspended/).waitFor();
      await shot(owner.page, "guard-edit-1280");
      await editDialog.getByRole("button", { name: "Cancel" }).click();
      await owner.page.setViewportSize({ width: 375, height: 800 });
      await shot(owner.page, "guard-375");
      await owner.context.close();
    } finally {
      await google("/__gbp/locations/2001", { method: "POST", body: JSON.stringify({ voiceOfMerchant: "verified" }) });
      await google("/__gbp/locations/2002", { method: "POST", body: JSON.stringify({ google: { phoneNumbers: null }, diffMask: [] }) });
      await context.close();
    }
  });
});
