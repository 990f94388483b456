// Access matrix: every route of the Hono app, asked by an anonymous visitor, a user, another user, an admin and an
// admin viewing as the user (X-View-As). Each gets exactly its expected status, and no answer to the other user or
// the visitor carries the user's data. A route the table does not list fails the test: new routes must be added.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { getDb } from "../../../worker/platform/db/client";
import { insertContent } from "../../../worker/features/content/queries";
import { insertPost } from "../../../worker/features/content/posts-queries";
import { insertScheduledPost } from "../../../worker/features/integrations/queries";
import { insertWidget } from "../../../worker/features/widgets/queries";
import { PostRequest } from "../../../worker/features/content/rules/facebook-post";
import { api, signUp, signUpAdmin } from "../helpers";
import { readyReport } from "../reports/reports-fixtures";
import { seedClientReport } from "../client-reports/client-report-fixtures";

type Role = "anon" | "user" | "other" | "admin" | "viewAs";
/** Order matters: the owner goes last, so its own deletes run after everyone else was refused. */
const ROLES: Role[] = ["anon", "other", "viewAs", "admin", "user"];

type Fixture = {
  postId: string;
  scheduledPostId: string;
  contentId: string;
  planId: string;
  reportId: string;
  userId: string;
  otherId: string;
  widgetId: string;
  reviewId: string;
  clientReportToken: string;
};
type Call = { path: string; body?: unknown; raw?: string; headers?: Record<string, string> };
/** `adminSees`: a route users may call for themselves whose admin answer rightly names every client (the user among them). */
type Row = { call: (f: Fixture) => Call; expect: Record<Role, number>; adminSees?: true };

const all = (status: number): Record<Role, number> => ({ anon: status, user: status, other: status, admin: status, viewAs: status });
/** Signed in as anyone; a write while viewing as someone is 403 view_as_read_only. */
const signedInRead = (ok = 200) => ({ anon: 401, user: ok, other: ok, admin: ok, viewAs: ok });
const signedInWrite = (ok: number, other = ok) => ({ anon: 401, user: ok, other, admin: ok, viewAs: 403 });
/** A user's own row: its owner gets `ok`; anyone else, the admin included, finds nothing; viewing as is read-only. */
const ownRowWrite = (ok: number) => ({ anon: 401, other: 404, viewAs: 403, admin: 404, user: ok });
/** Admin only: a regular user (and an admin viewing as one) gets 403 admin_required. */
const adminRead = (ok = 200) => ({ anon: 401, user: 403, other: 403, admin: ok, viewAs: 403 });
const adminWrite = (ok: number) => ({ anon: 401, user: 403, other: 403, admin: ok, viewAs: 403 });

/** A status that may be either of two, by a queue's timing (an asymmetric matcher the table's toEqual accepts). */
const oneOf = (a: number, b: number) => ({ asymmetricMatch: (n: unknown) => n === a || n === b, toAsymmetricMatcher: () => `${a} or ${b}` }) as unknown as number;

const WIDGET_ORIGIN = "https://www.agency-site.test";
const MARK = `secret-${crypto.randomUUID().slice(0, 8)}`;
const json = (body: unknown) => ({ body });

const MATRIX: Record<string, Row> = {
  // GoTrue-compatible auth: public, or answered by the token it is given.
  "GET /auth/v1/health": { call: () => ({ path: "/auth/v1/health" }), expect: all(200) },
  "GET /auth/v1/settings": { call: () => ({ path: "/auth/v1/settings" }), expect: all(200) },
  "POST /auth/v1/signup": {
    // A password that is too short: refused for everyone the same way, no account is made.
    call: () => ({ path: "/auth/v1/signup", ...json({ email: `m-${crypto.randomUUID()}@example.test`, password: "x" }) }),
    expect: all(422),
  },
  "POST /auth/v1/token": {
    call: () => ({ path: "/auth/v1/token?grant_type=password", ...json({ email: "nobody@example.test", password: "wrong-password-1" }) }),
    expect: all(400),
  },
  "POST /auth/v1/logout": { call: () => ({ path: "/auth/v1/logout?scope=others" }), expect: { ...signedInRead(204), viewAs: 204 } },
  "GET /auth/v1/user": { call: () => ({ path: "/auth/v1/user" }), expect: signedInRead(200) },
  "PUT /auth/v1/user": { call: () => ({ path: "/auth/v1/user", ...json({ data: { theme: "dark" } }) }), expect: signedInRead(200) },
  "POST /auth/v1/recover": { call: () => ({ path: "/auth/v1/recover", ...json({ email: "nobody@example.test" }) }), expect: all(200) },
  "POST /auth/v1/resend": { call: () => ({ path: "/auth/v1/resend", ...json({ type: "signup", email: `nobody-${crypto.randomUUID()}@example.test` }) }), expect: all(200) },
  "POST /auth/v1/verify": { call: () => ({ path: "/auth/v1/verify", ...json({ type: "recovery", token_hash: "nope" }) }), expect: all(403) },
  "GET /auth/v1/verify": { call: () => ({ path: "/auth/v1/verify?type=recovery&token=nope" }), expect: all(303) },
  // The readable outbox is local development on a loopback host (the tests' http://localhost); elsewhere 404, below.
  "GET /auth/v1/outbox": { call: () => ({ path: "/auth/v1/outbox?email=nobody@example.test" }), expect: all(200) },

  // Two-factor factors are the caller's own (view-as does not apply to /auth/v1); another's id is not found.
  "POST /auth/v1/factors": {
    call: () => ({ path: "/auth/v1/factors", ...json({ factor_type: "totp" }) }),
    expect: signedInRead(200),
  },
  // A body that is not JSON is refused before any factor is looked up (it once made a challenge).
  "POST /auth/v1/factors/:id/challenge": {
    call: () => ({ path: `/auth/v1/factors/${crypto.randomUUID()}/challenge`, raw: "{not json" }),
    expect: signedInRead(400),
  },
  "POST /auth/v1/factors/:id/verify": {
    call: () => ({ path: `/auth/v1/factors/${crypto.randomUUID()}/verify`, ...json({ challenge_id: crypto.randomUUID(), code: "123456" }) }),
    expect: signedInRead(404),
  },
  "DELETE /auth/v1/factors/:id": { call: () => ({ path: `/auth/v1/factors/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  // Recovery codes are the caller's own too; without an authenticator app there are none to make or use.
  "GET /auth/v1/factors/recovery-codes": { call: () => ({ path: "/auth/v1/factors/recovery-codes" }), expect: signedInRead(200) },
  "POST /auth/v1/factors/recovery-codes": { call: () => ({ path: "/auth/v1/factors/recovery-codes", ...json({}) }), expect: signedInRead(422) },
  "POST /auth/v1/factors/recovery-codes/verify": {
    call: () => ({ path: "/auth/v1/factors/recovery-codes/verify", ...json({ code: "ABCDE-12345" }) }),
    expect: signedInRead(422),
  },

  "GET /api/health": { call: () => ({ path: "/api/health" }), expect: all(200) },

  "GET /api/profile": { call: () => ({ path: "/api/profile" }), expect: signedInRead() },
  "PUT /api/profile": {
    call: () => ({ path: "/api/profile", ...json({ company_name: "Matrix Roofing" }) }),
    expect: signedInWrite(200),
  },
  "POST /api/profile/logo": {
    // Not multipart: refused as such once the caller is known.
    call: () => ({ path: "/api/profile/logo", raw: "nope", headers: { "Content-Type": "text/plain" } }),
    expect: signedInWrite(400),
  },
  "DELETE /api/profile/logo": { call: () => ({ path: "/api/profile/logo" }), expect: signedInWrite(200) },
  // Deleting one's account needs the password: a wrong one is 400 for everyone signed in, a view-as write 403.
  "DELETE /api/account": { call: () => ({ path: "/api/account", ...json({ password: "not-the-password-1" }) }), expect: signedInWrite(400) },

  // Admins read the outbox with its one-time links redacted.
  "GET /api/admin/outbox": { call: () => ({ path: "/api/admin/outbox" }), expect: adminRead() },
  // Issue 26: the Set-up checklist is the admins'; customers read what their screens may offer.
  "GET /api/admin/setup": { call: () => ({ path: "/api/admin/setup" }), expect: adminRead() },
  "GET /api/capabilities": { call: () => ({ path: "/api/capabilities" }), expect: signedInRead() },
  "GET /api/admin/users": { call: () => ({ path: "/api/admin/users" }), expect: adminRead() },
  "PATCH /api/admin/users/:id": {
    // Granting the same status again to the other user: allowed to an admin, a no-op.
    call: (f) => ({ path: `/api/admin/users/${f.otherId}`, ...json({ is_admin: false }) }),
    expect: adminWrite(200),
  },
  "POST /api/admin/view-as": { call: (f) => ({ path: "/api/admin/view-as", ...json({ userId: f.userId }) }), expect: adminWrite(200) },
  "GET /api/admin/users/:id/budget": { call: (f) => ({ path: `/api/admin/users/${f.userId}/budget` }), expect: adminRead() },
  "PUT /api/admin/users/:id/budget": {
    call: (f) => ({ path: `/api/admin/users/${f.userId}/budget`, ...json({ monthly_usd: null }) }),
    expect: adminWrite(200),
  },

  "GET /api/prospects": { call: () => ({ path: "/api/prospects" }), expect: adminRead() },
  "GET /api/prospects/export.csv": { call: () => ({ path: "/api/prospects/export.csv" }), expect: adminRead() },
  "POST /api/prospects/import": { call: () => ({ path: "/api/prospects/import", ...json({ rows: [] }) }), expect: adminWrite(400) },
  "PATCH /api/prospects/:id": {
    call: () => ({ path: `/api/prospects/${crypto.randomUUID()}`, ...json({ tag: null }) }),
    expect: adminWrite(404),
  },
  "DELETE /api/prospects/:id": { call: () => ({ path: `/api/prospects/${crypto.randomUUID()}` }), expect: adminWrite(404) },

  "GET /api/reports/jobs": { call: () => ({ path: "/api/reports/jobs" }), expect: adminRead() },
  // Nothing is on template content here: 409 for the admin.
  "POST /api/reports/regenerate-template": { call: () => ({ path: "/api/reports/regenerate-template" }), expect: adminWrite(409) },
  "POST /api/reports/:id/regenerate": { call: () => ({ path: `/api/reports/${crypto.randomUUID()}/regenerate` }), expect: adminWrite(404) },
  "GET /api/reports": { call: () => ({ path: "/api/reports" }), expect: adminRead() },
  "GET /api/reports/status": { call: (f) => ({ path: `/api/reports/status?ids=${f.reportId}` }), expect: adminRead() },
  "POST /api/reports": { call: () => ({ path: "/api/reports", ...json({}) }), expect: adminWrite(400) },
  "POST /api/reports/generate-all": { call: () => ({ path: "/api/reports/generate-all" }), expect: adminWrite(202) },
  "GET /api/reports/:id": { call: (f) => ({ path: `/api/reports/${f.reportId}` }), expect: adminRead() },
  "POST /api/reports/:id/generate": { call: () => ({ path: `/api/reports/${crypto.randomUUID()}/generate` }), expect: adminWrite(404) },
  "GET /api/reports/:id/views": { call: (f) => ({ path: `/api/reports/${f.reportId}/views` }), expect: adminRead() },

  // Audits (issue 18): a prospect's are admins'; an own-business audit is its owner's (read as them while viewing as).
  // Rank tracking (issue 19): a prospect's scans and keywords are admins' (an unknown prospect is 404 for them); a
  // user's own are theirs only (another's id is 404); the share page is public (an unknown token is 404).
  "POST /api/rank/grids": {
    call: () => ({ path: "/api/rank/grids", ...json({ prospectId: crypto.randomUUID(), keyword: "plumber", size: 3, radiusMiles: 1 }) }),
    expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 },
  },
  "GET /api/rank/grids": { call: () => ({ path: "/api/rank/grids?business=own" }), expect: signedInRead(200) },
  "GET /api/rank/grids/:id": { call: () => ({ path: `/api/rank/grids/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "GET /api/rank/grids/:id/export.csv": { call: () => ({ path: `/api/rank/grids/${crypto.randomUUID()}/export.csv` }), expect: signedInRead(404) },
  // Citation Tracker (issue 27): a prospect's scans are admins' (an unknown prospect is 404 for them); a user's own
  // are theirs only (another's id is 404); the sources table is for anyone signed in.
  "POST /api/citations/scans": { call: () => ({ path: "/api/citations/scans", ...json({ business: crypto.randomUUID() }) }), expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 } },
  "GET /api/citations/scans": { call: () => ({ path: "/api/citations/scans?business=own" }), expect: signedInRead(200) },
  "GET /api/citations/scans/:id": { call: () => ({ path: `/api/citations/scans/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "GET /api/citations/scans/:id/export.csv": { call: () => ({ path: `/api/citations/scans/${crypto.randomUUID()}/export.csv` }), expect: signedInRead(404) },
  "GET /api/citations/sources": { call: () => ({ path: "/api/citations/sources" }), expect: signedInRead(200) },
  // AI Visibility (issue 29): a prospect's scans and questions are admins' (an unknown prospect is 404 for them); a
  // user's own are theirs only (another's id is 404); viewing as someone is read-only.
  "POST /api/ai-visibility/scans": { call: () => ({ path: "/api/ai-visibility/scans", ...json({ business: crypto.randomUUID() }) }), expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 } },
  "GET /api/ai-visibility/scans": { call: () => ({ path: "/api/ai-visibility/scans?business=own" }), expect: signedInRead(200) },
  "GET /api/ai-visibility/scans/:id": { call: () => ({ path: `/api/ai-visibility/scans/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "GET /api/ai-visibility/answers/:id": { call: () => ({ path: `/api/ai-visibility/answers/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "GET /api/ai-visibility/questions": { call: () => ({ path: "/api/ai-visibility/questions?business=own" }), expect: signedInRead(200) },
  "POST /api/ai-visibility/questions": {
    call: () => ({ path: "/api/ai-visibility/questions", ...json({ business: crypto.randomUUID(), text: "best plumber in Austin" }) }),
    expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 },
  },
  "PATCH /api/ai-visibility/questions/:id": { call: () => ({ path: `/api/ai-visibility/questions/${crypto.randomUUID()}`, ...json({ tracked: true }) }), expect: signedInWrite(404) },
  "DELETE /api/ai-visibility/questions/:id": { call: () => ({ path: `/api/ai-visibility/questions/${crypto.randomUUID()}` }), expect: signedInWrite(404) },
  // Reviews (issue 28): the inbox is the signed-in user's own business; another's review is 404; Check now without
  // Google connected is 409 with what to do; viewing as someone is read-only.
  "GET /api/reviews": { call: () => ({ path: "/api/reviews?business=own&filter=needs_reply" }), expect: signedInRead(200) },
  "POST /api/reviews/sync": { call: () => ({ path: "/api/reviews/sync" }), expect: signedInWrite(409) },
  "GET /api/reviews/settings": { call: () => ({ path: "/api/reviews/settings" }), expect: signedInRead(200) },
  "PUT /api/reviews/settings": { call: () => ({ path: "/api/reviews/settings", ...json({ tone: "nope" }) }), expect: signedInWrite(400) },
  "POST /api/reviews/:id/draft": { call: (f) => ({ path: `/api/reviews/${f.reviewId}/draft` }), expect: ownRowWrite(200) },
  // An acting admin may answer any client's review (the attention queue, issue 41). The owner then finds the admin's
  // reply on its way (409), or, once the test runtime's queue has settled it (no Google here: failed), queues its own.
  "PUT /api/reviews/:id/reply": {
    call: (f) => ({ path: `/api/reviews/${f.reviewId}/reply`, ...json({ comment: "Thank you!" }) }),
    expect: { ...ownRowWrite(202), admin: 202, user: oneOf(202, 409) },
    adminSees: true,
  },
  "DELETE /api/reviews/:id/reply": { call: (f) => ({ path: `/api/reviews/${f.reviewId}/reply` }), expect: ownRowWrite(409) },
  "GET /api/rank/keywords": { call: () => ({ path: "/api/rank/keywords?business=own" }), expect: signedInRead(200) },
  "POST /api/rank/keywords": {
    call: () => ({ path: "/api/rank/keywords", ...json({ prospectId: crypto.randomUUID(), keyword: "plumber" }) }),
    expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 },
  },
  "GET /api/rank/keywords/:id": { call: () => ({ path: `/api/rank/keywords/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "PATCH /api/rank/keywords/:id": { call: () => ({ path: `/api/rank/keywords/${crypto.randomUUID()}`, ...json({ paused: true }) }), expect: signedInWrite(404) },
  "DELETE /api/rank/keywords/:id": { call: () => ({ path: `/api/rank/keywords/${crypto.randomUUID()}` }), expect: signedInWrite(404) },
  "GET /api/rank/keywords/:id/export.csv": { call: () => ({ path: `/api/rank/keywords/${crypto.randomUUID()}/export.csv` }), expect: signedInRead(404) },
  "GET /api/shared/grids/:token": { call: () => ({ path: `/api/shared/grids/${"ab".repeat(16)}` }), expect: all(404) },
  "POST /api/audits": { call: () => ({ path: "/api/audits", ...json({ prospectId: crypto.randomUUID() }) }), expect: { anon: 401, user: 403, other: 403, admin: 404, viewAs: 403 } },
  "GET /api/audits": { call: () => ({ path: "/api/audits?own=1" }), expect: signedInRead(200) },
  "GET /api/audits/:id": { call: () => ({ path: `/api/audits/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "POST /api/audits/:id/listing": {
    call: () => ({ path: `/api/audits/${crypto.randomUUID()}/listing`, ...json({ placeId: "ChIJnone" }) }),
    expect: { anon: 401, user: 404, other: 404, admin: 404, viewAs: 403 },
  },

  // The shared report and its chat are public: the same answer for everyone.
  "GET /api/shared/reports/:id": { call: (f) => ({ path: `/api/shared/reports/${f.reportId}` }), expect: all(200) },
  "POST /api/shared/reports/:id/events": {
    call: (f) => ({ path: `/api/shared/reports/${f.reportId}/events`, ...json({ type: "view" }) }),
    expect: all(204),
  },
  // An answer behind the shared report's AI Visibility figures: only one of that report's scan (none here).
  "GET /api/shared/reports/:id/ai-answers/:answerId": { call: (f) => ({ path: `/api/shared/reports/${f.reportId}/ai-answers/${crypto.randomUUID()}` }), expect: all(404) },
  "GET /shared/reports/:id": { call: (f) => ({ path: `/shared/reports/${f.reportId}` }), expect: all(200) },
  "GET /shared/reports/:id/card.png": { call: (f) => ({ path: `/shared/reports/${f.reportId}/card.png` }), expect: all(200) },
  // The monthly client report's link (issue 30): public behind its unguessable token; an unknown one is the same 404.
  "GET /shared/client-reports/:token": { call: (f) => ({ path: `/shared/client-reports/${f.clientReportToken}` }), expect: all(200) },
  "GET /shared/client-reports/:file{[A-Za-z0-9_-]+\\.pdf}": { call: (f) => ({ path: `/shared/client-reports/${f.clientReportToken}.pdf` }), expect: all(200) },
  // The report recipients' consent pages (issue 39): public behind unguessable tokens; an unknown token is a 404 page.
  "GET /shared/client-reports/recipients/confirm/:token": { call: () => ({ path: "/shared/client-reports/recipients/confirm/not-a-token" }), expect: all(404) },
  "POST /shared/client-reports/recipients/confirm/:token": { call: () => ({ path: "/shared/client-reports/recipients/confirm/not-a-token", raw: "" }), expect: all(404) },
  "GET /shared/client-reports/recipients/unsubscribe/:token": { call: () => ({ path: "/shared/client-reports/recipients/unsubscribe/not-a-token" }), expect: all(404) },
  "POST /shared/client-reports/recipients/unsubscribe/:token": { call: () => ({ path: "/shared/client-reports/recipients/unsubscribe/not-a-token", raw: "List-Unsubscribe=One-Click" }), expect: all(404) },
  "GET /shared/client-reports/:token/card.png": { call: (f) => ({ path: `/shared/client-reports/${f.clientReportToken}/card.png` }), expect: all(200) },
  "POST /api/shared/client-reports/:token/events": {
    call: (f) => ({ path: `/api/shared/client-reports/${f.clientReportToken}/events`, ...json({ event: "opened", visit: "x" }) }),
    expect: all(204),
  },
  "GET /api/shared/chat/:reportId": { call: (f) => ({ path: `/api/shared/chat/${f.reportId}` }), expect: all(200) },
  "POST /api/shared/chat/:reportId/messages": {
    call: (f) => ({ path: `/api/shared/chat/${f.reportId}/messages`, ...json({ messages: [] }) }),
    expect: all(400),
  },

  "GET /api/files/*": { call: () => ({ path: "/api/files/logos/nothing-here.png" }), expect: all(404) },

  "GET /api/posts": { call: () => ({ path: "/api/posts" }), expect: signedInRead() },

  // Google Business Profile: the callback is public (the state names the user; without one it goes back to the page).
  "GET /api/integrations": { call: () => ({ path: "/api/integrations" }), expect: signedInRead() },
  "GET /api/integrations/google/start": { call: () => ({ path: "/api/integrations/google/start" }), expect: signedInWrite(200) },
  "GET /api/integrations/google/callback": { call: () => ({ path: "/api/integrations/google/callback?code=x&state=forged" }), expect: all(302) },
  "PUT /api/integrations/google/locations": { call: () => ({ path: "/api/integrations/google/locations", ...json({ locations: [] }) }), expect: signedInWrite(400) },
  "DELETE /api/integrations/google": { call: () => ({ path: "/api/integrations/google" }), expect: signedInWrite(404) },
  // The guard on Google profiles (issue 41): one's own (read as them while viewing as); a client's for an acting admin;
  // another's change is not found; viewing as is read-only.
  "GET /api/gbp/guard": { call: () => ({ path: "/api/gbp/guard?business=own" }), expect: signedInRead(200) },
  "POST /api/gbp/guard/check": { call: () => ({ path: "/api/gbp/guard/check?business=own" }), expect: signedInWrite(202) },
  "POST /api/gbp/guard/edit": { call: () => ({ path: "/api/gbp/guard/edit?business=own", ...json({ locationName: "accounts/1/locations/404", edit: { field: "title", title: "Ridge Roofing" } }) }), expect: signedInWrite(404) },
  "POST /api/gbp/guard/:id/accept": { call: () => ({ path: `/api/gbp/guard/${crypto.randomUUID()}/accept`, ...json({}) }), expect: signedInWrite(404) },
  "POST /api/gbp/guard/:id/reject": { call: () => ({ path: `/api/gbp/guard/${crypto.randomUUID()}/reject`, ...json({}) }), expect: signedInWrite(404) },
  // The attention queue (issue 41): the agency's admins only.
  "GET /api/pipeline": { call: () => ({ path: "/api/pipeline?stage=new" }), expect: adminRead() },
  "GET /api/pipeline/:id": { call: () => ({ path: `/api/pipeline/${crypto.randomUUID()}` }), expect: adminRead(404) },
  "POST /api/prospects/:id/convert": { call: () => ({ path: `/api/prospects/${crypto.randomUUID()}/convert`, method: "POST" }), expect: adminWrite(404) },
  "GET /api/agency/attention": { call: () => ({ path: "/api/agency/attention?status=open" }), expect: adminRead() },
  "POST /api/agency/attention/:id": { call: () => ({ path: `/api/agency/attention/${crypto.randomUUID()}`, ...json({ action: "done" }) }), expect: adminWrite(404) },
  // The clients view (issue 41): admins only; the manager of an unknown client is 404.
  "GET /api/agency/clients": { call: () => ({ path: "/api/agency/clients?sort=health" }), expect: adminRead(), adminSees: true },
  "GET /api/agency/clients/export.csv": { call: () => ({ path: "/api/agency/clients/export.csv" }), expect: adminRead(), adminSees: true },
  "POST /api/agency/clients/bulk": { call: (f) => ({ path: "/api/agency/clients/bulk?estimate=1", ...json({ action: "run_grid", userIds: [f.userId] }) }), expect: adminWrite(200) },
  "PUT /api/agency/clients/:userId": { call: () => ({ path: `/api/agency/clients/${crypto.randomUUID()}`, ...json({ managerId: null }) }), expect: adminWrite(404) },
  "GET /api/agency/views": { call: () => ({ path: "/api/agency/views" }), expect: adminRead() },
  "PUT /api/agency/views": { call: () => ({ path: "/api/agency/views", ...json({ hiddenColumns: [], views: [] }) }), expect: adminWrite(200) },
  // Free-audit widgets (issue 21): admins manage them; the script, frame and lead routes are public, for listed origins.
  "GET /api/widgets": { call: () => ({ path: "/api/widgets" }), expect: adminRead() },
  "POST /api/widgets": { call: () => ({ path: "/api/widgets", ...json({}) }), expect: adminWrite(400) },
  "GET /api/widgets/:id": { call: () => ({ path: `/api/widgets/${crypto.randomUUID()}` }), expect: adminRead(404) },
  "PATCH /api/widgets/:id": { call: () => ({ path: `/api/widgets/${crypto.randomUUID()}`, ...json({ name: "x" }) }), expect: adminWrite(404) },
  "DELETE /api/widgets/:id": { call: () => ({ path: `/api/widgets/${crypto.randomUUID()}` }), expect: adminWrite(404) },
  "POST /api/widgets/:id/logo": { call: () => ({ path: `/api/widgets/${crypto.randomUUID()}/logo` }), expect: adminWrite(404) },
  "GET /widget/:file{[^/]+\\.js}": { call: (f) => ({ path: `/widget/${f.widgetId}.js` }), expect: all(200) },
  "GET /widget/:id/frame": { call: (f) => ({ path: `/widget/${f.widgetId}/frame` }), expect: all(200) },
  "OPTIONS /api/widget/:id/leads": { call: (f) => ({ path: `/api/widget/${f.widgetId}/leads`, headers: { Origin: WIDGET_ORIGIN } }), expect: all(204) },
  "OPTIONS /api/widget/:id/leads/:leadId": {
    call: (f) => ({ path: `/api/widget/${f.widgetId}/leads/${crypto.randomUUID()}`, headers: { Origin: WIDGET_ORIGIN } }),
    expect: all(204),
  },
  "POST /api/widget/:id/leads": { call: (f) => ({ path: `/api/widget/${f.widgetId}/leads`, headers: { Origin: WIDGET_ORIGIN }, ...json({}) }), expect: all(400) },
  "GET /api/widget/:id/leads/:leadId": { call: (f) => ({ path: `/api/widget/${f.widgetId}/leads/${crypto.randomUUID()}` }), expect: all(404) },
  // Alerts (issue 21): each user's own bell and settings; view-as reads the viewed user's, never writes.
  "GET /api/notifications": { call: () => ({ path: "/api/notifications" }), expect: signedInRead() },
  "POST /api/notifications/read": { call: () => ({ path: "/api/notifications/read", ...json({ all: true }) }), expect: signedInWrite(200) },
  "GET /api/notifications/settings": { call: () => ({ path: "/api/notifications/settings" }), expect: signedInRead() },
  "PUT /api/notifications/settings": {
    call: () => ({ path: "/api/notifications/settings", ...json({ settings: [{ kind: "report_printed", inApp: true, byMail: false }] }) }),
    expect: signedInWrite(200),
  },
  // Review requests (issue 28): each business's own; the hook (token), unsubscribe, Twilio's callbacks (signature) and the link are public.
  "GET /api/review-requests": { call: () => ({ path: "/api/review-requests" }), expect: signedInRead() },
  "POST /api/review-requests": { call: () => ({ path: "/api/review-requests", ...json({ customers: [] }) }), expect: signedInWrite(400) },
  "GET /api/review-requests/link": { call: () => ({ path: "/api/review-requests/link" }), expect: signedInRead() },
  "GET /api/review-requests/settings": { call: () => ({ path: "/api/review-requests/settings" }), expect: signedInRead() },
  "PUT /api/review-requests/settings": { call: () => ({ path: "/api/review-requests/settings", ...json({ delayMinutes: -1 }) }), expect: signedInWrite(400) },
  "POST /api/review-requests/settings/hook": { call: () => ({ path: "/api/review-requests/settings/hook", ...json({}) }), expect: signedInWrite(201) },
  "POST /api/review-requests/hook/:token": { call: () => ({ path: `/api/review-requests/hook/${"x".repeat(40)}`, ...json({ name: "Ann", email: "ann@example.com" }) }), expect: all(401) },
  "POST /api/review-requests/unsubscribe": { call: () => ({ path: "/api/review-requests/unsubscribe", ...json({ token: "not-a-token" }) }), expect: all(404) },
  "POST /api/review-requests/sms/status": { call: () => ({ path: "/api/review-requests/sms/status", raw: "MessageSid=SM1&MessageStatus=delivered", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), expect: all(403) },
  "POST /api/review-requests/sms/incoming": { call: () => ({ path: "/api/review-requests/sms/incoming", raw: "From=%2B15125550142&Body=STOP", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), expect: all(403) },
  "GET /r/:slug": { call: () => ({ path: "/r/nosuchslug" }), expect: all(404) },
  "GET /r/:slug/stop": { call: () => ({ path: "/r/nosuchslug/stop?r=x" }), expect: all(404) },
  // The agency's brand (issue 30): anyone reads its public fields, its logo and its accent's stylesheet; admins change it.
  "GET /api/brand": { call: () => ({ path: "/api/brand" }), expect: all(200) },
  "PUT /api/brand": { call: () => ({ path: "/api/brand", ...json({}) }), expect: adminWrite(400) },
  "POST /api/brand/logo": { call: () => ({ path: "/api/brand/logo", raw: "nope", headers: { "Content-Type": "text/plain" } }), expect: adminWrite(400) },
  "DELETE /api/brand": { call: () => ({ path: "/api/brand" }), expect: adminWrite(200) },
  "DELETE /api/brand/logo": { call: () => ({ path: "/api/brand/logo" }), expect: adminWrite(200) },
  "GET /api/brand/logo": { call: () => ({ path: "/api/brand/logo?v=1" }), expect: all(404) },
  "GET /api/brand/theme.css": { call: () => ({ path: "/api/brand/theme.css?accent=1d4ed8" }), expect: all(200) },
  // Monthly client reports (issue 30): admins list every client, build, send and switch any business user's on or off;
  // a user lists and reads their own and switches their own (another's settings: 403).
  "GET /api/client-reports": { call: () => ({ path: "/api/client-reports" }), expect: signedInRead(), adminSees: true },
  "POST /api/client-reports": { call: () => ({ path: "/api/client-reports", ...json({}) }), expect: adminWrite(400) },
  "GET /api/client-reports/:id": { call: () => ({ path: `/api/client-reports/${crypto.randomUUID()}` }), expect: signedInRead(404) },
  "POST /api/client-reports/:id/send": { call: () => ({ path: `/api/client-reports/${crypto.randomUUID()}/send` }), expect: adminWrite(404) },
  "PUT /api/client-reports/settings/:userId": {
    call: (f) => ({ path: `/api/client-reports/settings/${f.userId}`, ...json({ enabled: false }) }),
    expect: { anon: 401, other: 403, viewAs: 403, admin: 200, user: 200 },
    adminSees: true,
  },
  // Outgoing webhooks: admins only.
  "GET /api/webhooks": { call: () => ({ path: "/api/webhooks" }), expect: adminRead() },
  "POST /api/webhooks": { call: () => ({ path: "/api/webhooks", ...json({ url: "ftp://example.com/x", events: ["report.ready"] }) }), expect: adminWrite(400) },
  "PATCH /api/webhooks/:id": { call: () => ({ path: `/api/webhooks/${crypto.randomUUID()}`, ...json({ description: "x" }) }), expect: adminWrite(404) },
  "DELETE /api/webhooks/:id": { call: () => ({ path: `/api/webhooks/${crypto.randomUUID()}` }), expect: adminWrite(404) },
  "GET /api/webhooks/:id/deliveries": { call: () => ({ path: `/api/webhooks/${crypto.randomUUID()}/deliveries` }), expect: adminRead(404) },
  "POST /api/webhooks/:id/test": { call: () => ({ path: `/api/webhooks/${crypto.randomUUID()}/test`, ...json({}) }), expect: adminWrite(404) },
  "POST /api/webhooks/:id/deliveries/:deliveryId/replay": {
    call: () => ({ path: `/api/webhooks/${crypto.randomUUID()}/deliveries/${crypto.randomUUID()}/replay` }),
    expect: adminWrite(404),
  },
  "GET /api/schedule": { call: () => ({ path: "/api/schedule" }), expect: signedInRead() },
  "POST /api/schedule": { call: () => ({ path: "/api/schedule", ...json({ post: { type: "STANDARD" } }) }), expect: signedInWrite(400) },
  "PATCH /api/schedule/:id": { call: (f) => ({ path: `/api/schedule/${f.scheduledPostId}`, ...json({ timezone: "UTC" }) }), expect: ownRowWrite(200) },
  "DELETE /api/schedule/:id": { call: (f) => ({ path: `/api/schedule/${f.scheduledPostId}` }), expect: ownRowWrite(204) },
  "POST /api/posts/facebook": { call: () => ({ path: "/api/posts/facebook", ...json({ tone: "nope" }) }), expect: signedInWrite(400) },
  "PATCH /api/posts/:id": { call: (f) => ({ path: `/api/posts/${f.postId}`, ...json({ content: "Edited by its owner" }) }), expect: ownRowWrite(200) },
  "DELETE /api/posts/:id": { call: (f) => ({ path: `/api/posts/${f.postId}` }), expect: ownRowWrite(204) },

  "GET /api/content": { call: () => ({ path: "/api/content?tool=gmb-post" }), expect: signedInRead() },
  "GET /api/content/:id": {
    call: (f) => ({ path: `/api/content/${f.contentId}` }),
    expect: { anon: 401, other: 404, viewAs: 200, admin: 404, user: 200 },
  },
  // No profile for the other users and the admin: the generator asks for one first (400 profile_required).
  // A `null` body is a 400 for everyone (it once ran a metered generation with defaults for the user, who has a profile).
  "POST /api/content/:tool": { call: () => ({ path: "/api/content/gmb-post", raw: "null" }), expect: signedInWrite(400) },
  "PATCH /api/content/:id": { call: (f) => ({ path: `/api/content/${f.contentId}`, ...json({ result: { type: "STANDARD", summary: `Edited ${MARK}` } }) }), expect: ownRowWrite(200) },
  "POST /api/content/:id/calendar": { call: (f) => ({ path: `/api/content/${f.planId}/calendar` }), expect: ownRowWrite(200) },
  "DELETE /api/content/:id": { call: (f) => ({ path: `/api/content/${f.contentId}` }), expect: ownRowWrite(204) },
  "GET /api/calendar/:file": { call: () => ({ path: "/api/calendar/not-a-real-token.ics" }), expect: all(404) },

  "GET /api/usage": { call: () => ({ path: "/api/usage" }), expect: signedInRead() },
  "GET /api/usage/export.csv": { call: () => ({ path: "/api/usage/export.csv" }), expect: adminRead() },

  "GET /api/chat/:reportId": { call: (f) => ({ path: `/api/chat/${f.reportId}` }), expect: adminRead() },
  "POST /api/chat/:reportId/messages": {
    call: (f) => ({ path: `/api/chat/${f.reportId}/messages`, ...json({ messages: [] }) }),
    expect: adminWrite(400),
  },
  "GET /api/chat/:reportId/conversations": { call: (f) => ({ path: `/api/chat/${f.reportId}/conversations` }), expect: adminRead() },

  // No ElevenLabs key in the tests: 501 once the caller may ask; a visitor needs a shared chat's report id.
  // Free text with a made-up signature: refused for everyone (403 voice_line_refused; anonymous without a chat 401).
  "POST /api/tts": { call: () => ({ path: "/api/tts", ...json({ text: "Hello", token: "1.0" }) }), expect: { ...all(403), anon: 401 } },

  "GET /api/tools/google-results": { call: () => ({ path: "/api/tools/google-results" }), expect: signedInRead(400) },
  "GET /api/tools/local-services": { call: () => ({ path: "/api/tools/local-services" }), expect: signedInRead(400) },

  "GET /api/billing": { call: () => ({ path: "/api/billing" }), expect: signedInRead() },
  // Stripe's webhook is public and proven by its signature: unsigned is 400 for everyone.
  "POST /api/billing/webhook": { call: () => ({ path: "/api/billing/webhook", ...json({ id: "evt_1" }) }), expect: all(400) },
};

/** Every route the app serves, as "METHOD path"; middleware-only entries (ALL /*) are not routes. */
function appRoutes(): string[] {
  const keys = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL") continue;
    keys.add(`${r.method} ${r.path}`);
  }
  return [...keys].sort();
}

let user: Awaited<ReturnType<typeof signUp>>;
let other: Awaited<ReturnType<typeof signUp>>;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let fixture: Fixture;

beforeAll(async () => {
  [user, other, admin] = await Promise.all([signUp(), signUp(), signUpAdmin()]);
  await env.DB.prepare("update profiles set company_name = ?, company_phone = '555-0100' where id = ?")
    .bind(`Owner Roofing ${MARK}`, user.user.id)
    .run();
  const db = getDb(env);
  const req = PostRequest.parse({ description: "spring" });
  const post = await insertPost(
    db,
    user.user.id,
    req,
    { title: `Post ${MARK}`, content: `Owner's post ${MARK}`, tags: [], keywords: [], imagePrompt: "", image: "" },
    "template",
  );
  await env.DB.prepare(
    `insert into ai_usage_logs (id, event_id, user_id, tool_name, model, input_tokens, output_tokens, total_tokens, estimated_cost, created_at)
     values (?, ?, ?, 'facebook_post', ?, 10, 10, 20, 0.5, ?)`,
  )
    .bind(crypto.randomUUID(), crypto.randomUUID(), user.user.id, `model-${MARK}`, new Date().toISOString())
    .run();
  const report = await readyReport();
  const scheduled = await insertScheduledPost(db, {
    userId: user.user.id,
    post: { type: "STANDARD", summary: `Scheduled ${MARK}` },
    scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    timezone: "America/Chicago",
    locationName: null,
    locationTitle: null,
    contentId: null,
  });
  const gmb = await insertContent(db, user.user.id, {
    tool: "gmb-post",
    title: `Update ${MARK}`,
    input: {},
    result: { type: "STANDARD", summary: `Owner's GMB post ${MARK}` },
    source: "template",
    notice: null,
    notes: [],
  });
  const plan = await insertContent(db, user.user.id, {
    tool: "social-plan",
    title: `Plan ${MARK}`,
    input: {},
    result: { month: "2026-12", themes: [], days: [] },
    source: "template",
    notice: null,
    notes: [],
  });
  const widget = await insertWidget(db, { ownerId: admin.user.id, name: "Matrix", accent: "#1f5fa6", origins: JSON.stringify([WIDGET_ORIGIN]) });
  const reviewId = crypto.randomUUID();
  await env.DB.prepare(
    "insert into reviews (id, user_id, location_name, google_review_id, google_name, reviewer_name, stars, comment, create_time, update_time) values (?, ?, 'accounts/1/locations/2', ?, ?, 'Maria', 5, ?, ?, ?)",
  )
    .bind(reviewId, user.user.id, `g-${reviewId}`, `accounts/1/locations/2/reviews/g-${reviewId}`, `Owner's review ${MARK}`, new Date().toISOString(), new Date().toISOString())
    .run();
  fixture = {
    postId: post.id,
    scheduledPostId: scheduled.id,
    contentId: gmb.id,
    planId: plan.id,
    reportId: report.id,
    userId: user.user.id,
    otherId: other.user.id,
    widgetId: widget.id,
    reviewId,
    clientReportToken: (await seedClientReport(user.user.id)).token,
  };
});

function tokenFor(role: Role) {
  if (role === "anon") return undefined;
  if (role === "user") return user.session.access_token;
  if (role === "other") return other.session.access_token;
  return admin.session.access_token;
}

describe("access matrix", () => {
  it("lists every route the app serves, and only those", () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((r) => !(r in MATRIX)), "routes missing from the access matrix").toEqual([]);
    expect(Object.keys(MATRIX).filter((r) => !routes.includes(r)), "matrix rows for routes that do not exist").toEqual([]);
  });

  it("answers every role with exactly its expected status, and never leaks the user's data to others", async () => {
    const got: Record<string, Partial<Record<Role, number>>> = {};
    const leaks: string[] = [];
    let requests = 0;
    const slowest: Array<[string, number]> = [];
    for (const role of ROLES) {
      for (const [key, row] of Object.entries(MATRIX)) {
        const [method] = key.split(" ");
        const call = row.call(fixture);
        const headers: Record<string, string> = { ...call.headers };
        if (role === "viewAs") headers["X-View-As"] = fixture.userId;
        const started = Date.now();
        const res = await api(call.path, {
          method,
          token: tokenFor(role),
          headers,
          redirect: "manual",
          body: call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
        });
        slowest.push([`${role} ${key}`, Date.now() - started]);
        requests += 1;
        (got[key] ??= {})[role] = res.status;
        const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body ?? "");
        // The visitor and the other user never see the user's id, email or marked data; admin routes may.
        const mayRead = role === "user" || role === "viewAs" || (role === "admin" && (row.expect.user === 403 || row.adminSees === true));
        if (!mayRead && (text.includes(MARK) || text.includes(user.email) || text.includes(fixture.userId))) {
          leaks.push(`${role} ${key}`);
        }
        if (res.status >= 400 && !key.includes("/auth/v1/")) {
          expect(res.body?.error, `${role} ${key}`).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
        if (role === "viewAs" && res.status === 403 && !["GET", "HEAD"].includes(method) && row.expect.user !== 403) {
          expect(res.body.error.code, `${role} ${key}`).toBe("view_as_read_only");
        }
      }
    }
    const expected = Object.fromEntries(Object.entries(MATRIX).map(([k, r]) => [k, r.expect]));
    expect(got).toEqual(expected);
    expect(leaks).toEqual([]);
    expect(requests).toBe(Object.keys(MATRIX).length * ROLES.length);
    console.log(`access matrix: ${Object.keys(MATRIX).length} routes x ${ROLES.length} roles = ${requests} requests`);
    // Where the sweep's time goes (information for whoever finds it slow, not an assertion).
    console.log(`slowest: ${slowest.sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, ms]) => `${k} ${ms} ms`).join("; ")}`);
    // A hang guard, not a timing assertion: the sweep makes over a thousand sequential requests through the whole app.
  }, 300_000);

  it("shows the user's own profile and usage to the viewing admin, the other user none of it", async () => {
    await env.DB.prepare("update profiles set company_name = ? where id = ?").bind(`Owner Roofing ${MARK}`, user.user.id).run();
    const asUser = await api("/api/usage", { token: user.session.access_token });
    const asOther = await api("/api/usage", { token: other.session.access_token });
    const asView = await api("/api/usage", { token: admin.session.access_token, viewAs: user.user.id });
    expect(JSON.stringify(asUser.body)).toContain(MARK);
    expect(JSON.stringify(asView.body)).toContain(MARK);
    expect(JSON.stringify(asOther.body)).not.toContain(MARK);
    const profileView = await api("/api/profile", { token: admin.session.access_token, viewAs: user.user.id });
    expect(JSON.stringify(profileView.body)).toContain(MARK);
  });

  it("keeps the readable outbox to a loopback host", async () => {
    const res = await SELF.fetch("http://porchlight.example/auth/v1/outbox");
    expect(res.status).toBe(404);
  });
});
