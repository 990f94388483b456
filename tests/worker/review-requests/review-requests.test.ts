// Review requests (issue 28) through the routes, the real reviews consumer and the Twilio and mail fakes: the
// job-completed hook (bad token, one request, the same job once), opt-outs honoured on every path (mail link, STOP,
// reminder, hook), quiet hours holding a message, the link sending everyone to Google's review page (no gating) and
// counting the click, the 90-day rule, CSV partial failure, delivery callbacks, reminders and the QR code.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env, ReviewsMessage } from "../../../worker/platform/env";
import { sweepReviewRequests } from "../../../worker/features/review-requests/request-jobs";
import { FAKE_TWILIO_ACCOUNT_SID, FAKE_TWILIO_AUTH_TOKEN, FAKE_TWILIO_MESSAGING_SERVICE_SID } from "../../fakes/twilio-data";
import { deliver, recorder } from "../reports/reports-fixtures";
import { BASE, callWorker, signUp } from "../helpers";
import { connectedGoogleUser } from "../integrations/google-connect";

const PLACE_ID = "ChIJN1t_tDeuEmsRUsoyG83frY4";
const GOOGLE = `https://search.google.com/local/writereview?placeid=${PLACE_ID}`;

type T = { env: Env; sent: ReviewsMessage[] };
function setup(sms = true): T {
  const q = recorder<ReviewsMessage>();
  const twilio = sms
    ? { TWILIO_ACCOUNT_SID: FAKE_TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN: FAKE_TWILIO_AUTH_TOKEN, TWILIO_MESSAGING_SERVICE_SID: FAKE_TWILIO_MESSAGING_SERVICE_SID, TWILIO_BASE_URL: env.TEST_TWILIO_BASE_URL }
    : {};
  return { env: { ...env, REVIEWS: q.queue, ...twilio } as Env, sent: q.sent };
}
const bind = (t: T) => t.env as unknown as Record<string, unknown>;

/** Delivers what was queued through the real consumer. */
async function drain(t: T) {
  const messages = t.sent.splice(0).map((body) => ({ body }));
  if (messages.length > 0) await deliver("reviews", messages, t.env);
}

let phoneCounter = Math.floor(Math.random() * 9000);
/** A fresh customer number per test (the fake's log and the 90-day rule are shared across the file). */
function newPhone(): string {
  phoneCounter += 1;
  return `+1512555${String(phoneCounter % 10000).padStart(4, "0")}`;
}

async function smsTo(phone: string): Promise<{ sid: string; body: string }[]> {
  const res = await fetch(`${env.TEST_TWILIO_BASE_URL}/__messages?to=${encodeURIComponent(phone)}`);
  return ((await res.json()) as { messages: { sid: string; body: string }[] }).messages;
}

async function outboxTo(email: string): Promise<{ subject: string; body: string }[]> {
  const rows = await env.DB.prepare("select subject, body from outbox where to_email = ? order by created_at").bind(email).all<{ subject: string; body: string }>();
  return rows.results;
}

/** A business with a name, a time zone, its Google place id, no delay and no quiet hours (tests set them as they need). */
async function business(t: T, settings: Record<string, unknown> = {}) {
  const user = await signUp();
  const token = user.session.access_token;
  await callWorker("/api/profile", { method: "PUT", token, json: { company_name: "Acme Plumbing", time_zone: "America/Chicago" } }, bind(t));
  const put = await callWorker(
    "/api/review-requests/settings",
    { method: "PUT", token, json: { delayMinutes: 0, emailSubject: "", emailTemplate: "", smsTemplate: "", quietStart: "00:00", quietEnd: "00:00", smsEnabled: true, placeId: PLACE_ID, ...settings } },
    bind(t),
  );
  expect(put.status).toBe(200);
  return { user, token };
}

async function requestRow(id: string) {
  return env.DB.prepare("select * from review_requests where id = ?").bind(id).first<Record<string, any>>();
}

async function signedCallback(input: Record<string, unknown>) {
  const res = await fetch(`${env.TEST_TWILIO_BASE_URL}/__callback`, { method: "POST", body: JSON.stringify(input) });
  return (await res.json()) as { url: string; form: Record<string, string>; signature: string };
}

async function postTwilio(t: T, path: string, signed: { form: Record<string, string>; signature: string }) {
  return callWorker(path, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signed.signature }, body: new URLSearchParams(signed.form).toString() }, bind(t));
}

describe("the job-completed hook", () => {
  it("refuses a bad token, queues one request for a good one, and one only for the same job twice", async () => {
    const t = setup();
    const { token } = await business(t);
    const bad = await callWorker("/api/review-requests/hook/not-a-real-token-0000000000", { method: "POST", json: { name: "Ann Lee", phone: newPhone(), job_id: "J-1" } }, bind(t));
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe("invalid_token");

    const rotated = await callWorker("/api/review-requests/settings/hook", { method: "POST", token }, bind(t));
    expect(rotated.status).toBe(201);
    const hookPath = new URL(rotated.body.hookUrl as string).pathname;
    const settings = await callWorker("/api/review-requests/settings", { token }, bind(t));
    expect(settings.body.hookConfigured).toBe(true);
    expect(JSON.stringify(settings.body)).not.toContain(hookPath.split("/").pop());

    const phone = newPhone();
    const first = await callWorker(hookPath, { method: "POST", json: { first_name: "Ann", last_name: "Lee", phone, job_id: 4711 } }, bind(t));
    expect(first.status).toBe(202);
    expect(t.sent).toEqual([{ kind: "send", requestIds: [first.body.id] }]);
    const again = await callWorker(hookPath, { method: "POST", json: { first_name: "Ann", last_name: "Lee", phone, job_id: 4711 } }, bind(t));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ queued: false, code: "duplicate_job" });
    const list = await callWorker("/api/review-requests", { token }, bind(t));
    expect(list.body.requests).toHaveLength(1);

    await drain(t);
    const texts = await smsTo(phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/^Hi Ann, thanks for choosing Acme Plumbing! .*\/r\/[a-z0-9]+\?r=\S+ Reply STOP to opt out\.$/);
    expect((await requestRow(first.body.id))!.status).toBe("sent");

    // A rotated token retires the old one.
    await callWorker("/api/review-requests/settings/hook", { method: "POST", token }, bind(t));
    expect((await callWorker(hookPath, { method: "POST", json: { name: "Bo", phone: newPhone(), job_id: "J-2" } }, bind(t))).status).toBe(401);
  });
});

describe("opt-outs", () => {
  it("never messages a customer again after the mail's unsubscribe link: not by request, reminder or hook", async () => {
    const t = setup(false);
    const { token } = await business(t);
    const email = `opt-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Cara Diaz", email } }, bind(t));
    expect(made.status).toBe(201);
    await drain(t);
    const mails = await outboxTo(email);
    expect(mails).toHaveLength(1);
    const stopUrl = /Unsubscribe: (\S+)/.exec(mails[0]!.body)![1]!;
    const reqToken = new URL(stopUrl).searchParams.get("r")!;
    const page = await callWorker(new URL(stopUrl).pathname + new URL(stopUrl).search, {}, bind(t));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Acme Plumbing won't ask you for a review again");

    const unsub = await callWorker("/api/review-requests/unsubscribe", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" }, body: `token=${reqToken}` }, bind(t));
    expect(unsub.status).toBe(200);
    expect(unsub.text).toContain("You're unsubscribed");

    // The reminder would be due now: it is not sent.
    await env.DB.prepare("update review_requests set reminder_due_at = ? where id = ?").bind(new Date(Date.now() - 1000).toISOString(), made.body.id).run();
    await sweepReviewRequests(t.env);
    await drain(t);
    // Even 91 days later, a new request and the hook are refused.
    await env.DB.prepare("update review_requests set created_at = ? where id = ?").bind(new Date(Date.now() - 91 * 86_400_000).toISOString(), made.body.id).run();
    const again = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Cara Diaz", email: email.toUpperCase() } }, bind(t));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("opted_out");
    const hook = await callWorker("/api/review-requests/settings/hook", { method: "POST", token }, bind(t));
    const viaHook = await callWorker(new URL(hook.body.hookUrl as string).pathname, { method: "POST", json: { name: "Cara Diaz", email, job_id: "J-9" } }, bind(t));
    expect(viaHook.body).toMatchObject({ queued: false, code: "opted_out" });
    expect(await outboxTo(email)).toHaveLength(1);
  });

  it("honours STOP at once: a scheduled text is not sent, nor a reminder, nor a later request by any business", async () => {
    const t = setup();
    const { token } = await business(t, { delayMinutes: 60 });
    const phone = newPhone();
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Dan Ng", phone } }, bind(t));
    expect(made.status).toBe(201);
    expect(t.sent).toEqual([]);

    const bad = await postTwilio(t, "/api/review-requests/sms/incoming", { ...(await signedCallback({ kind: "incoming", from: phone, url: `${BASE}/api/review-requests/sms/incoming` })), signature: "forged" });
    expect(bad.status).toBe(403);
    const stop = await postTwilio(t, "/api/review-requests/sms/incoming", await signedCallback({ kind: "incoming", from: phone, url: `${BASE}/api/review-requests/sms/incoming` }));
    expect(stop.status).toBe(200);
    expect(stop.headers.get("Content-Type")).toContain("text/xml");
    expect((await requestRow(made.body.id))!.status).toBe("opted_out");

    // Even when it comes due, the cron and the consumer send nothing.
    await env.DB.prepare("update review_requests set due_at = ? where id = ?").bind(new Date(Date.now() - 1000).toISOString(), made.body.id).run();
    await sweepReviewRequests(t.env);
    await drain(t);
    expect(await smsTo(phone)).toHaveLength(0);

    const other = await business(t);
    const refused = await callWorker("/api/review-requests", { method: "POST", token: other.token, json: { name: "Dan Ng", phone: phone.replace("+1", "") } }, bind(t));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("opted_out");
  });
});

describe("quiet hours", () => {
  it("holds a message due inside them until they end, in the business's time zone", async () => {
    const t = setup();
    const now = new Date();
    const hh = (d: Date) => d.toISOString().slice(11, 16);
    // Quiet from an hour ago to an hour from now, in UTC (the business's zone set below).
    const { token } = await business(t, { quietStart: hh(new Date(now.getTime() - 3_600_000)), quietEnd: hh(new Date(now.getTime() + 3_600_000)) });
    await callWorker("/api/profile", { method: "PUT", token, json: { company_name: "Acme Plumbing", time_zone: "UTC" } }, bind(t));
    const phone = newPhone();
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Eve", phone } }, bind(t));
    expect(made.status).toBe(201);
    expect(new Date(made.body.dueAt).getTime()).toBeGreaterThan(now.getTime() + 3_000_000);
    // Pretend it came due inside the window (a reminder or a late cron): the consumer holds it again.
    await env.DB.prepare("update review_requests set due_at = ? where id = ?").bind(new Date(now.getTime() - 1000).toISOString(), made.body.id).run();
    await deliver("reviews", [{ body: { kind: "send", requestIds: [made.body.id] } }], t.env);
    expect(await smsTo(phone)).toHaveLength(0);
    const row = (await requestRow(made.body.id))!;
    expect(row.status).toBe("scheduled");
    expect(hh(new Date(row.due_at))).toBe(hh(new Date(now.getTime() + 3_600_000)));
  });
});

describe("the review link", () => {
  it("sends everyone to Google's write-review address, counts the click and marks the request opened", async () => {
    const t = setup();
    const { token } = await business(t);
    const phoneA = newPhone();
    const a = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Fay", phone: phoneA } }, bind(t));
    await drain(t);
    const link = /(https?:\/\/\S+\/r\/\S+)/.exec((await smsTo(phoneA))[0]!.body)![1]!;
    const url = new URL(link);
    const slug = url.pathname.split("/")[2]!;

    // The customer with the request's token, someone without one, and one with a made-up token: the same Google page.
    for (const path of [url.pathname + url.search, `/r/${slug}`, `/r/${slug}?r=made-up`]) {
      const res = await callWorker(path, { redirect: "manual" }, bind(t));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(GOOGLE);
    }
    const row = (await requestRow(a.body.id))!;
    expect(row.status).toBe("opened");
    expect(row.clicks).toBe(1);
    const view = await callWorker("/api/review-requests/link", { token }, bind(t));
    expect(view.body).toMatchObject({ slug, clicks: 3, reviewUrl: GOOGLE, placeIdSource: "settings" });
    const list = await callWorker("/api/review-requests", { token }, bind(t));
    expect(list.body.figures).toMatchObject({ opened: 1 });

    // An opened request gets no reminder.
    await env.DB.prepare("update review_requests set reminder_due_at = ? where id = ?").bind(new Date(Date.now() - 1000).toISOString(), a.body.id).run();
    await sweepReviewRequests(t.env);
    await drain(t);
    expect(await smsTo(phoneA)).toHaveLength(1);
  });

  it("counts a review that followed a request as likely: the name matches and it came within 14 days", async () => {
    const t = setup();
    const { token, user } = await business(t);
    const [pa, pb] = [newPhone(), newPhone()];
    const a = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Fay Wong", phone: pa } }, bind(t));
    const b = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Gus Hart", phone: pb } }, bind(t));
    await drain(t);
    const sentAt = (await requestRow(a.body.id))!.sent_at as string;
    expect(sentAt).toBeTruthy();
    const at = (days: number) => new Date(new Date(sentAt).getTime() + days * 86_400_000).toISOString();
    const review = (id: string, reviewer: string, when: string) =>
      env.DB.prepare(
        "insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, create_time, update_time) values (?, ?, 'locations/1', ?, ?, ?, 5, ?, ?)",
      ).bind(id, user.user.id, `g-${id}`, `accounts/1/locations/1/reviews/g-${id}`, reviewer, when, when);
    await env.DB.batch([
      review(`lr-${a.body.id}-1`, "Fay W.", at(3)), // Fay Wong's: a likely match
      review(`lr-${a.body.id}-2`, "Gus Hart", at(-2)), // before Gus was asked: not his
      review(`lr-${a.body.id}-3`, "Gus Hart", at(20)), // three weeks later: too late to count
      review(`lr-${a.body.id}-4`, "Ann Lee", at(1)), // nobody asked Ann
    ]);
    const list = await callWorker("/api/review-requests", { token }, bind(t));
    expect(list.status).toBe(200);
    expect(list.body.likelyReviews).toEqual({ count: 1, requestIds: [a.body.id], lookbackDays: 180 });
    expect(list.body.likelyReviews.requestIds).not.toContain(b.body.id);
  });

  it("with Google Business Profile connected, the link uses the connected location's place id at once (issue 39)", async () => {
    const t = setup();
    const user = await connectedGoogleUser();
    const token = user.session.access_token;
    const link = await callWorker("/api/review-requests/link", { token }, bind(t));
    expect(link.status).toBe(200);
    // The fake Google's Austin location: its documented metadata.placeId, as the connection read it.
    expect(link.body).toMatchObject({ placeId: "ChIJfake2001", placeIdSource: "google", reviewUrl: "https://search.google.com/local/writereview?placeid=ChIJfake2001" });
    const settings = await callWorker("/api/review-requests/settings", { token }, bind(t));
    expect(settings.body).toMatchObject({ effectivePlaceId: "ChIJfake2001", placeIdSource: "google" });
    const open = await callWorker(`/r/${link.body.slug}`, { redirect: "manual" }, bind(t));
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe("https://search.google.com/local/writereview?placeid=ChIJfake2001");
    expect((await callWorker("/api/review-requests/link?format=png", { token }, bind(t))).status).toBe(200);
    // The owner's own entry still chooses another listing.
    const put = await callWorker("/api/review-requests/settings", { method: "PUT", token, json: { delayMinutes: 0, emailSubject: "", emailTemplate: "", smsTemplate: "", quietStart: "00:00", quietEnd: "00:00", smsEnabled: true, placeId: PLACE_ID } }, bind(t));
    expect(put.status).toBe(200);
    expect((await callWorker("/api/review-requests/link", { token }, bind(t))).body).toMatchObject({ placeId: PLACE_ID, placeIdSource: "settings" });
  });

  it("serves the QR code as SVG and PNG, and says so when no Google listing is known", async () => {
    const t = setup();
    const { token } = await business(t);
    const svg = await callWorker("/api/review-requests/link?format=svg", { token }, bind(t));
    expect(svg.headers.get("Content-Type")).toContain("image/svg+xml");
    expect(svg.text).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+".*<path d="M/);
    const png = await callWorker("/api/review-requests/link?format=png", { token }, bind(t));
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect([...new TextEncoder().encode(png.text.slice(1, 4))]).toEqual([0x50, 0x4e, 0x47]);
    expect((await callWorker("/api/review-requests/link?format=gif", { token }, bind(t))).status).toBe(400);

    const none = await business(t, { placeId: "" });
    const refused = await callWorker("/api/review-requests/link?format=png", { token: none.token }, bind(t));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("no_listing");
    const json = await callWorker("/api/review-requests/link", { token: none.token }, bind(t));
    expect(json.body.reviewUrl).toBeNull();
    // The print view's QR card names the business (issue 39).
    expect(json.body.businessName).toBe("Acme Plumbing");
    const notReady = await callWorker(`/r/${json.body.slug}`, { redirect: "manual" }, bind(t));
    expect(notReady.status).toBe(404);
  });
});

describe("rules when making requests", () => {
  it("asks a customer once per 90 days", async () => {
    const t = setup(false);
    const { token } = await business(t, { delayMinutes: 120 });
    const email = `ninety-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Gus", email } }, bind(t));
    expect(first.status).toBe(201);
    const second = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Gus", email } }, bind(t));
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("asked_recently");
    await env.DB.prepare("update review_requests set created_at = ? where id = ?").bind(new Date(Date.now() - 90 * 86_400_000 - 60_000).toISOString(), first.body.id).run();
    const later = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Gus", email } }, bind(t));
    expect(later.status).toBe(201);
  });

  it("keeps the valid CSV rows and reports each bad one by its row", async () => {
    const t = setup(false);
    const { token } = await business(t, { delayMinutes: 120 });
    const id = crypto.randomUUID().slice(0, 8);
    const csv = `name,email,phone\nHal,hal-${id}@example.com,\nIvy,not-an-email,\nJon,,\n,kim-${id}@example.com,\nLee,lee-${id}@example.com,\nLee again,lee-${id}@example.com,\n`;
    const res = await callWorker("/api/review-requests", { method: "POST", token, json: { csv } }, bind(t));
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2);
    expect(res.body.results.map((r: { row: number; ok: boolean; code?: string }) => [r.row, r.ok ? "ok" : r.code])).toEqual([
      [2, "ok"],
      [3, "invalid_email"],
      [4, "no_contact"],
      [5, "invalid"],
      [6, "ok"],
      [7, "asked_recently"],
    ]);
    const list = await callWorker("/api/review-requests", { token }, bind(t));
    expect(list.body.requests.map((r: { customerName: string }) => r.customerName).sort()).toEqual(["Hal", "Lee"]);
    expect(list.body.requests.every((r: { status: string; channel: string }) => r.status === "scheduled" && r.channel === "email")).toBe(true);
  });

  it("refuses a text-only customer when texts are not available, in the customer's terms", async () => {
    const t = setup(false);
    const { token } = await business(t);
    const res = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Max", phone: newPhone() } }, bind(t));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Text messages aren't available, and this customer has no email address.");
    expect(res.body.error.message).not.toMatch(/TWILIO|configur/i);
  });
});

describe("delivery and reminders", () => {
  it("records Twilio's delivery callback (signature checked) and sends one reminder after 3 days when the link was not opened", async () => {
    const t = setup();
    const { token } = await business(t);
    const phone = newPhone();
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Nia", phone } }, bind(t));
    await drain(t);
    const [sent] = await smsTo(phone);
    const row = (await requestRow(made.body.id))!;
    expect(row.provider_message_id).toBe(sent!.sid);
    expect(new Date(row.reminder_due_at).getTime() - new Date(row.sent_at).getTime()).toBe(3 * 86_400_000);

    const forged = await postTwilio(t, "/api/review-requests/sms/status", { ...(await signedCallback({ sid: sent!.sid, status: "delivered", url: `${BASE}/api/review-requests/sms/status` })), signature: "AAAA" });
    expect(forged.status).toBe(403);
    const ok = await postTwilio(t, "/api/review-requests/sms/status", await signedCallback({ sid: sent!.sid, status: "delivered", url: `${BASE}/api/review-requests/sms/status` }));
    expect(ok.status).toBe(204);
    expect((await requestRow(made.body.id))!.status).toBe("delivered");

    await env.DB.prepare("update review_requests set reminder_due_at = ? where id = ?").bind(new Date(Date.now() - 1000).toISOString(), made.body.id).run();
    await sweepReviewRequests(t.env);
    await drain(t);
    await sweepReviewRequests(t.env);
    await drain(t);
    expect(await smsTo(phone)).toHaveLength(2);
    expect((await requestRow(made.body.id))!.reminder_sent_at).not.toBeNull();

    // Redelivering the same message sends nothing twice.
    await deliver("reviews", [{ body: { kind: "send", requestIds: [made.body.id] } }], t.env);
    expect(await smsTo(phone)).toHaveLength(2);
  });
});

describe("permissions", () => {
  it("needs a signed-in user for the business's routes", async () => {
    const t = setup();
    for (const [method, path] of [["GET", "/api/review-requests"], ["POST", "/api/review-requests"], ["GET", "/api/review-requests/link"], ["GET", "/api/review-requests/settings"], ["PUT", "/api/review-requests/settings"], ["POST", "/api/review-requests/settings/hook"]] as const) {
      const res = await callWorker(path, { method, json: method === "GET" ? undefined : {} }, bind(t));
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe("hardening (issue 39)", () => {
  it("refuses to schedule requests while the review link is not ready, saying what to do, by every path", async () => {
    const t = setup(false);
    const { token } = await business(t, { placeId: "" });
    const email = `notready-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const one = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Ann", email } }, bind(t));
    expect(one.status).toBe(409);
    expect(one.body.error.code).toBe("review_link_not_ready");
    expect(one.body.error.message).toMatch(/^Your review link isn't ready yet, so no request was scheduled: .*Connect your Google Business Profile, run an audit of your business, or enter your Google place ID/);
    const csv = await callWorker("/api/review-requests", { method: "POST", token, json: { csv: `Ann,${email}` } }, bind(t));
    expect(csv.status).toBe(409);
    expect(csv.body.error.code).toBe("review_link_not_ready");
    const hook = await callWorker("/api/review-requests/settings/hook", { method: "POST", token }, bind(t));
    const viaHook = await callWorker(new URL(hook.body.hookUrl as string).pathname, { method: "POST", json: { name: "Ann", email, job_id: "J-1" } }, bind(t));
    expect(viaHook.status).toBe(409);
    expect(viaHook.body.error.code).toBe("review_link_not_ready");
    expect((await callWorker("/api/review-requests", { token }, bind(t))).body.requests).toEqual([]);
    expect(t.sent).toEqual([]);

    // Once the listing is known, the same customer is asked.
    await callWorker("/api/review-requests/settings", { method: "PUT", token, json: { delayMinutes: 0, emailSubject: "", emailTemplate: "", smsTemplate: "", quietStart: "00:00", quietEnd: "00:00", smsEnabled: true, placeId: PLACE_ID } }, bind(t));
    expect((await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Ann", email } }, bind(t))).status).toBe(201);
  });

  it("texts only numbers in the business's own country unless the operator allows more, and meters the destination's price", async () => {
    const t = setup();
    const { token, user } = await business(t);
    const uk = `+4477009${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`;
    const jamaica = `+1876555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
    // A US business (no phone of its own: the default country): a UK or Jamaican mobile alone is refused...
    for (const phone of [uk, jamaica]) {
      const res = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Ola", phone } }, bind(t));
      expect(res.status, phone).toBe(409);
      expect(res.body.error).toMatchObject({ code: "sms_country_not_allowed", message: "Text messages go only to numbers in the United States, and this customer has no email address." });
    }
    // ...and goes by mail when the customer gave an address too.
    const email = `uk-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const mailed = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Ola", phone: uk, email } }, bind(t));
    expect(mailed.status).toBe(201);
    expect((await requestRow(mailed.body.id))!.channel).toBe("email");
    t.sent.splice(0);

    // A business in the UK (its phone says so) texts UK numbers, and each segment is metered at the UK's price.
    await callWorker("/api/profile", { method: "PUT", token, json: { company_name: "Acme Plumbing", company_phone: "+44 20 7946 0958", time_zone: "Europe/London" } }, bind(t));
    const ukOnly = `+4477008${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`;
    const counter = () => env.DB.prepare("select reserved_micro + settled_micro as micro from meter_counters where key like ?").bind(`user:${user.user.id}:%`).first<{ micro: number }>();
    const before = (await counter())?.micro ?? 0;
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Pip", phone: ukOnly } }, bind(t));
    expect(made.status).toBe(201);
    await drain(t);
    const texts = await smsTo(ukOnly);
    expect(texts).toHaveLength(1);
    const { smsSegments, SMS_COUNTRIES } = await import("../../../worker/domain/sms-pricing");
    expect((await counter())!.micro - before).toBe(Math.ceil(smsSegments(texts[0]!.body) * SMS_COUNTRIES.GB.usdPerSegment * 1_000_000));
    // A US number is now elsewhere for it: refused unless the operator allows the US.
    const us = newPhone();
    expect((await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Quin", phone: us } }, bind(t))).body.error.code).toBe("sms_country_not_allowed");
    const allowed = { ...t, env: { ...t.env, SMS_ALLOWED_COUNTRIES: "US" } as Env };
    const ok = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Quin", phone: us } }, bind(allowed));
    expect(ok.status).toBe(201);
    expect((await requestRow(ok.body.id))!.channel).toBe("sms");
    // The send job checks again: the operator's allowance gone, the text is not sent and says why.
    await drain(t);
    expect(await smsTo(us)).toHaveLength(0);
    expect((await requestRow(ok.body.id))!).toMatchObject({ status: "failed", last_error: "Text messages go only to numbers in the United Kingdom, and this customer has no email address." });
  });

  it("refuses templates with web addresses and subjects with line breaks, in the form's words with stable codes", async () => {
    const t = setup(false);
    const { token } = await business(t);
    const base = { delayMinutes: 0, emailSubject: "", emailTemplate: "", smsTemplate: "", quietStart: "00:00", quietEnd: "00:00", smsEnabled: true, placeId: PLACE_ID };
    const put = (json: Record<string, unknown>) => callWorker("/api/review-requests/settings", { method: "PUT", token, json: { ...base, ...json } }, bind(t));
    const sms = await put({ smsTemplate: "Your account is locked: verify at evil.com {link}" });
    expect(sms.status).toBe(400);
    expect(sms.body.error).toMatchObject({ code: "template_web_address", message: "Text message: Remove “evil.com”: {link} is the only web address a message may carry" });
    expect(sms.body.error.fields.smsTemplate).toHaveLength(1);
    const mail = await put({ emailTemplate: "Hi {first_name}, log in at https://evil.example/login then {link}" });
    expect(mail.body.error.code).toBe("template_web_address");
    const subject = await put({ emailSubject: "How did we do?\r\nBcc: everyone@example.com" });
    expect(subject.status).toBe(400);
    expect(subject.body.error).toMatchObject({ code: "subject_line_break", message: "Email subject: Keep the subject on one line" });
    const place = await put({ placeId: "not a place id!" });
    expect(place.body.error.code).toBe("validation_failed");
    expect(place.body.error.message).toMatch(/^Google place ID: /);
    const delay = await put({ delayMinutes: 1.5 });
    expect(delay.body.error.message).toBe("Send after: Enter whole minutes");
    for (const res of [sms, mail, subject, place, delay]) expect(res.body.error.message).not.toMatch(/placeId|delayMinutes|smsTemplate|emailTemplate|emailSubject/);
  });

  it("sends nothing that would carry another web address: a business name that is one, a template saved before the rule", async () => {
    const t = setup(false);
    const { token } = await business(t);
    await callWorker("/api/profile", { method: "PUT", token, json: { company_name: "Claim your refund at refunds-evil.com", time_zone: "America/Chicago" } }, bind(t));
    const email = `phish-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Rae", email } }, bind(t));
    expect(made.status).toBe(201);
    await drain(t);
    expect(await outboxTo(email)).toHaveLength(0);
    const row = (await requestRow(made.body.id))!;
    expect(row.status).toBe("failed");
    expect(row.last_error).toContain("refunds-evil.com");
  });

  it("shows a customer who opted out after opening the link as opted out, not opened", async () => {
    const t = setup(false);
    const { token } = await business(t);
    const email = `opened-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const made = await callWorker("/api/review-requests", { method: "POST", token, json: { name: "Sol", email } }, bind(t));
    await drain(t);
    const [mail] = await outboxTo(email);
    const link = new URL(/(https?:\/\/\S+\/r\/[a-z0-9]+\?r=\S+)/.exec(mail!.body)![1]!);
    expect((await callWorker(link.pathname + link.search, { redirect: "manual" }, bind(t))).status).toBe(302);
    expect((await requestRow(made.body.id))!.status).toBe("opened");
    const unsub = await callWorker("/api/review-requests/unsubscribe", { method: "POST", json: { token: link.searchParams.get("r") } }, bind(t));
    expect(unsub.status).toBe(200);
    const list = await callWorker("/api/review-requests", { token }, bind(t));
    expect(list.body.requests.find((r: { id: string }) => r.id === made.body.id)).toMatchObject({ status: "opted_out" });
    expect(list.body.figures).toMatchObject({ opened: 0, optedOut: 1 });
  });

  it("keeps every valid CSV row when one has an unmatched quote, and reports that row", async () => {
    const t = setup(false);
    const { token } = await business(t, { delayMinutes: 120 });
    const id = crypto.randomUUID().slice(0, 8);
    const csv = `name,email\n"Tia,tia-${id}@example.com\nUma,uma-${id}@example.com\n`;
    const res = await callWorker("/api/review-requests", { method: "POST", token, json: { csv } }, bind(t));
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { row: number; ok: boolean; code?: string }) => [r.row, r.ok ? "ok" : r.code])).toEqual([
      [2, "unclosed_quote"],
      [3, "ok"],
    ]);
  });
});
